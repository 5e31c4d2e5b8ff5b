// The scores that calibrate the next interval, per world and kind (./conformal.ts), as the
// journal's resolved forecasts give them (lib/journal/forecasts/ledger.ts `calibration()`),
// and within a world and kind per horizon (Mondrian split conformal: the split is made by
// the forecast's own point, known when it is made, so each group's errors are exchangeable
// among themselves and the level holds in each group). The planner world's waits come in
// whole cycles: it misses little on a turn due at the next cycle and much on one several
// cycles out, and scored together the next cycle's interval was as wide as the far ones'. A
// group with fewer than MIN_CALIBRATION scores gives way to its world and kind's. Its
// intervals are the shortest window of scores (./conformal.ts `shortestBounds`): most of its
// turns come at the very cycle forecast, their scores tie at 0, and the central ranks would
// set every interval from a late miss. The legacy world's waits are a queue's, continuous,
// split by nothing and set by the central ranks. Pure.
import type { ForecastWorld } from "@/lib/schema/forecast-codes";
import { conformalBounds, MIN_CALIBRATION, shortestBounds, type ScoreBounds } from "./conformal";

/** Sorted (ascending) nonconformity scores by `calibrationKey(world, kind)` and `horizonKey(world, kind, point)`. */
export type Calibration = ReadonlyMap<string, Float64Array>;

/**
 * The horizon groups' upper edges (a point at an edge is in the group below it): one leader
 * cycle (PLANNER_RECONCILE_SECS' default, scheduler-model.md §6.1), two minutes, ten
 * minutes, an hour, and beyond.
 */
const HORIZON_EDGES_MS = [30_000, 120_000, 600_000, 3_600_000] as const;

export const calibrationKey = (world: ForecastWorld, kind: string) => `${world}:${kind}`;

/** The horizon group of a forecast whose point is `pointMs` (0 … HORIZON_EDGES_MS.length). */
function horizonOf(pointMs: number): number {
  let h = 0;
  while (h < HORIZON_EDGES_MS.length && pointMs > HORIZON_EDGES_MS[h]) h++;
  return h;
}

/** The worlds whose waits come in whole cycles: calibrated per horizon, by the shortest window. */
const IN_CYCLES: ReadonlySet<ForecastWorld> = new Set(["planner"]);

/** The horizon group a forecast of `world` calibrates and is calibrated by (null: its world and kind's alone). */
export const horizonKey = (world: ForecastWorld, kind: string, pointMs: number): string | null =>
  IN_CYCLES.has(world) ? `${calibrationKey(world, kind)}@${horizonOf(pointMs)}` : null;

/**
 * The key of the scores an interval around `pointMs` is set from: its horizon group's, or with
 * fewer than MIN_CALIBRATION there (or none kept, or `pointMs` null), its world and kind's.
 */
export function scoresKey(
  calibration: Calibration,
  world: ForecastWorld,
  kind: string,
  pointMs: number | null,
): string {
  const group = pointMs === null ? null : horizonKey(world, kind, pointMs);
  return group !== null && (calibration.get(group)?.length ?? 0) >= MIN_CALIBRATION
    ? group
    : calibrationKey(world, kind);
}

/** The sorted scores at `scoresKey` (empty when none). */
export const scoresOf = (calibration: Calibration, world: ForecastWorld, kind: string, pointMs: number | null) =>
  calibration.get(scoresKey(calibration, world, kind, pointMs)) ?? EMPTY;

/** The score bounds at `level` of a world's sorted scores (its rule: see above). */
export function boundsOf(world: ForecastWorld, sorted: ArrayLike<number>, level: number): ScoreBounds | null {
  return IN_CYCLES.has(world) ? shortestBounds(sorted, level) : conformalBounds(sorted, level);
}

const EMPTY = new Float64Array(0);
