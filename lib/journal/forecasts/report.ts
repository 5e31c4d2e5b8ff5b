// The score in the open (console-api.md "Forecasts …", GET /forecasts/calibration): per world,
// the forecasts sampled in a window and how they came out at its end (./fate.ts), with the
// reliability of the conformal rule at several stated levels. Pure. A world is scored on its
// acting forecasts only (records.ts `acting`, as ./ledger.ts calibrates); its what-ifs' fates
// are counted apart (`what_if`) and count toward nothing else.
import { FORECAST_WORLDS, RELIABILITY_LEVELS, type ForecastWorld } from "@/lib/schema/forecast-codes";
import { nonconformity } from "@/lib/planner/forecast/conformal";
import { fateOf, knownWait, realisedOf, type ForecastRecord } from "./fate";

/** How a set of forecasts came out at a moment. */
interface Fates {
  made: number;
  /** within + early + late */
  resolved: number;
  within: number;
  early: number;
  late: number;
  open: number;
  withdrawn: number;
  lost: number;
  /** within ÷ resolved (null: none resolved) */
  coverage: number | null;
}

export interface WorldScore extends Fates {
  /** of the resolved forecasts' intervals (high − low) */
  median_width_ms: number | null;
  /** |realised − point| of the forecasts whose outcome came */
  median_error_ms: number | null;
  /** the realised waits of the forecasts whose outcome came */
  median_wait_ms: number | null;
  /** resolved forecasts whose interval was set from the journal (the rest: the estimate's own spread) */
  calibrated: number;
  /** stated level → observed coverage of the conformal rule (forecasts calibrated when made) */
  reliability: { level: number; coverage: number | null; resolved: number }[];
  /** the world's what-if forecasts (made while the other world acted on the table): their fates, apart */
  what_if: Fates;
}

function whatIfScore(records: readonly ForecastRecord[], atMs: number): Fates {
  const s = { within: 0, early: 0, late: 0, open: 0, withdrawn: 0, lost: 0 };
  for (const r of records) s[fateOf(r, atMs)]++;
  const resolved = s.within + s.early + s.late;
  return { made: records.length, resolved, ...s, coverage: resolved === 0 ? null : s.within / resolved };
}

/** The middle value, nearest-rank (the lower of the two middles on an even count). */
function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = values.sort((a, b) => a - b);
  return sorted[Math.ceil(sorted.length / 2) - 1];
}

function worldScore(all: readonly ForecastRecord[], atMs: number): WorldScore {
  const records = all.filter((r) => r.f.acting);
  const s = { within: 0, early: 0, late: 0, open: 0, withdrawn: 0, lost: 0 };
  const widths: number[] = [];
  const errors: number[] = [];
  const waits: number[] = [];
  let calibrated = 0;
  const hits = RELIABILITY_LEVELS.map(() => ({ covered: 0, resolved: 0 }));
  for (const r of records) {
    const fate = fateOf(r, atMs);
    s[fate]++;
    if (fate !== "within" && fate !== "early" && fate !== "late") continue;
    widths.push(r.f.high_ms - r.f.low_ms);
    if (r.f.calibrated) calibrated++;
    const realised = r.outcome !== null && r.outcome <= atMs ? realisedOf(r) : null;
    if (realised !== null) {
      errors.push(Math.abs(realised - r.f.point_ms));
      waits.push(realised);
    }
    const wait = knownWait(r, atMs);
    if (r.bounds === null || wait === null) continue;
    const score = nonconformity(wait.ms, r.f.point_ms);
    r.bounds.forEach((b, i) => {
      if (b === null) return;
      // a wait known only to be longer counts where it already passed the interval's end
      if (wait.censored && score <= b.hi) return;
      hits[i].resolved++;
      if (!wait.censored && score >= b.lo && score <= b.hi) hits[i].covered++;
    });
  }
  const resolved = s.within + s.early + s.late;
  return {
    made: records.length,
    resolved,
    ...s,
    coverage: resolved === 0 ? null : s.within / resolved,
    median_width_ms: median(widths),
    median_error_ms: median(errors),
    median_wait_ms: median(waits),
    calibrated,
    reliability: RELIABILITY_LEVELS.map((level, i) => ({
      level,
      coverage: hits[i].resolved === 0 ? null : hits[i].covered / hits[i].resolved,
      resolved: hits[i].resolved,
    })),
    what_if: whatIfScore(
      all.filter((r) => !r.f.acting),
      atMs,
    ),
  };
}

/** Each world's score over the forecasts made in [fromMs, toMs], as they stand at `toMs` (its acting ones; `what_if` apart). */
export function worldScores(
  records: readonly ForecastRecord[],
  fromMs: number,
  toMs: number,
): Record<ForecastWorld, WorldScore> {
  const inWindow = records.filter((r) => r.f.made_ms >= fromMs && r.f.made_ms <= toMs);
  return Object.fromEntries(
    FORECAST_WORLDS.map((w) => [
      w,
      worldScore(
        inWindow.filter((r) => r.f.world === w),
        toMs,
      ),
    ]),
  ) as Record<ForecastWorld, WorldScore>;
}
