// What each forecast rests on, in one sentence made once on the server (console-api.md
// "Forecasts …": `basis`), so every surface words a table's ETA basis the same way: the
// page, the overview and the command line print it as given. A moment is named by its time
// ("until 2026-12-01 03:10:12Z"), never "in N min", so a sentence read later is not a
// promise past its moment.
import { formatCount, formatDuration, formatTime } from "@/lib/schema/format";
import type { QueuePosition } from "../plan/types";
import { plural } from "../plan/why-not";
import type { BasisPart } from "./standing";
import type { PlannerCycles } from "./planner-cycles";

const tasks = (n: number, kind: string) => `${formatCount(n)} ${kind} task${n === 1 ? "" : "s"}`;
/** "in the last hour, one every 2s" (the mean time between their finishes) */
const rate = (done: number, kind: string, gapMs: number) =>
  `${tasks(done, kind)} finished in the last hour${done >= 2 ? `, one every ${formatDuration(gapMs)}` : ""}`;

export const legacyBasis = {
  nothingPending: (): BasisPart => ({
    basis_code: "nothing_pending",
    basis: "Nothing is pending: no turn to wait for.",
  }),
  running: (kind: string, started: number | null): BasisPart => ({
    basis_code: "running",
    basis: `A legacy ${kind} task is running on it${started === null ? "" : ` (started ${formatTime(started)})`}: its turn came.`,
    at_ms: started,
  }),
  cooling: (kind: string, until: number): BasisPart => ({
    basis_code: "cooling_down",
    basis: `Not in the legacy queue: ${kind} is cooling down until ${formatTime(until)}, and the legacy sweep skips it until then.`,
    at_ms: until,
  }),
  notQueued: (kind: string): BasisPart => ({
    basis_code: "not_queued",
    basis: `Not in the legacy queue: no ${kind} task is queued for it (the legacy sweep enqueues a table once it is due).`,
  }),
  noThroughput: (kind: string, done: number): BasisPart => ({
    basis_code: "no_throughput",
    basis:
      done === 0
        ? `No basis: no ${kind} task finished in the last hour (tasks/ records with a finished_at), so there is no rate to go on.`
        : `No basis: only ${tasks(done, kind)} finished in the last hour (tasks/ records with a finished_at), too few for a rate.`,
  }),
  estimate: (kind: string, p: QueuePosition, done: number, gapMs: number, free: number): BasisPart => ({
    basis_code: "estimate",
    basis: `Rank ${formatCount(p.rank)} of ${formatCount(p.of)} queued ${kind} tasks (id order, as the legacy workers claim them); ${rate(done, kind, gapMs)}${free > 0 ? `; ${plural(free, "slot")} free` : ""}.`,
  }),
};

export const plannerBasis = {
  nothingPending: legacyBasis.nothingPending,
  placedNow: (): BasisPart => ({ basis_code: "placed_now", basis: "The plan places it now." }),
  paused: (mode: string): BasisPart => ({
    basis_code: "paused",
    basis: `Paused: its policy mode is ${mode}, so the planner places nothing new on it.`,
  }),
  cooling: (message: string, until: number | null): BasisPart => ({
    basis_code: "cooling_down",
    basis: `Not in the planner's line while cooling down: ${message}`,
    at_ms: until,
  }),
  notInLine: (message: string): BasisPart => ({
    basis_code: "not_in_line",
    basis: `Not in the planner's line: ${message}`,
  }),
  noThroughput: legacyBasis.noThroughput,
  noPlacements: (kind: string, made: number): BasisPart => ({
    basis_code: "no_throughput",
    basis:
      made === 0
        ? `No basis: the planner placed no ${kind} unit in the last hour (assignments), so there is no pace to go on.`
        : `No basis: the planner placed only ${plural(made, `${kind} unit`)} in the last hour (assignments), too few for a pace.`,
  }),
  acting: (
    kind: string,
    p: QueuePosition,
    ahead: { in_line: number; returning: number },
    made: number,
    c: PlannerCycles,
  ): BasisPart => ({
    basis_code: "estimate",
    basis: `Rank ${formatCount(p.rank)} of ${formatCount(p.of)} in the planner's ${kind} line, ${plural(ahead.in_line, "table")} in planner mode ahead of it${ahead.returning > 0 ? `, and ${formatCount(ahead.returning)} more whose ${kind} runs now (in line again by the next cycle)` : ""}; the planner placed ${plural(made, `${kind} unit`)} in the last hour, in cycles every ${formatDuration(c.every_ms)} (${formatCount(Math.round(c.per_cycle * 10) / 10)} a cycle).`,
  }),
  estimate: (kind: string, p: QueuePosition, waiting: number, done: number, gapMs: number): BasisPart => ({
    basis_code: "estimate",
    basis: `Rank ${formatCount(p.rank)} of ${formatCount(p.of)} in the planner's ${kind} line, ${plural(waiting, "unit")} waiting ahead of it not placed now; ${rate(done, kind, gapMs)}. If it stays in line (the legacy queue may run it first).`,
  }),
};

/** The calibration part of an estimate's basis. */
export function calibrationBasis(level: number, resolved: number, needed: number): string {
  const pct = `${Math.round(level * 100)} %`;
  return resolved >= needed
    ? `The ${pct} interval is set from ${plural(resolved, "resolved forecast")} of this world and kind (split conformal on the journal).`
    : `Not calibrated yet: ${formatCount(resolved)} of the ${formatCount(needed)} resolved forecasts of this world and kind it needs; the interval is the rate's own spread, not yet checked against outcomes.`;
}
