// GET /api/v1/scheduler/shadow and /shadow/history (console-api.md; scheduler-model.md §6.2).
import { z } from "zod";
import { OUTCOMES } from "@/lib/schema/codes";
import { readQuerySchema, snapshotMetaSchema, whyNotCodeSchema } from "./common";
import { writeTurnHolderSchema } from "./demand";

export const shadowQuerySchema = readQuerySchema;

const countSchema = z.number().int();
export const outcomeCountsSchema = z.object(
  Object.fromEntries(OUTCOMES.map((o) => [o, countSchema])) as Record<(typeof OUTCOMES)[number], typeof countSchema>,
);
export type OutcomeCounts = z.infer<typeof outcomeCountsSchema>;

const placementSchema = z.object({ target: z.string(), executor: z.string(), reserved_bytes: z.number() });
export const shadowResponseSchema = snapshotMetaSchema.extend({
  now_ms: z.number().int(),
  outcomes: outcomeCountsSchema,
  disagreements: countSchema,
  tables: z.object(
    Object.fromEntries(OUTCOMES.map((o) => [o, z.array(z.string())])) as Record<
      (typeof OUTCOMES)[number],
      z.ZodArray<z.ZodString>
    >,
  ),
  /**
   * Discovery misses that stand beside an unfinished merge execution (issue 27): the
   * master's comparison reads only `queue/` and `running/` (§6.2), so a merge running under
   * `merge-executions/` with no `running/` task still counts as a miss. `explanation` says so.
   */
  miss_beside_execution: z.array(
    z.object({
      target: z.string(),
      execution_id: z.string(),
      executor: z.string(),
      phase: z.string(),
      explanation: z.string(),
    }),
  ),
  /**
   * The write-turn holder of every listed table that has one (console-api.md fourth version,
   * "One capacity, one write turn"): the same holder its table page and the overview name.
   */
  write_turn_holders: z.array(z.object({ target: z.string(), holder: writeTurnHolderSchema })),
  placements: z.object({
    console: z.array(placementSchema),
    master: z.array(placementSchema.extend({ created_ms: z.number() })),
    agree: z.boolean(),
    only_console: z.array(z.string()),
    only_master: z.array(z.string()),
    /** targets both placed, on different executors */
    executor_differs: z.array(z.string()),
    executor_mismatch: z.array(
      z.object({
        target: z.string(),
        console: z.string(),
        master: z.string(),
        /** when the master's pass placed it (its assignment's created_ms) */
        master_created_ms: z.number(),
        /** the revision the master's row was written at */
        master_mod_revision: z.number().int(),
        reason: z.string(),
      }),
    ),
    /** console placements whose table the design verdict (the tables page) places elsewhere or not at all */
    verdict_mismatch: z.array(
      z.object({
        target: z.string(),
        console: z.string(),
        /** the verdict's executor, null when it would skip */
        verdict: z.string().nullable(),
        verdict_code: whyNotCodeSchema.nullable(),
        reason: z.string(),
      }),
    ),
  }),
});
export type ShadowResponse = z.infer<typeof shadowResponseSchema>;

const msSchema = z
  .string()
  .regex(/^\d+$/, "must be Unix milliseconds")
  .transform(Number)
  .pipe(z.number().int().max(Number.MAX_SAFE_INTEGER));
export const shadowHistoryQuerySchema = z
  .object({ from_ms: msSchema.optional(), to_ms: msSchema.optional() })
  .refine((q) => q.from_ms === undefined || q.to_ms === undefined || q.from_ms <= q.to_ms, {
    message: "from_ms must be ≤ to_ms",
    path: ["from_ms"],
  });

export const shadowSampleSchema = z.object({
  at_ms: z.number().int(),
  revision: z.number().int(),
  outcomes: outcomeCountsSchema,
  disagreements: countSchema,
});
export type ShadowSample = z.infer<typeof shadowSampleSchema>;

export const shadowHistoryResponseSchema = z.object({
  from_ms: z.number().int(),
  to_ms: z.number().int(),
  samples: z.array(shadowSampleSchema),
});
export type ShadowHistoryResponse = z.infer<typeof shadowHistoryResponseSchema>;
