// What the journal covers and what it keeps, from chunk keys alone (./codec.ts): the
// coverage answer of `GET /api/v1/journal/coverage` (console-api.md "The decision journal")
// and the trim plan — retention first, then the byte cap, oldest first, whole segments
// (a checkpoint and its deltas) only, so any moment kept is still one checkpoint plus
// deltas. Pure.
import { gapReasonOf, isCheckpoint, type ChunkMeta, type GapReason } from "./codec";

interface JournalGap {
  from_ms: number;
  to_ms: number;
  reason: GapReason;
}

export interface Coverage {
  from_ms: number | null;
  to_ms: number | null;
  entries: number;
  bytes: number;
  retention_ms: number;
  gaps: JournalGap[];
}

/** The metas from the first checkpoint on (a delta before any checkpoint cannot be read). */
function readable(metas: readonly ChunkMeta[]): readonly ChunkMeta[] {
  const first = metas.findIndex((m) => isCheckpoint(m.kind));
  return first < 0 ? [] : metas.slice(first);
}

/**
 * `metas` in key (time) order. `trimmedToMs`: where the last byte-cap trim left the
 * journal's start; while that is younger than the retention horizon, the span between is
 * a `trimmed` gap.
 */
export function coverageOf(
  metas: readonly ChunkMeta[],
  trimmedToMs: number | null,
  nowMs: number,
  retentionMs: number,
): Coverage {
  const kept = readable(metas);
  const gaps: JournalGap[] = [];
  const first = kept[0];
  if (first && trimmedToMs !== null && trimmedToMs >= first.from_ms && first.from_ms > nowMs - retentionMs) {
    gaps.push({ from_ms: nowMs - retentionMs, to_ms: first.from_ms, reason: "trimmed" });
  }
  let entries = 0;
  let bytes = 0;
  kept.forEach((m, i) => {
    entries += m.entries;
    bytes += m.bytes;
    const reason = gapReasonOf(m.kind);
    if (i > 0 && reason) gaps.push({ from_ms: kept[i - 1].to_ms, to_ms: m.from_ms, reason });
  });
  return {
    from_ms: first?.from_ms ?? null,
    to_ms: kept.at(-1)?.to_ms ?? null,
    entries,
    bytes,
    retention_ms: retentionMs,
    gaps,
  };
}

export interface TrimPlan {
  /** delete every chunk key before this one (null: nothing to trim) */
  keepFromKey: string | null;
  /** set when the byte cap (not retention) dropped something: the new start */
  trimmedToMs: number | null;
}

export function trimPlan(metas: readonly ChunkMeta[], nowMs: number, retentionMs: number, maxBytes: number): TrimPlan {
  const starts = metas.flatMap((m, i) => (isCheckpoint(m.kind) ? [i] : []));
  if (starts.length === 0) return { keepFromKey: null, trimmedToMs: null };
  let keep = starts[0]; // index of the first kept chunk (unreadable leading deltas go too)
  let s = 0;
  // retention: a segment goes once its last chunk ended before the horizon (the newest segment stays)
  while (s + 1 < starts.length && metas[starts[s + 1] - 1].to_ms < nowMs - retentionMs) keep = starts[++s];
  let bytes = metas.slice(keep).reduce((n, m) => n + m.bytes, 0);
  let trimmedToMs: number | null = null;
  while (bytes > maxBytes && s + 1 < starts.length) {
    for (let i = starts[s]; i < starts[s + 1]; i++) bytes -= metas[i].bytes;
    keep = starts[++s];
    trimmedToMs = metas[keep].from_ms;
  }
  return { keepFromKey: keep > 0 ? metas[keep].key : null, trimmedToMs };
}
