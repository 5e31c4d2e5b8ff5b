// Policy validation, scheduler-model.md §7.3 [PROPOSAL]: the document schema (enums,
// ranges, non-empty allow-lists, unknown keys rejected, `v` must be 1) plus the cross-field
// rules checked on the EFFECTIVE policy, because a table document that only sets
// `merge.critical_generations` can fall below an inherited `merge.min_generations`.
import { BUILTIN_POLICY, POLICY_VERSION, PolicyDocumentSchema, foreignPolicyVersion } from "@/lib/schema/policy";
import type { EffectivePolicy, PolicyDocument } from "@/lib/schema/policy";
import { effectivePolicy } from "./effective";

export interface PolicyIssue {
  /** Dot path of the offending field ("" = the document itself). */
  path: string;
  message: string;
}

export type PolicyValidation =
  | { ok: true; doc: PolicyDocument; effective: EffectivePolicy; issues: [] }
  | { ok: false; issues: PolicyIssue[]; unsupported_version: number | null };

export interface ValidateOptions {
  /** The stored `_default` document; pass null when validating `_default` itself. */
  defaultDoc: PolicyDocument | null;
  builtin?: EffectivePolicy;
}

/** Cross-field rules on the effective policy; `doc` decides which path an issue names. */
function effectiveIssues(effective: EffectivePolicy, doc: PolicyDocument): PolicyIssue[] {
  const issues: PolicyIssue[] = [];
  const { merge, backlog } = effective;
  if (merge.critical_generations < merge.min_generations) {
    const path = doc.merge?.critical_generations != null ? "merge.critical_generations" : "merge.min_generations";
    issues.push({
      path,
      message:
        `merge.critical_generations (effective ${merge.critical_generations} generations) must be at least ` +
        `merge.min_generations (effective ${merge.min_generations} generations), including inherited values`,
    });
  }
  if (backlog.critical_generations < backlog.warn_generations) {
    const path = doc.backlog?.critical_generations != null ? "backlog.critical_generations" : "backlog.warn_generations";
    issues.push({
      path,
      message:
        `backlog.critical_generations (effective ${backlog.critical_generations} generations) must be at least ` +
        `backlog.warn_generations (effective ${backlog.warn_generations} generations), including inherited values`,
    });
  }
  return issues;
}

/** Validate a PUT body or stored document (already JSON-decoded). Never throws. */
export function validatePolicy(doc: unknown, options: ValidateOptions): PolicyValidation {
  const foreign = foreignPolicyVersion(doc);
  if (foreign !== undefined) {
    const newer = typeof foreign === "number" && Number.isInteger(foreign) && foreign > POLICY_VERSION;
    return {
      ok: false,
      unsupported_version: newer ? (foreign as number) : null,
      issues: [
        {
          path: "v",
          message: newer
            ? `unsupported version ${foreign}: written by a newer console; it must never be overwritten`
            : `v must be ${POLICY_VERSION}, got ${JSON.stringify(foreign)}`,
        },
      ],
    };
  }
  const parsed = PolicyDocumentSchema.safeParse(doc);
  if (!parsed.success) {
    return {
      ok: false,
      unsupported_version: null,
      issues: parsed.error.issues.map((i) => ({ path: i.path.map(String).join("."), message: i.message })),
    };
  }
  const { effective } = effectivePolicy(options.builtin ?? BUILTIN_POLICY, options.defaultDoc, parsed.data);
  const issues = effectiveIssues(effective, parsed.data);
  if (issues.length > 0) return { ok: false, unsupported_version: null, issues };
  return { ok: true, doc: parsed.data, effective, issues: [] };
}
