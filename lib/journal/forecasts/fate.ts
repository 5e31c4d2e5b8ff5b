// A sampled forecast's fate at a moment (console-api.md "Forecasts …": `within`, `early`,
// `late`, `open`), from what the journal recorded after it. Pure.
// * Its outcome recorded: the realised wait (outcome − made, never negative: a task's
//   `started_at` a little before the evaluation that made the forecast is a wait of 0) against
//   [low, high], bounds included.
// * No outcome, its interval ended (made + high before the moment): `late`, the wait known
//   only to be longer (censored).
// * Its premise went first (`withdrawn`), or the journal has a gap before any outcome (`lost`):
//   neither counts as resolved — unless the interval had already ended: then it was `late`.
// * Else `open`.
import type { ForecastFate } from "@/lib/schema/forecast-codes";
import type { ScoreBounds } from "@/lib/planner/forecast/conformal";
import type { SampledForecast } from "./records";

export interface ForecastRecord {
  f: SampledForecast;
  /** made + high: the moment the interval ends */
  end: number;
  /** the turn's moment, once recorded */
  outcome: number | null;
  withdrawn: number | null;
  lost: number | null;
  /** the calibration when it was made, at each reliability level (null: not calibrated then) */
  bounds: readonly (ScoreBounds | null)[] | null;
}

export function fateOf(r: ForecastRecord, atMs: number): ForecastFate {
  if (r.outcome !== null && r.outcome <= atMs) {
    const wait = realisedOf(r)!;
    return wait < r.f.low_ms ? "early" : wait > r.f.high_ms ? "late" : "within";
  }
  const gone = r.withdrawn ?? r.lost;
  if (gone !== null && gone <= atMs) return r.end < gone ? "late" : r.withdrawn !== null ? "withdrawn" : "lost";
  return r.end < atMs ? "late" : "open";
}

/** The realised wait, once the outcome is recorded. */
export const realisedOf = (r: ForecastRecord): number | null =>
  r.outcome === null ? null : Math.max(0, r.outcome - r.f.made_ms);

/**
 * What is known of the wait at `atMs`: the realised wait, or (late without an outcome) at
 * least the time waited until the moment, the premise went or the gap began; null while open,
 * withdrawn or lost inside its interval.
 */
export function knownWait(r: ForecastRecord, atMs: number): { ms: number; censored: boolean } | null {
  if (r.outcome !== null && r.outcome <= atMs) return { ms: realisedOf(r)!, censored: false };
  const gone = r.withdrawn ?? r.lost;
  const until = gone !== null && gone <= atMs ? gone : atMs;
  return r.end < until ? { ms: until - r.f.made_ms, censored: true } : null;
}
