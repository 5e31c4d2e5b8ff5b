// Rolling small delta chunks up (console-api.md "The decision journal": a busy table's 6 h
// in one request). The writer flushes a delta every few seconds, so 6 h is thousands of
// chunks, each a gzip of its own with its own string table; a read spends its time opening
// them. Once a period is closed, its deltas become one delta chunk: the same evaluations in
// the same order, spanning the first part's `from_ms` to the last part's `to_ms`. It is a
// delta like any other, so coverage, gaps, trims and folds read it unchanged (a rollup
// never crosses a checkpoint, so no gap and no segment boundary moves). Pure: the writer
// (lib/live/journal.ts) reads the parts and writes the rollup in one guarded txn.
import type { ChunkMeta, JournalChunk } from "./codec";

export interface RollupOptions {
  /** the period whose deltas become one chunk once it has closed */
  periodMs: number;
  /** the parts' stored bytes at most (keeps the rollup well under etcd's request limit) */
  maxBytes: number;
  /** the parts at most */
  maxParts: number;
}

/**
 * The next run of stored delta chunks to roll up (null: nothing to do): consecutive deltas
 * (no checkpoint between) lying inside one period that ended at or before `closedBeforeMs`,
 * at least two of them, cut at `maxBytes` / `maxParts`. `metas` in key (time) order.
 */
export function nextRollup(metas: readonly ChunkMeta[], closedBeforeMs: number, o: RollupOptions): ChunkMeta[] | null {
  let run: ChunkMeta[] = [];
  let period = -1;
  let bytes = 0;
  const done = () => (run.length >= 2 ? run : null);
  for (const m of metas) {
    const p = Math.floor(m.from_ms / o.periodMs);
    const inside = m.kind === "delta" && m.to_ms <= (p + 1) * o.periodMs && (p + 1) * o.periodMs <= closedBeforeMs;
    if (inside && p === period && bytes + m.bytes <= o.maxBytes && run.length < o.maxParts) {
      run.push(m);
      bytes += m.bytes;
      continue;
    }
    if (done()) return run;
    run = inside ? [m] : [];
    period = inside ? p : -1;
    bytes = inside ? m.bytes : 0;
  }
  return done();
}

/** The parts (decoded, in key order) as one delta chunk. */
export function rollUp(parts: readonly JournalChunk[]): JournalChunk {
  return {
    kind: "delta",
    from_ms: parts[0].from_ms,
    to_ms: parts[parts.length - 1].to_ms,
    evaluations: parts.flatMap((p) => p.evaluations),
  };
}
