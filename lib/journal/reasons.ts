// The reasons view read from the journal (console-api.md "The decision journal",
// GET /scheduler/reasons): at each step, how many due tables held each verdict code. A
// step's state is the one after the last evaluation at or before it (one checkpoint plus
// the deltas after it, ./fold.ts). Pure: chunks and steps are parameters.
import type { ReasonCode } from "@/lib/schema/codes";
import { isCheckpoint } from "./codec";
import type { Coverage } from "./coverage";
import type { CodeChunk } from "./verdict-codes";

export interface ReasonsPoint {
  at_ms: number;
  due: number;
  by_code: Record<string, number>;
}

/** Due tables by code, kept up to date entry by entry (a week of evaluations is never recounted table by table). */
class Counts {
  due = 0;
  readonly by = new Map<string, number>();
  add(code: ReasonCode | null, sign: 1 | -1): void {
    if (code === null) return;
    this.due += sign;
    const n = (this.by.get(code) ?? 0) + sign;
    if (n === 0) this.by.delete(code);
    else this.by.set(code, n);
  }
  point(atMs: number): ReasonsPoint {
    return {
      at_ms: atMs,
      due: this.due,
      by_code: Object.fromEntries([...this.by].sort(([a], [b]) => a.localeCompare(b))),
    };
  }
}

/** The steps `from, from+step, …` up to `to` (`to` itself when it is not on a step). */
export function stepsOf(fromMs: number, toMs: number, stepMs: number): number[] {
  const out: number[] = [];
  for (let t = fromMs; t <= toMs; t += stepMs) out.push(t);
  if (out.at(-1) !== toMs) out.push(toMs);
  return out;
}

/**
 * One point per step (oldest first); a step before the first readable evaluation is left
 * out. Each table's code (null: not due) is kept, and the counts follow each change of it.
 */
export function reasonPoints(chunks: Iterable<CodeChunk>, steps: readonly number[]): ReasonsPoint[] {
  const out: ReasonsPoint[] = [];
  let i = 0;
  let state: Map<string, ReasonCode | null> | null = null;
  let counts = new Counts();
  for (const chunk of chunks) {
    for (let e = 0; e < chunk.evaluations.length; e++) {
      const ev = chunk.evaluations[e];
      for (; i < steps.length && steps[i] < ev.now_ms; i++) if (state) out.push(counts.point(steps[i]));
      if (i >= steps.length) return out;
      if (e === 0 && isCheckpoint(chunk.kind)) {
        state = new Map();
        counts = new Counts();
      }
      if (state === null) break; // deltas before the first checkpoint cannot be read
      for (const target of ev.removed) {
        const was = state.get(target);
        if (was !== undefined) counts.add(was, -1);
        state.delete(target);
      }
      for (let k = 0; k < ev.targets.length; k++) {
        const target = ev.targets[k];
        const was = state.get(target);
        if (was !== undefined) counts.add(was, -1);
        counts.add(ev.codes[k], 1);
        state.set(target, ev.codes[k]);
      }
    }
  }
  for (; i < steps.length; i++) if (state) out.push(counts.point(steps[i]));
  return out;
}

/**
 * Whether the journal covers [from, to]: it starts at or before `from`, reaches `to`
 * within `lagMs` (the writer flushes on a cadence, so its last evaluation trails now a
 * little; the state it holds is still the live one), and no gap overlaps the window.
 */
export function covers(c: Coverage, fromMs: number, toMs: number, lagMs: number): boolean {
  if (c.from_ms === null || c.to_ms === null) return false;
  if (fromMs < c.from_ms || toMs > c.to_ms + lagMs) return false;
  return !c.gaps.some((g) => g.from_ms < toMs && g.to_ms > fromMs);
}

/** The due tables holding `code` at `atMs`, sorted, with the evaluation that held then (null: not readable). */
export function targetsAt(
  chunks: Iterable<CodeChunk>,
  atMs: number,
  code: string,
): { revision: number; now_ms: number; targets: string[] } | null {
  let state: Map<string, ReasonCode | null> | null = null;
  let at: { revision: number; now_ms: number } | null = null;
  read: for (const chunk of chunks) {
    for (let e = 0; e < chunk.evaluations.length; e++) {
      const ev = chunk.evaluations[e];
      if (ev.now_ms > atMs) break read;
      if (e === 0 && isCheckpoint(chunk.kind)) state = new Map();
      if (state === null) break;
      for (const target of ev.removed) state.delete(target);
      for (let k = 0; k < ev.targets.length; k++) state.set(ev.targets[k], ev.codes[k]);
      at = { revision: ev.revision, now_ms: ev.now_ms };
    }
  }
  if (state === null || at === null) return null;
  const targets = [...state].filter(([, c]) => c === code).map(([t]) => t);
  return { ...at, targets: targets.sort() };
}
