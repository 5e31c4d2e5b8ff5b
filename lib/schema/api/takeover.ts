// The takeover gate (console-api.md "The takeover gate and the canary evidence"): the gates a
// switch to `mode: "planner"` must pass, as a 409 takeover_not_ready body and as
// `GET /api/v1/takeover/gates?target=` (what the editor shows before review).
import { z } from "zod";
import { targetParamSchema } from "./common";

export const TAKEOVER_GATES = ["fleet_homogeneous", "observed_days", "evidence_read"] as const;
export type TakeoverGateName = (typeof TAKEOVER_GATES)[number];

const takeoverGateSchema = z.object({ gate: z.enum(TAKEOVER_GATES), ok: z.boolean(), detail: z.string() });
export type TakeoverGate = z.infer<typeof takeoverGateSchema>;

export const gatesQuerySchema = z.object({
  target: targetParamSchema,
  evidence_digest: z.string().max(128).optional(),
});

export const gatesResponseSchema = z.object({
  target: z.string(),
  now_ms: z.number().int(),
  ready: z.boolean(),
  gates: z.array(takeoverGateSchema),
});
export type GatesResponse = z.infer<typeof gatesResponseSchema>;
