// GET /api/v1/audit (console-api.md): policy changes newest first; `?revision=R` lists the
// entries written up to R (Additions: every read endpoint honours ?revision=).
import { z } from "zod";
import { revisionParam, targetParam } from "./common";

export const AUDIT_CURSOR = /^[\w.-]{1,128}$/;

export const auditQuery = z.object({
  target: targetParam.optional(),
  limit: z
    .string()
    .regex(/^\d+$/, "limit must be an integer")
    .transform(Number)
    .pipe(z.number().int().min(1).max(500))
    .optional()
    .transform((v) => v ?? 50),
  cursor: z.string().regex(AUDIT_CURSOR, "cursor is not one this endpoint returned").optional(),
  revision: revisionParam,
});
export type AuditQuery = z.output<typeof auditQuery>;

export const auditEntry = z.object({
  id: z.string(),
  at_ms: z.number().int(),
  actor: z.string(),
  target: z.string(),
  before: z.unknown(),
  after: z.unknown(),
  /** X-Change-Reason of the write (null on entries written before reasons were required) */
  reason: z.string().nullable(),
  mod_revision: z.number().int(),
});
export type AuditEntry = z.infer<typeof auditEntry>;

export const auditResponse = z.object({ revision: z.number().int(), read_at_ms: z.number().int(), entries: z.array(auditEntry), next_cursor: z.string().nullable() });
export type AuditResponse = z.infer<typeof auditResponse>;
