// The form's resolver: the same validation as the API (validatePolicy: the §7.3 schema, then
// the cross-field rules on the effective policy, inherited values included), with every
// issue said in words at its field (describeIssue). react-hook-form then focuses the first
// field in error (shouldFocusError) and the error summary links to each.
import type { FieldErrors, Resolver } from "react-hook-form";
import { validatePolicy } from "@/lib/planner/policy";
import type { PolicyDocument } from "@/lib/schema/policy";
import { cleanDoc, describeIssue, getPath, setPath, type Plain } from "./fields";

/** `{path, message}` issues → react-hook-form's nested error object, messages in words. */
export function issuesToErrors(
  issues: { path: string; message: string }[],
  values: unknown,
): FieldErrors<PolicyDocument> {
  const errors: Plain = {};
  for (const issue of issues) {
    const path = issue.path || "root";
    if (getPath(errors, path) !== undefined) continue; // the first issue of a field is the one shown
    const message = issue.path ? describeIssue(issue.path, getPath(values, issue.path), issue.message) : issue.message;
    setPath(errors, path, { type: "policy", message });
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
