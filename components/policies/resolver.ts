// The form's resolver: the same zod schema as the API (PolicyDocumentSchema), then the
// cross-field rules on the effective policy (validatePolicy), both as inline field errors.
import { zodResolver } from "@hookform/resolvers/zod";
import type { FieldErrors, Resolver } from "react-hook-form";
import { validatePolicy } from "@/lib/planner/policy";
import { PolicyDocumentSchema, type PolicyDocument } from "@/lib/schema/policy";
import { cleanDoc } from "./fields";

/** `{path: message}` issues → react-hook-form's nested error object. */
export function issuesToErrors(issues: { path: string; message: string }[]): FieldErrors<PolicyDocument> {
  const errors: Record<string, unknown> = {};
  for (const issue of issues) {
    const parts = (issue.path || "root").split(".");
    let cur = errors;
    for (const part of parts.slice(0, -1)) cur = (cur[part] ??= {}) as Record<string, unknown>;
    cur[parts[parts.length - 1]] ??= { type: "policy", message: issue.message };
  }
  return errors as FieldErrors<PolicyDocument>;
}

export function policyResolver(defaultDoc: PolicyDocument | null): Resolver<PolicyDocument> {
  const schema = zodResolver(PolicyDocumentSchema) as unknown as Resolver<PolicyDocument>;
  return async (values, context, options) => {
    const first = await schema(values, context, options);
    if (Object.keys(first.errors).length > 0) return first;
    const checked = validatePolicy(cleanDoc(values), { defaultDoc });
    if (checked.ok) return { values: cleanDoc(values), errors: {} };
    return { values: {}, errors: issuesToErrors(checked.issues) };
  };
}
