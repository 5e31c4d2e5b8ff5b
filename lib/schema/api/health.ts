// GET /api/v1/health (console-api.md): 200 while etcd answers, 503 with status "down" otherwise.
import { z } from "zod";
import { leader, noQuery } from "./common";

export const healthQuery = noQuery;

export const healthResponse = z.object({
  status: z.enum(["ok", "degraded", "down"]),
  revision: z.number().int().nullable(),
  endpoints: z.array(z.object({ url: z.string(), ok: z.boolean(), latency_ms: z.number().nullable(), error: z.string().optional() })),
  leader,
  snapshot: z.object({ revision: z.number().int().nullable(), age_ms: z.number().int().nullable(), live: z.boolean() }),
});
export type HealthResponse = z.infer<typeof healthResponse>;
