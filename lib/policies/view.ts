import "server-only";
// The GET/PUT answer of console-api.md "GET /api/v1/policies/{target}":
// `{target, effective, stored, sources, mod_revision}`. A stored document that does not
// parse (or has a newer `v`) is left out of the merge and reported in `stored_issue`.
import type { StoredPolicy } from "./store";
import { effectivePolicy, type PolicySources } from "@/lib/planner/policy";
import {
  BUILTIN_POLICY,
  DEFAULT_POLICY_TARGET,
  parseStoredPolicy,
  type EffectivePolicy,
  type PolicyDocument,
} from "@/lib/schema/policy";

export interface StoredIssue {
  reason: string;
  detail: string;
}

export interface PolicyView {
  target: string;
  effective: EffectivePolicy;
  stored: unknown;
  sources: PolicySources;
  mod_revision: number;
  /** the fleet default's stored document and mod_revision (what a table inherits from) */
  default_stored: unknown;
  default_mod_revision: number;
  stored_issue: StoredIssue | null;
  default_issue: StoredIssue | null;
}

/** The parsed document of a stored record, or null with the reason it cannot be used. */
export function usableDoc(stored: StoredPolicy | null): { doc: PolicyDocument | null; issue: StoredIssue | null } {
  if (!stored || stored.modRevision === 0) return { doc: null, issue: null };
  if (stored.badJson !== undefined) return { doc: null, issue: { reason: "bad_json", detail: stored.badJson } };
  const parsed = parseStoredPolicy(stored.doc);
  return parsed.ok
    ? { doc: parsed.value, issue: null }
    : { doc: null, issue: { reason: parsed.reason, detail: parsed.detail } };
}

export function policyView(target: string, stored: StoredPolicy, defaultStored: StoredPolicy): PolicyView {
  const isDefault = target === DEFAULT_POLICY_TARGET;
  const own = usableDoc(stored);
  const fleet = isDefault ? own : usableDoc(defaultStored);
  const { effective, sources } = isDefault
    ? effectivePolicy(BUILTIN_POLICY, own.doc, null)
    : effectivePolicy(BUILTIN_POLICY, fleet.doc, own.doc);
  return {
    target,
    effective,
    stored: stored.modRevision === 0 ? null : stored.doc,
    sources,
    mod_revision: stored.modRevision,
    default_stored: defaultStored.modRevision === 0 ? null : defaultStored.doc,
    default_mod_revision: defaultStored.modRevision,
    stored_issue: own.issue,
    default_issue: isDefault ? null : fleet.issue,
  };
}
