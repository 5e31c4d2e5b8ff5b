// A table's standing in one world before calibration (console-api.md "Forecasts, per world,
// that say how often they come true"): its place, the point estimate of its wait and the
// spread that estimate has on its own, and what it rests on (or why there is no ETA).
import type { ForecastBasis, ForecastWorld } from "@/lib/schema/forecast-codes";
import type { QueuePosition } from "../plan/types";

export interface Standing {
  world: ForecastWorld;
  /** the kind it waits for (its head unit's, or its candidate's in the planner's line); null: nothing pending */
  kind: string | null;
  position: QueuePosition | null;
  /** the point estimate of the wait (ms); null: no ETA (`basis_code` says why) */
  point_ms: number | null;
  /** the interval the estimate has on its own, before the journal calibrates it */
  spread: { low_ms: number; high_ms: number } | null;
  basis_code: ForecastBasis;
  /** the figures it rests on, or why there is no ETA, in a sentence */
  basis: string;
  /** the moment a basis names (a cooldown's end, a running task's start), so a page can date it */
  at_ms?: number | null;
}

/** A standing's basis part. */
export type BasisPart = Pick<Standing, "basis_code" | "basis" | "at_ms">;
