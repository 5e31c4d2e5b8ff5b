// GET /api/v1/canary (console-api.md "The takeover gate and the canary evidence";
// scheduler-model.md §6.2: the shadow outcomes are observations, not a gate).
import { z } from "zod";
import { OUTCOMES } from "@/lib/schema/codes";
import { readQuerySchema } from "./common";
import { outcomeCountsSchema, shadowSampleSchema } from "./shadow";
import { windowParamSchema } from "./fleet";

export const canaryQuerySchema = readQuerySchema.extend({ window_ms: windowParamSchema });
export type CanaryQuery = z.output<typeof canaryQuerySchema>;

/** The outcomes whose tables a sample lists (the canary's disagreements, §6.2 "continuity"). */
export const LISTED_OUTCOMES = ["discovery_miss", "phantom_task"] as const;

/**
 * A shadow-history sample as the sampler stores it for the canary: the counts, plus whether
 * the console's and the master's shadow placements agreed and the tables of the listed
 * outcomes (cut at a character budget, `tables_truncated`). Older samples lack the extras.
 */
export const canarySampleSchema = shadowSampleSchema.extend({
  placements_agree: z.boolean().optional(),
  /**
   * Of the discovery misses, the tables in mode planner: the planner runs their merges, so
   * the legacy queue holds no task of theirs by design (scheduler-model.md §7.3), yet §6.2
   * counts them as misses. Older samples lack it (read as 0: every table was in mode legacy).
   */
  discovery_miss_in_planner_mode: z.number().int().nonnegative().optional(),
  tables: z.partialRecord(z.enum(LISTED_OUTCOMES), z.array(z.string())).optional(),
  tables_truncated: z.boolean().optional(),
});
export type CanarySample = z.infer<typeof canarySampleSchema>;

const outcomeTrendSchema = z.object({
  mean: z.number().nullable(),
  first: z.number().nullable(),
  last: z.number().nullable(),
  /** least-squares slope over the window, per day (null below two samples) */
  trend_per_day: z.number().nullable(),
});
export type OutcomeTrend = z.infer<typeof outcomeTrendSchema>;

export const canaryResponseSchema = z.object({
  revision: z.number().int(),
  now_ms: z.number().int(),
  window_ms: z.number().int(),
  from_ms: z.number().int(),
  to_ms: z.number().int(),
  samples: z.number().int(),
  /** fewer than MIN_CANARY_SAMPLES samples: the trends are shown, but say little */
  enough_data: z.boolean(),
  outcomes: z.object(
    Object.fromEntries(OUTCOMES.map((o) => [o, outcomeTrendSchema])) as Record<
      (typeof OUTCOMES)[number],
      typeof outcomeTrendSchema
    >,
  ),
  agreement: z.object({ placements_agree_share: z.number().nullable(), samples: z.number().int() }),
  /** tables in a listed outcome in at least half of the samples that list tables */
  chronic: z.array(
    z.object({
      target: z.string(),
      outcome: z.enum(LISTED_OUTCOMES),
      share: z.number(),
      samples: z.number().int(),
      /** the table's effective mode is planner at the answer's revision: its discovery misses are the planner running it */
      in_planner_mode: z.boolean(),
    }),
  ),
  /**
   * The outcomes that should fall, counted among the tables in mode legacy only (a table in
   * mode planner is a discovery miss by §6.2's rule while the planner runs it): what `rising`
   * is judged on.
   */
  legacy_mode: z.object({ discovery_miss: outcomeTrendSchema, phantom_task: outcomeTrendSchema }),
  /** outcomes that should fall (discovery_miss, phantom_task) and rose over the window among the tables in mode legacy */
  rising: z.array(z.enum(LISTED_OUTCOMES)),
  /** the comparison at the answer's revision (live, or the pin) */
  current: z.object({
    revision: z.number().int(),
    outcomes: outcomeCountsSchema,
    /** of `outcomes.discovery_miss`, the tables in mode planner */
    discovery_miss_in_planner_mode: z.number().int(),
    placements_agree: z.boolean(),
  }),
  /** binds the window's observations; send it as X-Evidence-Digest when setting mode planner */
  digest: z.string(),
});
export type CanaryResponse = z.infer<typeof canaryResponseSchema>;
