// The forecasts the journal keeps (console-api.md "Forecasts, per world, that say how often
// they come true": "The journal resolves forecasts"), beside the decision journal's chunks
// and in a key family of their own (`P/console/forecasts/`, ./codec.ts), so the decision
// journal's stored form, its readers, rollups and trims are untouched by them.
// * A sampled forecast: what one world said of one table at one evaluation (at most one a
//   minute per table): its point, its interval and level, its place.
// * An outcome: a table's turn came in a world — a `tasks/` record of the forecast kind
//   started (legacy, dated by its `started_at`), or the console's plan first placed the
//   table (planner, dated by the evaluation) — or the forecast's premise went (`withdrawn`:
//   the table left the planner's line, or its queued task went without starting).
import type { ChunkKind } from "@/lib/schema/keys";
import type { ForecastWorld } from "@/lib/schema/forecast-codes";

export interface SampledForecast {
  target: string;
  world: ForecastWorld;
  kind: string;
  /** the evaluation's now: when it was said */
  made_ms: number;
  point_ms: number;
  low_ms: number;
  high_ms: number;
  level: number;
  rank: number;
  of: number;
  /** the interval was set from resolved forecasts (false: the estimate's own spread) */
  calibrated: boolean;
  /**
   * the world acted on the table when it was said (its effective mode): only these score the
   * world and set its intervals; the others are what-ifs ("if the planner ran this table")
   */
  acting: boolean;
}

export type OutcomeWhat = "turn" | "withdrawn";

export interface ForecastOutcome {
  target: string;
  world: ForecastWorld;
  what: OutcomeWhat;
  /** legacy: the kind whose task started or went; planner: null (any placement counts) */
  kind: string | null;
  /** when it happened: a task's `started_at`, else the evaluation's now */
  at_ms: number;
}

/** One evaluation of the writer: the outcomes it saw, then the forecasts it sampled (made at `now_ms`). */
export interface ForecastEvaluation {
  now_ms: number;
  outcomes: ForecastOutcome[];
  forecasts: SampledForecast[];
}

/** A stored chunk: a delta, or the first after a gap (a forecast open across a gap is `lost`). */
export type ForecastChunkKind = Extract<ChunkKind, "delta" | "after_no_sampler" | "after_etcd_unavailable">;

export interface ForecastChunk {
  kind: ForecastChunkKind;
  /** a delta continues from the previous chunk's `to_ms` */
  from_ms: number;
  to_ms: number;
  evaluations: ForecastEvaluation[];
}

export const forecastCount = (c: ForecastChunk) => c.evaluations.reduce((n, e) => n + e.forecasts.length, 0);
export const outcomeCount = (c: ForecastChunk) => c.evaluations.reduce((n, e) => n + e.outcomes.length, 0);

/** The writer flushes one chunk per this period (lib/live/forecast-journal.ts). */
export const FORECAST_FLUSH_MS = 60_000;
/** A closed hour of chunks is rolled up into one: a chunk spans at most this much. */
export const FORECAST_ROLLUP_MS = 3_600_000;
