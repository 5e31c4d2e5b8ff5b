// console-api.md "Additions (third version)", "The decision journal":
// GET /api/v1/scheduler/reasons — how many due tables held each verdict code, step by step.
import { z } from "zod";
import { reasonCodeSchema } from "./common";
import { atMsParamSchema } from "./revisions";

/** one answer folds at most a week of journal and returns at most this many points */
const MAX_REASONS_WINDOW_MS = 7 * 24 * 3600_000;
export const MAX_REASONS_POINTS = 2000;
export const DEFAULT_REASONS_WINDOW_MS = 3600_000;

export const reasonsQuerySchema = z
  .object({
    from_ms: atMsParamSchema.optional(),
    to_ms: atMsParamSchema.optional(),
    step_ms: atMsParamSchema.optional(),
  })
  .refine((q) => q.step_ms === undefined || q.step_ms >= 1000, {
    message: "step_ms must be at least 1000",
    path: ["step_ms"],
  })
  .refine((q) => q.from_ms === undefined || q.to_ms === undefined || q.from_ms < q.to_ms, {
    message: "from_ms must be before to_ms",
    path: ["from_ms"],
  })
  .refine((q) => q.from_ms === undefined || q.to_ms === undefined || q.to_ms - q.from_ms <= MAX_REASONS_WINDOW_MS, {
    message: "the window is at most 7 days",
    path: ["from_ms"],
  });
export type ReasonsQuery = z.output<typeof reasonsQuerySchema>;

const reasonsPointSchema = z.object({
  at_ms: z.number().int(),
  /** tables whose class is neither `tail` nor `idle` (scheduler-model.md §6.2 "due": non-tail scored tables) */
  due: z.number().int().nonnegative(),
  /** due tables by verdict code; `placed` for would_place */
  by_code: z.partialRecord(reasonCodeSchema, z.number().int().positive()),
});

export const reasonsResponseSchema = z.object({
  from_ms: z.number().int(),
  to_ms: z.number().int(),
  step_ms: z.number().int().positive(),
  points: z.array(reasonsPointSchema),
});
export type ReasonsResponse = z.infer<typeof reasonsResponseSchema>;

/** GET /api/v1/scheduler/reasons/targets: the due tables holding `code` at `at_ms` (a band or cell of the reasons view, opened). */
export const reasonTargetsQuerySchema = z.object({
  at_ms: atMsParamSchema,
  code: reasonCodeSchema,
});
export type ReasonTargetsQuery = z.output<typeof reasonTargetsQuerySchema>;

export const reasonTargetsResponseSchema = z.object({
  at_ms: z.number().int(),
  code: reasonCodeSchema,
  /** the journal evaluation whose state held at `at_ms` */
  revision: z.number().int(),
  now_ms: z.number().int(),
  targets: z.array(z.string()),
});
export type ReasonTargetsResponse = z.infer<typeof reasonTargetsResponseSchema>;
