// One table's history from the journal (console-api.md "The decision journal": history
// points with `basis: journal`, and `time_in_state`). Pure: the chunks to read are chosen
// from their keys alone (the checkpoint at or before the window plus the chunks that
// overlap it — never the whole retention), the covered spans come from the keys too, and
// the table's entries from the decoded chunks.
import type { WhyNotCode } from "@/lib/schema/codes";
import { gapReasonOf, isCheckpoint, type ChunkMeta, type JournalChunk } from "./codec";
import { sameState, type TableState } from "./entry";
import { foldChunks } from "./fold";
import type { Capacities } from "./inputs";

/** The key range [fromKey, toKey) to read for [fromMs, toMs] (null: the journal holds nothing readable there). */
export function chunkRange(
  metas: readonly ChunkMeta[],
  fromMs: number,
  toMs: number,
): { fromKey: string; toKey: string | null } | null {
  let start = -1;
  for (let i = 0; i < metas.length && metas[i].from_ms <= fromMs; i++) if (isCheckpoint(metas[i].kind)) start = i;
  if (start < 0) start = metas.findIndex((m) => isCheckpoint(m.kind)); // the journal starts inside the window
  if (start < 0 || metas[start].from_ms > toMs) return null;
  let end = start;
  while (end + 1 < metas.length && metas[end + 1].from_ms <= toMs) end++;
  return { fromKey: metas[start].key, toKey: metas[end + 1]?.key ?? null };
}

/**
 * The key runs to read for [fromMs, toMs]: `chunkRange` without the restatements after its
 * first chunk (kind `restated`: a periodic checkpoint whose evaluation the delta before it
 * holds too, lib/journal/log.ts). The fold already holds the state they restate, so they
 * are neither fetched nor decoded; at 8× the tables each is ~0.7 MB, twelve in a 6 h
 * window. An older writer's periodic checkpoint (kind `checkpoint`) holds its evaluation
 * alone, and is read.
 */
export function chunkRuns(
  metas: readonly ChunkMeta[],
  fromMs: number,
  toMs: number,
): { fromKey: string; toKey: string | null }[] | null {
  const range = chunkRange(metas, fromMs, toMs);
  if (range === null) return null;
  const start = metas.findIndex((m) => m.key === range.fromKey);
  const end = range.toKey === null ? metas.length : metas.findIndex((m) => m.key === range.toKey);
  const runs: { fromKey: string; toKey: string | null }[] = [];
  let open: number | null = null;
  for (let i = start; i < end; i++) {
    const restated = i > start && metas[i].kind === "restated";
    if (restated && open !== null) {
      runs.push({ fromKey: metas[open].key, toKey: metas[i].key });
      open = null;
    } else if (!restated && open === null) open = i;
  }
  if (open !== null) runs.push({ fromKey: metas[open].key, toKey: metas[end]?.key ?? null });
  return runs;
}

/** The spans [from_ms, to_ms] the journal covers without a gap (from keys; leading deltas are unreadable). */
export function coveredSpans(metas: readonly ChunkMeta[]): { from_ms: number; to_ms: number }[] {
  const first = metas.findIndex((m) => isCheckpoint(m.kind));
  if (first < 0) return [];
  const out: { from_ms: number; to_ms: number }[] = [];
  for (const m of metas.slice(first)) {
    const last = out.at(-1);
    if (last && gapReasonOf(m.kind) === null) last.to_ms = Math.max(last.to_ms, m.to_ms);
    else out.push({ from_ms: m.from_ms, to_ms: m.to_ms });
  }
  return out;
}

/** [fromMs, toMs] minus `spans` (ascending, disjoint). */
export function uncovered(
  spans: readonly { from_ms: number; to_ms: number }[],
  fromMs: number,
  toMs: number,
): { from_ms: number; to_ms: number }[] {
  const out: { from_ms: number; to_ms: number }[] = [];
  let at = fromMs;
  for (const s of spans) {
    if (s.to_ms < at) continue;
    if (s.from_ms > toMs) break;
    if (s.from_ms > at) out.push({ from_ms: at, to_ms: s.from_ms });
    at = Math.max(at, s.to_ms);
  }
  if (at < toMs) out.push({ from_ms: at, to_ms: toMs });
  return out;
}

