// GET /api/v1/fleet/masters and /fleet/facts (console-api.md "The takeover gate and the
// canary evidence"): the masters' versions against CONSOLE_POLICY_AWARE_VERSION, and the
// design's open questions answered from the fleet's own records.
import { z } from "zod";
import { readQuerySchema } from "./common";

export const mastersQuerySchema = readQuerySchema;

const masterRowSchema = z.object({
  instance: z.string(),
  version: z.string().nullable(),
  policy_aware: z.boolean(),
});
export const mastersResponseSchema = z.object({
  revision: z.number().int(),
  now_ms: z.number().int(),
  policy_aware_version: z.string().nullable(),
  masters: z.array(masterRowSchema),
  /** every resident_master heartbeat is policy-aware (false when there is none) */
  homogeneous: z.boolean(),
});
export type MastersResponse = z.infer<typeof mastersResponseSchema>;

/** The windows the canary report and the facts are read over: 1 h, 6 h, 24 h, 7 days. */
export const EVIDENCE_WINDOWS_MS = [3_600_000, 21_600_000, 86_400_000, 604_800_000] as const;
const DEFAULT_WINDOW_MS = 86_400_000;
export const windowParamSchema = z
  .string()
  .optional()
  .transform((s) => (s === undefined ? DEFAULT_WINDOW_MS : Number(s)))
  .refine(
    (n) => (EVIDENCE_WINDOWS_MS as readonly number[]).includes(n),
    `window_ms must be one of ${EVIDENCE_WINDOWS_MS.join(", ")}`,
  );

export const factsQuerySchema = readQuerySchema.extend({ window_ms: windowParamSchema });

const percentilesSchema = z.object({
  p50: z.number().nullable(),
  p90: z.number().nullable(),
  p99: z.number().nullable(),
});
export const factsResponseSchema = z.object({
  revision: z.number().int(),
  now_ms: z.number().int(),
  from_ms: z.number().int(),
  to_ms: z.number().int(),
  tables: z.number().int(),
  /** tables with pending work ÷ tables (null for an empty fleet) */
  hot_share: z.number().nullable(),
  /** each pending table's average generation (pending_bytes ÷ pending_generations), nearest-rank */
  generation_bytes: percentilesSchema.extend({ max: z.number().nullable(), count: z.number().int() }),
  /** finished_at − started_at of tasks/ records finished in the window, per kind */
  task_seconds: z.record(z.string(), percentilesSchema.extend({ count: z.number().int() })),
  /** failed ÷ finished in the window, per kind */
  task_failure_share: z.record(z.string(), z.number()),
  /** what each fact implies for the policy's knobs (scheduler-model.md §4.1, §5.3) */
  implies: z.object({
    critical_generations: z.number().int().nullable(),
    max_turn_wait_secs: z.number().int().nullable(),
    expected_bytes: z.number().int().nullable(),
  }),
});
export type FactsResponse = z.infer<typeof factsResponseSchema>;
