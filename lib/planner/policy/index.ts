// Policies, scheduler-model.md §7.3: effective merge and validation.
export { effectivePolicy } from "./effective";
export type { EffectivePolicyResult, PolicySource, PolicySources } from "./effective";
export { checkOverwrite, validatePolicy } from "./validate";
export type { OverwriteCheck, PolicyIssue, PolicyValidation, ValidateOptions } from "./validate";