export interface TargetChange {
  revision: number;
  now_ms: number;
  /** null: the table left the plan at this evaluation */
  state: TableState | null;
  /** other tables this evaluation newly placed (empty at a checkpoint, which restates every table) */
  placed_with: string[];
  /** the executors' capacity this evaluation read (absent: not marked) */
  capacities?: Capacities;
}

/**
 * The table's entry at `fromMs` (undefined: the chunks do not reach back to it; null: not
 * in the plan then), the revision that evaluation read, and every change of it in (fromMs, toMs], oldest first. A checkpoint
 * restating an unchanged entry is not a change, except at `restarts` (the first moments
 * after a gap, ./coverage.ts): there the entry is stated again, since what held in the gap
 * is not the journal's.
 */
export function targetTimeline(
  chunks: Iterable<JournalChunk>,
  target: string,
  fromMs: number,
  toMs: number,
  restarts: ReadonlySet<number> = new Set(),
): { initial: TableState | null | undefined; initialRevision: number | null; changes: TargetChange[] } {
  let initial: TableState | null | undefined = undefined;
  let initialRevision: number | null = null;
  let current: TableState | null | undefined = undefined;
  const changes: TargetChange[] = [];
  for (const ev of foldChunks(chunks)) {
    if (ev.now_ms > toMs) break;
    const next = ev.state.get(target) ?? null;
    if (ev.now_ms <= fromMs) {
      initial = current = next;
      initialRevision = ev.revision;
      continue;
    }
    const restart = ev.checkpoint && restarts.has(ev.now_ms);
    if (!restart && current !== undefined && sameOrBothNull(current, next)) continue;
    const placedWith: string[] = [];
    if (ev.checkpoint) {
      // a checkpoint restates every table: none of them newly placed
    } else if (ev.placed) {
      for (const other of ev.placed) if (other !== target) placedWith.push(other);
    } else
      for (const [other, s] of ev.changed)
        if (other !== target && s.verdict.state === "would_place") placedWith.push(other);
    const change: TargetChange = { revision: ev.revision, now_ms: ev.now_ms, state: next, placed_with: placedWith };
    if (ev.capacities) change.capacities = ev.capacities;
    changes.push(change);
    current = next;
  }
  return { initial, initialRevision, changes };
}

function sameOrBothNull(a: TableState | null, b: TableState | null): boolean {
  return a === null || b === null ? a === b : sameState(a, b);
}

export type StateKey = { state: "would_place" | "would_skip" | "gone" | "unknown"; code: WhyNotCode | null };

/**
 * Time in each verdict over [fromMs, toMs], longest first (ties by state, then code):
 * `marks` (any order) each say the verdict from its moment on; before the first, "unknown".
 */
export function timeInState(
  marks: readonly { at_ms: number; key: StateKey }[],
  fromMs: number,
  toMs: number,
): (StateKey & { ms: number })[] {
  const sorted = [...marks].sort((a, b) => a.at_ms - b.at_ms);
  const totals = new Map<string, StateKey & { ms: number }>();
  let key: StateKey = { state: "unknown", code: null };
  let at = fromMs;
  const add = (until: number) => {
    if (until <= at) return;
    const id = `${key.state}\u0000${key.code ?? ""}`;
    const t = totals.get(id) ?? { ...key, ms: 0 };
    t.ms += until - at;
    totals.set(id, t);
    at = until;
  };
  for (const m of sorted) {
    if (m.at_ms > toMs) break;
    add(Math.max(m.at_ms, fromMs));
    key = m.key;
  }
  add(toMs);
  return [...totals.values()].sort(
    (a, b) => b.ms - a.ms || a.state.localeCompare(b.state) || (a.code ?? "").localeCompare(b.code ?? ""),
  );
}
