// The reasons view read from the journal (console-api.md "The decision journal",
// GET /scheduler/reasons): at each step, how many due tables held each verdict code. A
// step's state is the one after the last evaluation at or before it (one checkpoint plus
// the deltas after it, ./fold.ts). Pure: chunks and steps are parameters.
import type { ReasonCode } from "@/lib/schema/codes";
import { isCheckpoint, type ChunkMeta, type JournalChunk } from "./codec";
import type { Coverage } from "./coverage";
import type { TableState } from "./entry";
import { stateAt } from "./fold";

/**
 * "Due" as scheduler-model.md §6.2 names it: a non-tail scored table. The entry holds the
 * class, not the score; an `idle` table has nothing pending and is not scored, so both
 * `tail` and `idle` are left out.
 */
export const isDue = (s: TableState) => s.class !== "tail" && s.class !== "idle";

/** the code a due table holds: `placed` for would_place, else its skip code */
export const codeOf = (s: TableState): ReasonCode => (s.verdict.state === "would_place" ? "placed" : s.verdict.code);

export interface ReasonsPoint {
  at_ms: number;
  due: number;
  by_code: Record<string, number>;
}

/** Due tables by code, kept up to date entry by entry (a week of evaluations is never recounted table by table). */
class Counts {
  due = 0;
  readonly by = new Map<string, number>();
  add(s: TableState, sign: 1 | -1): void {
    if (!isDue(s)) return;
    this.due += sign;
    const code = codeOf(s);
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
 * out. Folded here rather than with `foldChunks`, whose state is already changed when an
 * evaluation is handed out: the counts need each table's entry before it changes.
 */
export function reasonPoints(chunks: Iterable<JournalChunk>, steps: readonly number[]): ReasonsPoint[] {
  const out: ReasonsPoint[] = [];
  let i = 0;
  let state: Map<string, TableState> | null = null;
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
        if (was) counts.add(was, -1);
        state.delete(target);
      }
      for (const [target, s] of ev.changed) {
        const was = state.get(target);
        if (was) counts.add(was, -1);
        counts.add(s, 1);
        state.set(target, s);
      }
    }
  }
  for (; i < steps.length; i++) if (state) out.push(counts.point(steps[i]));
  return out;
}

/**
 * The chunks to read for [from, to]: from the last checkpoint starting at or before `from`
 * through the last chunk starting at or before `to` (null: no checkpoint reaches back).
 */
export function chunksFor(
  metas: readonly ChunkMeta[],
  fromMs: number,
  toMs: number,
): { first: number; end: number } | null {
  let first = -1;
  for (let i = 0; i < metas.length && metas[i].from_ms <= fromMs; i++) if (isCheckpoint(metas[i].kind)) first = i;
  if (first < 0) return null;
  let end = first + 1;
  while (end < metas.length && metas[end].from_ms <= toMs) end++;
  return { first, end };
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
  chunks: Iterable<JournalChunk>,
  atMs: number,
  code: string,
): { revision: number; now_ms: number; targets: string[] } | null {
  const at = stateAt(chunks, atMs);
  if (at === null) return null;
  const targets = [...at.state].filter(([, s]) => isDue(s) && codeOf(s) === code).map(([t]) => t);
  return { revision: at.revision, now_ms: at.now_ms, targets: targets.sort() };
}
