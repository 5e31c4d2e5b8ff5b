// The form's resolver: the same validation as the API (validatePolicy: the §7.3 schema, then
// the cross-field rules on the effective policy, inherited values included), with every
// issue said in words at its field (describeIssue). react-hook-form then focuses the first
// field in error (shouldFocusError) and the error summary links to each.
import type { FieldErrors, Resolver } from "react-hook-form";
import { validatePolicy } from "@/lib/planner/policy";
import type { PolicyDocument } from "@/lib/schema/policy";
import { cleanDoc, describeIssue, getPath } from "./fields";

/** `{path, message}` issues → react-hook-form's nested error object, messages in words. */
export function issuesToErrors(issues: { path: string; message: string }[], values: unknown): FieldErrors<PolicyDocument> {
  const errors: Record<string, unknown> = {};
  for (const issue of issues) {
    const parts = (issue.path || "root").split(".");
    let cur = errors;
    for (const part of parts.slice(0, -1)) cur = (cur[part] ??= {}) as Record<string, unknown>;
    const message = issue.path ? describeIssue(issue.path, getPath(values, issue.path), issue.message) : issue.message;
    cur[parts[parts.length - 1]] ??= { type: "policy", message };
  }
  return errors as FieldErrors<PolicyDocument>;
}

export function policyResolver(defaultDoc: PolicyDocument | null): Resolver<PolicyDocument> {
  return async (values) => {
    const doc = cleanDoc(values);
    const checked = validatePolicy(doc, { defaultDoc });
    if (checked.ok) return { values: doc, errors: {} };
    return { values: {}, errors: issuesToErrors(checked.issues, values) };
  };
}
