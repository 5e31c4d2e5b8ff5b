// Forecasts, per world, that say how often they come true (console-api.md "Additions (fourth
// version)"): a table's forecast in each world (the one-table answer's `forecasts`) and
// GET /api/v1/forecasts/calibration, the score in the open.
import { z } from "zod";
import { FORECAST_BASES, FORECAST_WORLDS } from "../forecast-codes";
import { readQuerySchema } from "./common";

export const positionSchema = z.object({ kind: z.string(), rank: z.number().int(), of: z.number().int() });

/** When its turn may come: an interval with its stated coverage, and what it rests on. */
export const etaSchema = z.object({
  low_ms: z.number(),
  high_ms: z.number(),
  /** the interval's stated coverage (default 0.8) */
  level: z.number(),
  basis: z.string(),
});

/** An earlier sampled forecast of this world whose interval ended before now without its outcome. */
const overdueForecastSchema = z.object({
  made_ms: z.number().int(),
  low_ms: z.number(),
  high_ms: z.number(),
  level: z.number(),
  deadline_ms: z.number().int(),
  overdue_ms: z.number().int(),
});

export const forecastSchema = z.object({
  world: z.enum(FORECAST_WORLDS),
  /** this world acts on the table now: `planner` while its effective mode is planner, else `legacy` */
  acting: z.boolean(),
  position: positionSchema.nullable(),
  eta: etaSchema.nullable(),
  /** what the ETA rests on, or why there is none (the same sentence on every surface) */
  basis: z.string(),
  basis_code: z.enum(FORECAST_BASES),
  /** the kind it waits for (null: nothing pending) */
  kind: z.string().nullable(),
  /** the point estimate the interval is set around */
  point_ms: z.number().nullable(),
  /** the resolved forecasts of this world and kind the interval rests on */
  calibration: z.object({ resolved: z.number().int(), needed: z.number().int(), calibrated: z.boolean() }).nullable(),
  /** a moment the basis names (a cooldown's end, a running task's start) */
  at_ms: z.number().nullable(),
  overdue: overdueForecastSchema.nullable(),
});

const MAX_WINDOW_MS = 7 * 86_400_000;
export const DEFAULT_CALIBRATION_WINDOW_MS = 6 * 3_600_000;

export const calibrationQuerySchema = readQuerySchema.extend({
  window_ms: z
    .string()
    .optional()
    .transform((s) => (s === undefined ? DEFAULT_CALIBRATION_WINDOW_MS : Number(s)))
    .refine((n) => Number.isSafeInteger(n) && n >= 60_000 && n <= MAX_WINDOW_MS, {
      message: `window_ms must be a whole number of milliseconds from 60000 to ${MAX_WINDOW_MS}`,
    }),
});
export type CalibrationQuery = z.output<typeof calibrationQuerySchema>;

const msSchema = z.number().nullable();
/** How a set of forecasts came out at the window's end. */
const fatesSchema = z.object({
  made: z.number().int(),
  /** within + early + late */
  resolved: z.number().int(),
  within: z.number().int(),
  early: z.number().int(),
  late: z.number().int(),
  /** neither the outcome happened nor the interval ended */
  open: z.number().int(),
  /** the premise went first: the table left the line or the queue without its turn */
  withdrawn: z.number().int(),
  /** the journal has a gap before the outcome */
  lost: z.number().int(),
  /** within ÷ resolved */
  coverage: z.number().nullable(),
});
/** A world's score: of the forecasts made while it acted on the table (they alone set its intervals). */
const worldScoreSchema = fatesSchema.extend({
  median_width_ms: msSchema,
  /** |realised − point| of the forecasts whose outcome came */
  median_error_ms: msSchema,
  /** the realised waits of the forecasts whose outcome came */
  median_wait_ms: msSchema,
  /** resolved forecasts whose interval was set from the journal */
  calibrated: z.number().int(),
  /** the conformal rule's coverage at each stated level (the reliability chart) */
  reliability: z.array(z.object({ level: z.number(), coverage: z.number().nullable(), resolved: z.number().int() })),
  /**
   * the world's what-if forecasts, made while the other world acted on the table ("if the
   * planner ran this table"): their fates, apart, counted in none of the figures above
   */
  what_if: fatesSchema,
});
export type WorldScoreView = z.infer<typeof worldScoreSchema>;

export const calibrationResponseSchema = z.object({
  revision: z.number().int(),
  now_ms: z.number().int(),
  from_ms: z.number().int(),
  to_ms: z.number().int(),
  /** the level the answers state */
  level: z.number(),
  worlds: z.object({ legacy: worldScoreSchema, planner: worldScoreSchema }),
  /** forecast chunks read, and those left out because they did not decode */
  chunks: z.object({ read: z.number().int(), unreadable: z.number().int() }),
  /** the journal's gaps in the window (a forecast open across one is `lost`) */
  gaps: z.array(z.object({ from_ms: z.number().int(), to_ms: z.number().int(), reason: z.string() })),
});
export type CalibrationResponse = z.infer<typeof calibrationResponseSchema>;
