// Reading the journal back (console-api.md "The decision journal"): any moment is one
// checkpoint plus the deltas after it. Chunks are folded in key (time) order; a checkpoint
// replaces the whole state (after a gap nothing from before it is carried over). Pure.
import type { JournalEntry, TableState } from "./entry";
import type { Capacities } from "./inputs";
import { isCheckpoint, type JournalChunk } from "./codec";

export interface FoldedEvaluation {
  revision: number;
  now_ms: number;
  /** every table's entry after this evaluation (do not keep: the map is reused as the fold goes on) */
  state: ReadonlyMap<string, TableState>;
  /** the tables this evaluation entered (a checkpoint enters every table) */
  changed: ReadonlyMap<string, TableState>;
  removed: readonly string[];
  /** the first evaluation of a checkpoint */
  checkpoint: boolean;
  /** the executors' capacity the evaluation read (absent: not marked) */
  capacities?: Capacities;
  /** a one-table read's: the tables the evaluation placed (./chunk.ts) */
  placed?: readonly string[];
}

/**
 * Every evaluation of `chunks` (oldest first) with the state after it. Chunks before the
 * first checkpoint are skipped: without one, their state is not known.
 */
export function* foldChunks(chunks: Iterable<JournalChunk>): Generator<FoldedEvaluation> {
  let state: Map<string, TableState> | null = null;
  for (const chunk of chunks) {
    for (let i = 0; i < chunk.evaluations.length; i++) {
      const ev = chunk.evaluations[i];
      const checkpoint = i === 0 && isCheckpoint(chunk.kind);
      if (checkpoint) state = new Map();
      if (state === null) break;
      for (const target of ev.removed) state.delete(target);
      for (const [target, s] of ev.changed) state.set(target, s);
      yield {
        revision: ev.revision,
        now_ms: ev.now_ms,
        state,
        changed: ev.changed,
        removed: ev.removed,
        checkpoint,
        capacities: ev.capacities,
        placed: ev.placed,
      };
    }
  }
}

/** The state at `nowMs`: after the last evaluation at or before it (null: the chunks do not reach back to it). */
export function stateAt(
  chunks: Iterable<JournalChunk>,
  nowMs: number,
): { revision: number; now_ms: number; state: Map<string, TableState> } | null {
  let state: Map<string, TableState> | null = null;
  let at: { revision: number; now_ms: number } | null = null;
  for (const chunk of chunks) {
    for (let i = 0; i < chunk.evaluations.length; i++) {
      const ev = chunk.evaluations[i];
      if (ev.now_ms > nowMs) return state && at ? { ...at, state } : null;
      if (i === 0 && isCheckpoint(chunk.kind)) state = new Map();
      if (state === null) break;
      for (const target of ev.removed) state.delete(target);
      for (const [target, s] of ev.changed) state.set(target, s);
      at = { revision: ev.revision, now_ms: ev.now_ms };
    }
  }
  return state && at ? { ...at, state } : null;
}

/**
 * One table's entries: the evaluations that entered it (its first sighting in each
 * checkpoint included, so an entry after a gap is never inferred from before it).
 * `gone: true` marks the evaluation at which the table disappeared from the plan.
 */
export function targetEntries(
  chunks: Iterable<JournalChunk>,
  target: string,
): (JournalEntry | { target: string; revision: number; now_ms: number; at_ms: number; gone: true })[] {
  const out: ReturnType<typeof targetEntries> = [];
  for (const ev of foldChunks(chunks)) {
    const s = ev.changed.get(target);
    if (s) out.push({ target, at_ms: ev.now_ms, revision: ev.revision, now_ms: ev.now_ms, ...s });
    else if (ev.removed.includes(target))
      out.push({ target, revision: ev.revision, now_ms: ev.now_ms, at_ms: ev.now_ms, gone: true });
  }
  return out;
}
