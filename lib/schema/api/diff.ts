// GET /api/v1/scheduler/diff (console-api.md "Time"): what changed between two moments,
// each side evaluated at its own revision's time.
import { z } from "zod";
import { className, leader, OUTCOMES, REVISION_TIME_BASES, revisionParam } from "./common";
import { atMsParam } from "./revisions";

export const diffQuery = z
  .object({ from: revisionParam, to: revisionParam, from_ms: atMsParam.optional(), to_ms: atMsParam.optional() })
  .refine((q) => (q.from === undefined) !== (q.from_ms === undefined), { message: "give exactly one of from and from_ms", path: ["from"] })
  .refine((q) => q.to === undefined || q.to_ms === undefined, { message: "give at most one of to and to_ms (default: now)", path: ["to"] })
  .refine((q) => q.from === undefined || q.to === undefined || q.from <= q.to, { message: "from must not be after to", path: ["from"] })
  .refine((q) => q.from_ms === undefined || q.to_ms === undefined || q.from_ms <= q.to_ms, { message: "from_ms must not be after to_ms", path: ["from_ms"] });
export type DiffQuery = z.output<typeof diffQuery>;

const side = z.object({ revision: z.number().int(), at_ms: z.number().int().nullable(), error_ms: z.number().int().nullable(), basis: z.enum(REVISION_TIME_BASES), now_ms: z.number().int() });
const verdictKey = z.object({ state: z.enum(["would_place", "would_skip"]), code: z.string().nullable() });
const executorState = z.object({ kind: z.string(), version: z.string().nullable(), draining: z.boolean(), kinds: z.array(z.string()), slots_total: z.record(z.string(), z.number()), bytes_total: z.number() });
const outcomeCounts = z.object(Object.fromEntries(OUTCOMES.map((o) => [o, z.number().int()])) as Record<(typeof OUTCOMES)[number], z.ZodNumber>);

export const diffResponse = z.object({
  from: side,
  to: side,
  tables: z.object({
    class_changed: z.array(z.object({ target: z.string(), before: className, after: className })),
    verdict_changed: z.array(z.object({ target: z.string(), before: verdictKey, after: verdictKey })),
    /** nothing pending before, something pending after */
    appeared: z.array(z.string()),
    /** something pending before, nothing pending after */
    cleared: z.array(z.string()),
  }),
  executors: z.object({
    added: z.array(z.string()),
    removed: z.array(z.string()),
    changed: z.array(z.object({ id: z.string(), before: executorState, after: executorState })),
  }),
  policies: z.object({ changed: z.array(z.string()) }),
  leader: z.object({ before: leader, after: leader, changed: z.boolean() }),
  shadow: z.object({ before: outcomeCounts, after: outcomeCounts }),
  counts: z.object({
    class_changed: z.number().int(),
    verdict_changed: z.number().int(),
    appeared: z.number().int(),
    cleared: z.number().int(),
    executors_added: z.number().int(),
    executors_removed: z.number().int(),
    executors_changed: z.number().int(),
    policies_changed: z.number().int(),
  }),
});
export type DiffResponse = z.infer<typeof diffResponse>;
export type ExecutorState = z.infer<typeof executorState>;
