// The forecasts' codes (console-api.md "Forecasts, per world, that say how often they come
// true"), one list each like ./codes.ts: the zod schemas build `z.enum` from them and the
// words (lib/words/forecasts.ts) are `Record<Code, string>` over them. No zod here.

/**
 * Who acts on a table: `legacy` (the legacy queue and its workers) while its effective mode
 * is not `planner`, else `planner`.
 */
export const FORECAST_WORLDS = ["legacy", "planner"] as const;
export type ForecastWorld = (typeof FORECAST_WORLDS)[number];

/**
 * What a forecast rests on, or why it has no ETA: `estimate` (an interval), `placed_now`
 * (the plan places it now: 0 s), and the reasons for `eta: null`.
 */
export const FORECAST_BASES = [
  "estimate",
  "placed_now",
  "running",
  "nothing_pending",
  "not_queued",
  "not_in_line",
  "no_throughput",
  "paused",
  "cooling_down",
] as const;
export type ForecastBasis = (typeof FORECAST_BASES)[number];

/**
 * A sampled forecast's fate (GET /forecasts/calibration): `within`, `early` or `late`
 * against its interval, `open` while neither the outcome happened nor the interval ended,
 * `withdrawn` when its premise went (the table left the line or the queue without its turn
 * coming), `lost` when the journal has a gap before the outcome.
 */
export const FORECAST_FATES = ["within", "early", "late", "open", "withdrawn", "lost"] as const;
export type ForecastFate = (typeof FORECAST_FATES)[number];

/** The levels the reliability chart reads (stated level → observed coverage); the answers state 0.8. */
export const RELIABILITY_LEVELS = [0.5, 0.6, 0.7, 0.8, 0.9] as const;
export const DEFAULT_FORECAST_LEVEL = 0.8;
