// Policies, scheduler-model.md §7.3: effective merge and validation.
export { effectivePolicy } from "./effective";
export type { EffectivePolicyResult, PolicySource, PolicySources } from "./effective";
export { validatePolicy } from "./validate";
export type { PolicyIssue, PolicyValidation, ValidateOptions } from "./validate";
export { WRITE_CLIFF_GENERATIONS, WRITE_WARN_GENERATIONS, policyWarnings } from "./sanity";
export type { PolicyWarning } from "./sanity";
