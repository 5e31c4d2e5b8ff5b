// The policy endpoints (console-api.md "GET/PUT/DELETE /api/v1/policies/{target}", "POST
// …/preview" and Additions "Policy edits an admin can trust"): query, header, body and
// response schemas. The document itself is scheduler-model.md §7.3 (lib/schema/policy.ts).
import { z } from "zod";
import { EffectivePolicySchema, POLICY_MODES, PolicyDocumentSchema } from "@/lib/schema/policy";
import { noQuerySchema, nowMsParamSchema, revisionParamSchema, targetParamSchema } from "./common";
import { scoreSchema, verdictSchema } from "./demand";

export const policyTargetSchema = targetParamSchema;
export const policyQuerySchema = z.object({ revision: revisionParamSchema });
export const previewQuerySchema = z.object({ now_ms: nowMsParamSchema });
/** PUT and DELETE take no query parameters. */
export const writeQuerySchema = noQuerySchema;

/** The PUT / preview body: a sparse policy document (null or absent = inherit). */
export const policyBodySchema = PolicyDocumentSchema;

/** `X-Change-Reason`: why the admin changes the policy; kept in the audit entry. */
export const CHANGE_REASON_MAX = 500;
export const changeReasonSchema = z
  .string()
  .trim()
  .min(1, "a reason is required: say why you change this policy (X-Change-Reason, 1 to 500 characters)")
  .max(CHANGE_REASON_MAX, `the reason is at most ${CHANGE_REASON_MAX} characters`);

/** `X-Preview-Digest`: the `digest` of the preview the admin reviewed. */
export const previewDigestSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{66}$/, "X-Preview-Digest must be the digest a preview returned");

const storedIssueSchema = z.object({ reason: z.string(), detail: z.string() }).nullable();
const policySourcesSchema = z.object({
  builtin: z.literal(true),
  default: z.boolean(),
  table: z.boolean(),
  fields: z.record(z.string(), z.enum(["builtin", "default", "table"])),
});

export const policyResponseSchema = z.object({
  target: z.string(),
  effective: EffectivePolicySchema,
  stored: z.unknown(),
  sources: policySourcesSchema,
  mod_revision: z.number().int(),
  default_stored: z.unknown(),
  default_mod_revision: z.number().int(),
  stored_issue: storedIssueSchema,
  default_issue: storedIssueSchema,
  revision: z.number().int(),
  read_at_ms: z.number().int(),
});
export type PolicyResponse = z.infer<typeof policyResponseSchema>;

export const savedPolicyResponseSchema = policyResponseSchema.extend({ audit_id: z.string() });
export type SavedPolicyResponse = z.infer<typeof savedPolicyResponseSchema>;

export const deletedPolicyResponseSchema = z.object({
  target: z.string(),
  deleted: z.literal(true),
  mod_revision: z.literal(0),
  revision: z.number().int(),
  audit_id: z.string(),
});
export type DeletedPolicyResponse = z.infer<typeof deletedPolicyResponseSchema>;

const policyListEntrySchema = z.object({
  target: z.string(),
  stored: z.unknown(),
  mod_revision: z.number().int(),
  stored_issue: storedIssueSchema,
});
export const policyListResponseSchema = z.object({
  revision: z.number().int(),
  read_at_ms: z.number().int(),
  default: policyListEntrySchema,
  tables: z.array(policyListEntrySchema),
  bad_keys: z.number().int(),
});
export type PolicyListResponse = z.infer<typeof policyListResponseSchema>;

const PREVIEW_EFFECT_NAMES = ["placements_lost", "placements_gained", "promoted", "demoted", "newly_starving"] as const;
const previewEffectSchema = z.enum(PREVIEW_EFFECT_NAMES);
const previewSideSchema = z.object({
  class: z.string(),
  class_rank: z.number().int(),
  score: scoreSchema.nullable(),
  verdict: verdictSchema,
});
const previewRowSchema = z.object({
  target: z.string(),
  before: previewSideSchema,
  after: previewSideSchema,
  effects: z.array(previewEffectSchema),
});
const previewSummarySchema = z.object(
  Object.fromEntries(PREVIEW_EFFECT_NAMES.map((e) => [e, z.number().int()])) as Record<
    (typeof PREVIEW_EFFECT_NAMES)[number],
    z.ZodNumber
  >,
);
const policyWarningSchema = z.object({ path: z.string(), message: z.string(), range: z.string() });

export const previewResponseSchema = z.object({
  revision: z.number().int(),
  read_at_ms: z.number().int(),
  now_ms: z.number().int(),
  target: z.string(),
  changed: z.array(previewRowSchema),
  unchanged_count: z.number().int(),
  summary: previewSummarySchema,
  /**
   * the reviewed effect and the moment it was evaluated at (`revision`, `now_ms`), opaque:
   * send it back as X-Preview-Digest, to any replica (a save re-plans that reviewed fleet)
   */
  digest: z.string(),
  /** effective `mode` of every table under the proposal (scheduler-model.md §7.3: only P2 masters read policies) */
  modes: z.partialRecord(z.enum(POLICY_MODES), z.number().int()),
  warnings: z.array(policyWarningSchema),
});
export type PreviewResponse = z.infer<typeof previewResponseSchema>;
export type PreviewRow = z.infer<typeof previewRowSchema>;
export type PreviewEffectName = z.infer<typeof previewEffectSchema>;

/** A field issue of `422 invalid_policy`; `path` is the dot path in the document, or `reason`. */
const policyIssueSchema = z.object({ path: z.string(), message: z.string() });

/** A decision set's change since the reviewed preview: targets now in it (added) and no longer in it (removed). */
const setChangeSchema = z.object({ added: z.array(z.string()), removed: z.array(z.string()) });
/**
 * 409 preview_stale `changed` (console-api.md "Policy edits on a live fleet"): per decision
 * set, the material changes between the reviewed effect and saving now. Null when this
 * console process did not answer the reviewed preview (another replica, or a restart).
 */
const decisionChangesSchema = z.object(
  Object.fromEntries(PREVIEW_EFFECT_NAMES.map((e) => [e, setChangeSchema])) as Record<
    (typeof PREVIEW_EFFECT_NAMES)[number],
    typeof setChangeSchema
  >,
);
export type DecisionChangesBody = z.infer<typeof decisionChangesSchema>;

/** The error bodies of the write side: 412 carries what is stored now, 409 preview_stale the fresh preview and what changed. */
export const policyErrorBodySchema = z.object({
  error: z.looseObject({
    code: z.string(),
    message: z.string(),
    issues: z.array(policyIssueSchema).optional(),
    stored: z.unknown().optional(),
    mod_revision: z.number().int().optional(),
    preview: previewResponseSchema.optional(),
    changed: decisionChangesSchema.nullable().optional(),
    reviewed_revision: z.number().int().nullable().optional(),
  }),
});
