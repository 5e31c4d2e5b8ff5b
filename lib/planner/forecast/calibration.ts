// The scores that calibrate the next interval, per world and kind (./conformal.ts), as the
// journal's resolved forecasts give them (lib/journal/forecasts/ledger.ts `calibration()`).
import type { ForecastWorld } from "@/lib/schema/forecast-codes";

/** Sorted (ascending) nonconformity scores by `calibrationKey(world, kind)`. */
export type Calibration = ReadonlyMap<string, Float64Array>;

export const calibrationKey = (world: ForecastWorld, kind: string) => `${world}:${kind}`;

/** The sorted scores of a world and kind (empty when none). */
export function scoresOf(calibration: Calibration, world: ForecastWorld, kind: string): Float64Array {
  return calibration.get(calibrationKey(world, kind)) ?? EMPTY;
}

const EMPTY = new Float64Array(0);
