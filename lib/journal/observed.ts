// How long the decision journal has observed one table (console-api.md "The takeover gate
// and the canary evidence": `observed_days` counts the table's shadow observations in the
// journal). A table is observed while the journal covers the moment (no gap) and the table
// is in the plan the sampler evaluated: every planned table is compared by the shadow pass
// (scheduler-model.md §6.2). Gaps (no sampler, etcd unavailable) are not counted, and
// neither is time after the journal's last chunk. `null` target: the fleet (`_default`),
// observed whenever the journal covers. Pure: chunks in key (time) order, `nowMs` a parameter.
import { gapReasonOf, isCheckpoint, type JournalChunk } from "./codec";

export interface Observed {
  /** covered time with the table in the plan, gaps left out */
  ms: number;
  /** the first moment observed (null: never) */
  since_ms: number | null;
  /** the last moment observed (null: never) */
  until_ms: number | null;
  /** the journal's gaps after `since_ms` (time not counted) */
  gaps: number;
}

/** Where a fold of the journal's chunks stands: resumable with the chunks written after. */
export interface ObservedFold {
  started: boolean;
  present: boolean;
  cursor: number;
  observed: Observed;
}

export const emptyFold = (): ObservedFold => ({
  started: false,
  present: false,
  cursor: 0,
  observed: { ms: 0, since_ms: null, until_ms: null, gaps: 0 },
});

/** Folds `chunks` (the ones after what `fold` has seen, in key order) into `fold`; returns it. */
export function foldObserved(
  fold: ObservedFold,
  chunks: Iterable<JournalChunk>,
  target: string | null,
  nowMs: number,
): ObservedFold {
  const out = fold.observed;
  /** [cursor, to) was covered: count it while the table was in the plan */
  const advance = (to: number) => {
    const end = Math.min(to, nowMs);
    if (fold.present && end > fold.cursor) {
      out.ms += end - fold.cursor;
      out.since_ms ??= fold.cursor;
      out.until_ms = end;
    }
    fold.cursor = Math.max(fold.cursor, to);
  };
  for (const chunk of chunks) {
    if (fold.started && chunk.from_ms >= nowMs) break; // what the journal says after now is not counted
    if (!fold.started && !isCheckpoint(chunk.kind)) continue; // before the first checkpoint nothing is known
    if (!fold.started || gapReasonOf(chunk.kind) !== null) {
      if (fold.started && out.since_ms !== null) out.gaps += 1;
      fold.started = true;
      fold.present = false; // after a gap only the checkpoint says who is in the plan
      fold.cursor = chunk.from_ms;
    } else advance(chunk.from_ms); // a delta or a periodic checkpoint continues the covered span
    chunk.evaluations.forEach((ev, i) => {
      advance(ev.now_ms);
      if (i === 0 && isCheckpoint(chunk.kind)) fold.present = target === null || ev.changed.has(target);
      else if (target !== null && ev.changed.has(target)) fold.present = true;
      else if (target !== null && ev.removed.includes(target)) fold.present = false;
    });
    advance(chunk.to_ms);
  }
  return fold;
}

export function observedIn(chunks: Iterable<JournalChunk>, target: string | null, nowMs: number): Observed {
  return foldObserved(emptyFold(), chunks, target, nowMs).observed;
}
