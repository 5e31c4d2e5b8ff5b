// GET /api/v1/health (console-api.md): 200 while etcd answers, 503 with status "down"
// otherwise, and 503 with status "starting" until the first full read and plan are done.
import { z } from "zod";
import { leaderSchema, noQuerySchema } from "./common";

export const healthQuerySchema = noQuerySchema;

export const healthResponseSchema = z.object({
  status: z.enum(["ok", "degraded", "down", "starting"]),
  /** the first full read and plan are done (a load balancer sends traffic only then) */
  ready: z.boolean(),
  revision: z.number().int().nullable(),
  endpoints: z.array(
    z.object({
      url: z.string(),
      ok: z.boolean(),
      latency_ms: z.number().nullable(),
      error: z.string().optional(),
      /** the member answered its status, but knows no leader: its cluster has lost quorum (it is not `ok`) */
      no_leader: z.literal(true).optional(),
    }),
  ),
  leader: leaderSchema,
  snapshot: z.object({ revision: z.number().int().nullable(), age_ms: z.number().int().nullable(), live: z.boolean() }),
  /** console-api.md "Overload and memory": the process's resident memory beside CONSOLE_MEMORY_MIB */
  memory: z.object({
    /** the server process's resident set (MiB, whole) */
    rss_mib: z.number().int(),
    /** CONSOLE_MEMORY_MIB */
    budget_mib: z.number().int(),
    /**
     * the resident set went past the budget and is not yet back under 80 % of it: meanwhile
     * the heaps keep less garbage (lib/live/memory-limit.ts)
     */
    over_budget: z.boolean(),
    /** views the plans hold besides the live one */
    held_views: z.number().int(),
    /** pinned views kept (the least recently used go first past the budget) */
    pinned_views: z.number().int(),
  }),
});
export type HealthResponse = z.infer<typeof healthResponseSchema>;
