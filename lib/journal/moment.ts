// One moment of the fleet read back from the journal (console-api.md "The decision
// journal": the diff between two moments is answered from it where it covers both). A
// moment is a revision or a wall time; the answer is a real evaluation of the live plan,
// named by the revision it read and the clock it ran at, so it equals the pinned answer at
// `?revision=<revision>&now_ms=<now_ms>` (./exact.test.ts). Pure.
import { isCheckpoint, type JournalChunk } from "./codec";
import type { TableState } from "./entry";

export type Moment = { revision: number } | { at_ms: number };

export interface JournalMoment {
  revision: number;
  now_ms: number;
  /** every table's entry after that evaluation (a copy: the caller may keep it) */
  state: Map<string, TableState>;
}

/**
 * The evaluation that answers `moment` (null: the chunks do not say):
 * * a revision: the first evaluation that read it (when the console first planned it); a
 *   revision the live plan never read (its changes came in one batch with later ones) is
 *   not the journal's to answer;
 * * a time: the last evaluation at or before it, when `covered` (the caller checks the
 *   time lies in a span without a gap, ./window.ts `coveredSpans`).
 */
export function momentOf(chunks: Iterable<JournalChunk>, moment: Moment): JournalMoment | null {
  let state: Map<string, TableState> | null = null;
  let at: { revision: number; now_ms: number } | null = null;
  for (const chunk of chunks) {
    for (let i = 0; i < chunk.evaluations.length; i++) {
      const ev = chunk.evaluations[i];
      if ("at_ms" in moment ? ev.now_ms > moment.at_ms : ev.revision > moment.revision) {
        return "at_ms" in moment && state && at ? { ...at, state } : null;
      }
      if (i === 0 && isCheckpoint(chunk.kind)) state = new Map();
      if (state === null) break;
      for (const target of ev.removed) state.delete(target);
      for (const [target, s] of ev.changed) state.set(target, s);
      at = { revision: ev.revision, now_ms: ev.now_ms };
      if ("revision" in moment && ev.revision === moment.revision) return { ...at, state };
    }
  }
  return "at_ms" in moment && state && at ? { ...at, state } : null;
}
