// Policies, scheduler-model.md §7.3: effective merge and validation.
export { effectivePolicy } from "./effective";
export type { PolicySources } from "./effective";
export { validatePolicy } from "./validate";
export type { PolicyIssue } from "./validate";
export { policyWarnings } from "./sanity";
export { sameSettings } from "./same";
