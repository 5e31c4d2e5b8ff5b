// GET /api/v1/audit (console-api.md): policy changes newest first; `?revision=R` lists the
// entries written up to R (Additions: every read endpoint honours ?revision=); filters
// `target`, `actor`, `from_ms`, `to_ms` and `q` (a substring of the reason or of the
// override reason, any case) (third version: "Policy edits on a live fleet").
import { z } from "zod";
import { revisionParamSchema, targetParamSchema } from "./common";
import { allowingRuleSchema } from "./session";

const AUDIT_CURSOR = /^[\w.-]{1,128}$/;

/** Unix milliseconds of an audit filter bound (inclusive). */
const auditMs = (what: string) =>
  z
    .string()
    .regex(/^\d+$/, `${what} must be a non-negative integer (Unix milliseconds)`)
    .transform(Number)
    .pipe(z.number().int().max(Number.MAX_SAFE_INTEGER))
    .optional();

export const auditQuerySchema = z
  .object({
    target: targetParamSchema.optional(),
    /** a substring of the target, any case (the audit page's "Table contains"); `target` is the exact name */
    target_q: z.string().min(1, "target_q must not be empty").max(512, "target_q is at most 512 characters").optional(),
    // a token's name or a person's email (any case: emails are compared without it)
    actor: z.string().min(1, "actor must not be empty").max(320, "actor is at most 320 characters").optional(),
    from_ms: auditMs("from_ms"),
    to_ms: auditMs("to_ms"),
    q: z.string().min(1, "q must not be empty").max(500, "q is at most 500 characters").optional(),
    limit: z
      .string()
      .regex(/^\d+$/, "limit must be an integer")
      .transform(Number)
      .pipe(z.number().int().min(1).max(500))
      .optional()
      .transform((v) => v ?? 50),
    cursor: z.string().regex(AUDIT_CURSOR, "cursor is not one this endpoint returned").optional(),
    revision: revisionParamSchema,
  })
  .refine((q) => q.from_ms === undefined || q.to_ms === undefined || q.from_ms <= q.to_ms, {
    message: "from_ms must not be after to_ms",
    path: ["from_ms"],
  });
export type AuditQuery = z.output<typeof auditQuerySchema>;

/**
 * The stored audit record `P/console/audit/<id>` (lib/policies/store.ts writes it beside the
 * policy, in one txn). Lenient where older consoles wrote less: a missing `before`/`after` is
 * null, a missing or non-string `reason`/`override_reason` null, `overridden_gates` keeps
 * its strings. A record without a numeric `at_ms` or a string `actor`/`target` is malformed.
 */
export const auditRecordSchema = z.object({
  at_ms: z.number(),
  actor: z.string(),
  target: z.string(),
  before: z
    .unknown()
    .optional()
    .transform((v) => v ?? null),
  after: z
    .unknown()
    .optional()
    .transform((v) => v ?? null),
  reason: z.string().nullable().catch(null),
  overridden_gates: z
    .array(z.unknown())
    .catch([])
    .transform((gates) => gates.filter((g): g is string => typeof g === "string")),
  override_reason: z.string().nullable().catch(null),
  rule: allowingRuleSchema.nullable().catch(null),
});

const auditEntrySchema = z.object({
  id: z.string(),
  at_ms: z.number().int(),
  actor: z.string(),
  target: z.string(),
  before: z.unknown(),
  after: z.unknown(),
  /** X-Change-Reason of the write (null on entries written before reasons were required) */
  reason: z.string().nullable(),
  /** the takeover gates overridden by this write (X-Override-Gates; empty when none), and the second reason */
  overridden_gates: z.array(z.string()),
  override_reason: z.string().nullable(),
  /** the rule that allowed the save (console-api.md fourth version: a token, or a rule of CONSOLE_RBAC_FILE and the glob that covered the target); null on entries written before rules */
  rule: allowingRuleSchema.nullable(),
  mod_revision: z.number().int(),
});

export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const auditResponseSchema = z.object({
  revision: z.number().int(),
  read_at_ms: z.number().int(),
  entries: z.array(auditEntrySchema),
  next_cursor: z.string().nullable(),
});
export type AuditResponse = z.infer<typeof auditResponseSchema>;
