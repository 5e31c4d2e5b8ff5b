// A table's forecasts, one per world, the acting world first (console-api.md "Forecasts, per
// world, that say how often they come true"): each world's standing (./legacy.ts,
// ./planner-world.ts) with its interval set from the journal's resolved forecasts of that
// world and kind (./conformal.ts), or, until enough are resolved, the estimate's own spread
// and a basis that says so. No basis → `eta: null` with the reason. Pure: `now` is not even
// needed (standings are made at one `now`).
import { DEFAULT_FORECAST_LEVEL, type ForecastBasis, type ForecastWorld } from "@/lib/schema/forecast-codes";
import type { PlanLine, QueuePosition, TablePlan } from "../plan/types";
import { legacyStanding, type LegacyLine } from "./legacy";
import { plannerStanding } from "./planner-world";
import type { Returning } from "./returning";
import { calibrationBasis } from "./basis";
import { boundsOf, scoresOf, type Calibration } from "./calibration";
import { conformalBounds, intervalOf, MIN_CALIBRATION } from "./conformal";
import type { Standing } from "./standing";

interface ForecastEta {
  low_ms: number;
  high_ms: number;
  /** the interval's stated coverage */
  level: number;
  basis: string;
}

export interface TableForecast {
  world: ForecastWorld;
  /** this world acts on the table now (its effective mode) */
  acting: boolean;
  position: QueuePosition | null;
  eta: ForecastEta | null;
  /** what the ETA rests on, or why there is none (equal to `eta.basis` when there is one) */
  basis: string;
  basis_code: ForecastBasis;
  /** the kind it waits for (null: nothing pending) */
  kind: string | null;
  /** the point estimate the interval is set around (null without an ETA) */
  point_ms: number | null;
  /** the resolved forecasts of this world and kind the interval rests on (null: no interval to calibrate) */
  calibration: { resolved: number; needed: number; calibrated: boolean } | null;
  /** a moment the basis names (a cooldown's end, a running task's start) */
  at_ms: number | null;
}

/** console-api.md: `planner` while the effective mode is `planner`, else `legacy`. */
export const actingWorld = (mode: string): ForecastWorld => (mode === "planner" ? "planner" : "legacy");

function forecastOf(
  s: Standing,
  acting: boolean,
  calibration: Calibration,
  level = DEFAULT_FORECAST_LEVEL,
): TableForecast {
  const base = {
    world: s.world,
    acting,
    position: s.position,
    basis_code: s.basis_code,
    kind: s.kind,
    point_ms: s.point_ms,
    at_ms: s.at_ms ?? null,
  };
  if (s.point_ms === null || s.spread === null) return { ...base, eta: null, basis: s.basis, calibration: null };
  if (s.basis_code === "placed_now")
    return { ...base, eta: { low_ms: 0, high_ms: 0, level, basis: s.basis }, basis: s.basis, calibration: null };
  // A what-if resolves on the other world's terms (lib/journal/forecasts/ledger.ts): not the
  // acting forecasts' cycle-exact misses, so not their horizon's shortest window; the world and
  // kind's scores as a whole, by the central ranks.
  const scores = scoresOf(calibration, s.world, s.kind!, acting ? s.point_ms : null);
  const bounds = acting ? boundsOf(s.world, scores, level) : conformalBounds(scores, level);
  const calibrated = bounds === null ? null : intervalOf(s.point_ms, bounds);
  const interval =
    calibrated && calibrated.high_ms !== null ? { low_ms: calibrated.low_ms, high_ms: calibrated.high_ms } : s.spread;
  const basis = `${s.basis} ${calibrationBasis(level, scores.length, MIN_CALIBRATION)}`;
  return {
    ...base,
    eta: { ...interval, level, basis },
    basis,
    calibration: { resolved: scores.length, needed: MIN_CALIBRATION, calibrated: interval !== s.spread },
  };
}

/** Both worlds' forecasts, the acting one first. */
export function tableForecasts(
  mode: string,
  legacy: Standing,
  planner: Standing,
  calibration: Calibration,
  level = DEFAULT_FORECAST_LEVEL,
): TableForecast[] {
  const acting = actingWorld(mode);
  const l = forecastOf(legacy, acting === "legacy", calibration, level);
  const p = forecastOf(planner, acting === "planner", calibration, level);
  return acting === "legacy" ? [l, p] : [p, l];
}

/**
 * A planned table's forecasts in both worlds (the one computation the answer, the journal and
 * the bench share); `returning`: the plan's (./returning.ts `returningTables`).
 */
export function rowForecasts(
  t: TablePlan,
  line: PlanLine,
  returning: Returning,
  legacy: LegacyLine,
  calibration: Calibration,
  level = DEFAULT_FORECAST_LEVEL,
): TableForecast[] {
  const kind = t.units[0]?.kind ?? null;
  return tableForecasts(
    t.policy.effective.mode,
    legacyStanding(legacy, t.target, kind, level),
    plannerStanding(t, line, returning, legacy, level),
    calibration,
    level,
  );
}
