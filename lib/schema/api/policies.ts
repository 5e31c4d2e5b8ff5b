// The policy endpoints (console-api.md "GET/PUT/DELETE /api/v1/policies/{target}", "POST
// …/preview" and Additions "Policy edits an admin can trust"): query, header, body and
// response schemas. The document itself is scheduler-model.md §7.3 (lib/schema/policy.ts).
import { z } from "zod";
import { EffectivePolicySchema, POLICY_MODES, PolicyDocumentSchema } from "@/lib/schema/policy";
import { noQuery, nowMsParam, revisionParam, targetParam } from "./common";
import { score, verdict } from "./demand";

export const policyTarget = targetParam;
export const policyQuery = z.object({ revision: revisionParam });
export const previewQuery = z.object({ now_ms: nowMsParam });
/** PUT and DELETE take no query parameters. */
export const writeQuery = noQuery;

/** The PUT / preview body: a sparse policy document (null or absent = inherit). */
export const policyBody = PolicyDocumentSchema;

/** `X-Change-Reason`: why the admin changes the policy; kept in the audit entry. */
export const CHANGE_REASON_MAX = 500;
export const changeReason = z
  .string()
  .trim()
  .min(1, "a reason is required: say why you change this policy (X-Change-Reason, 1 to 500 characters)")
  .max(CHANGE_REASON_MAX, `the reason is at most ${CHANGE_REASON_MAX} characters`);

/** `X-Preview-Digest`: the `digest` of the preview the admin reviewed. */
export const previewDigest = z.string().regex(/^[0-9a-f]{64}$/, "X-Preview-Digest must be the digest a preview returned");

export const storedIssue = z.object({ reason: z.string(), detail: z.string() }).nullable();
export const policySources = z.object({
  builtin: z.literal(true),
  default: z.boolean(),
  table: z.boolean(),
  fields: z.record(z.string(), z.enum(["builtin", "default", "table"])),
});

export const policyResponse = z.object({
  target: z.string(),
  effective: EffectivePolicySchema,
  stored: z.unknown(),
  sources: policySources,
  mod_revision: z.number().int(),
  default_stored: z.unknown(),
  default_mod_revision: z.number().int(),
  stored_issue: storedIssue,
  default_issue: storedIssue,
  revision: z.number().int(),
  read_at_ms: z.number().int(),
});
export type PolicyResponse = z.infer<typeof policyResponse>;

export const savedPolicyResponse = policyResponse.extend({ audit_id: z.string() });
export type SavedPolicyResponse = z.infer<typeof savedPolicyResponse>;

export const deletedPolicyResponse = z.object({
  target: z.string(),
  deleted: z.literal(true),
  mod_revision: z.literal(0),
  revision: z.number().int(),
  audit_id: z.string(),
});
export type DeletedPolicyResponse = z.infer<typeof deletedPolicyResponse>;

export const policyListEntry = z.object({ target: z.string(), stored: z.unknown(), mod_revision: z.number().int(), stored_issue: storedIssue });
export const policyListResponse = z.object({
  revision: z.number().int(),
  read_at_ms: z.number().int(),
  default: policyListEntry,
  tables: z.array(policyListEntry),
  bad_keys: z.number().int(),
});
export type PolicyListResponse = z.infer<typeof policyListResponse>;
export type PolicyListEntry = z.infer<typeof policyListEntry>;

export const PREVIEW_EFFECT_NAMES = ["placements_lost", "placements_gained", "promoted", "demoted", "newly_starving"] as const;
export const previewEffect = z.enum(PREVIEW_EFFECT_NAMES);
export const previewSide = z.object({ class: z.string(), class_rank: z.number().int(), score: score.nullable(), verdict });
export const previewRow = z.object({ target: z.string(), before: previewSide, after: previewSide, effects: z.array(previewEffect) });
export const previewSummary = z.object(Object.fromEntries(PREVIEW_EFFECT_NAMES.map((e) => [e, z.number().int()])) as Record<(typeof PREVIEW_EFFECT_NAMES)[number], z.ZodNumber>);
export const policyWarning = z.object({ path: z.string(), message: z.string(), range: z.string() });

export const previewResponse = z.object({
  revision: z.number().int(),
  read_at_ms: z.number().int(),
  now_ms: z.number().int(),
  target: z.string(),
  changed: z.array(previewRow),
  unchanged_count: z.number().int(),
  summary: previewSummary,
  /** sha256 of the fleet effect (same effect → same digest); send it back as X-Preview-Digest */
  digest: z.string(),
  /** effective `mode` of every table under the proposal (scheduler-model.md §7.3: only P2 masters read policies) */
  modes: z.partialRecord(z.enum(POLICY_MODES), z.number().int()),
  warnings: z.array(policyWarning),
});
export type PreviewResponse = z.infer<typeof previewResponse>;
export type PreviewRow = z.infer<typeof previewRow>;
export type PreviewEffectName = z.infer<typeof previewEffect>;
export type PolicyWarning = z.infer<typeof policyWarning>;

/** A field issue of `422 invalid_policy`; `path` is the dot path in the document, or `reason`. */
export const policyIssue = z.object({ path: z.string(), message: z.string() });
export type PolicyIssue = z.infer<typeof policyIssue>;

/** The error bodies of the write side: 412 carries what is stored now, 409 preview_stale the fresh preview. */
export const policyErrorBody = z.object({
  error: z.looseObject({
    code: z.string(),
    message: z.string(),
    issues: z.array(policyIssue).optional(),
    stored: z.unknown().optional(),
    mod_revision: z.number().int().optional(),
    preview: previewResponse.optional(),
  }),
});
