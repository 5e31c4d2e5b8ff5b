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
    const path =
      doc.backlog?.critical_generations != null ? "backlog.critical_generations" : "backlog.warn_generations";
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
    const issues = parsed.error.issues.map((i) => ({ path: i.path.map(String).join("."), message: i.message }));
    // an unknown key is dropped by itself, not its whole section
    const drops = parsed.error.issues.flatMap((i) =>
      i.code === "unrecognized_keys"
        ? i.keys.map((k) => [...i.path, k].map(String).join("."))
        : [i.path.map(String).join(".")],
    );
    return {
      ok: false,
      unsupported_version: null,
      issues: [...issues, ...crossFieldIssuesBeside(doc, issues, drops, options)],
    };
  }
  const { effective } = effectivePolicy(options.builtin ?? BUILTIN_POLICY, options.defaultDoc, parsed.data);
  const issues = effectiveIssues(effective, parsed.data);
  if (issues.length > 0) return { ok: false, unsupported_version: null, issues };
  return { ok: true, doc: parsed.data, effective, issues: [] };
}

/**
 * console-api.md third version: "a 422 invalid_policy lists every issue of the body at
 * once". The schema stops before its cross-field rules when a field is bad, so they are
 * checked again on the document without the fields already in error (those inherit), and
 * their issues are added unless they name a field already listed.
 */
function crossFieldIssuesBeside(
  doc: unknown,
  issues: PolicyIssue[],
  drops: string[],
  options: ValidateOptions,
): PolicyIssue[] {
  if (doc === null || typeof doc !== "object" || Array.isArray(doc)) return [];
  const rest = structuredClone(doc) as Record<string, unknown>;
  for (const path of drops) dropPath(rest, path);
  const named = new Set(issues.map((i) => i.path));
  const extra: PolicyIssue[] = [];
  // what is left may still break the document's own cross-field rules (superRefine): list
  // those not named yet, drop their fields too, and go on to the rules on the effective policy
  for (let round = 0; round < 3; round++) {
    const parsed = PolicyDocumentSchema.safeParse(rest);
    if (parsed.success) {
      const { effective } = effectivePolicy(options.builtin ?? BUILTIN_POLICY, options.defaultDoc, parsed.data);
      for (const i of [...extra, ...issues]) named.add(i.path);
      return [...extra, ...effectiveIssues(effective, parsed.data).filter((i) => !named.has(i.path))];
    }
    if (parsed.error.issues.some((i) => i.code !== "custom")) return extra;
    for (const i of parsed.error.issues) {
      const path = i.path.map(String).join(".");
      if (!named.has(path)) extra.push({ path, message: i.message });
      named.add(path);
      dropPath(rest, path);
    }
  }
  return extra;
}

/** Removes the leaf at a dot path (or the whole section when the path names a section). */
function dropPath(doc: Record<string, unknown>, path: string): void {
  if (path === "") return;
  const parts = path.split(".");
  let cur: unknown = doc;
  for (const part of parts.slice(0, -1)) {
    if (cur === null || typeof cur !== "object" || Array.isArray(cur)) return;
    cur = (cur as Record<string, unknown>)[part];
  }
  if (cur !== null && typeof cur === "object" && !Array.isArray(cur))
    delete (cur as Record<string, unknown>)[parts[parts.length - 1]];
  else if (Array.isArray(cur)) {
    // an issue inside a list (e.g. kinds_allowed.1): the whole list is in error; drop it
    dropPath(doc, parts.slice(0, -1).join("."));
  }
}
