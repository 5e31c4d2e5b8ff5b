import "server-only";
// Which FleetSnapshot field holds each family (lib/snapshot/types.ts), and which family a
// watched key belongs to (scheduler-model.md §1: `P/<family>/...`, `P/leader`, `P/leader-token`).
import { FAMILY_NAMES, type FamilyName, type FleetSnapshot } from "@/lib/snapshot/types";

/** FleetSnapshot array fields, per family (`leader` is special: a record plus a bare token). */
export const FAMILY_FIELD = {
  "demand-events": "demandEvents",
  demand: "demandTables",
  executors: "executors",
  assignments: "assignments",
  policies: "policies",
  queue: "queue",
  running: "running",
  tasks: "tasks",
  cooldown: "cooldowns",
  "merge-failures": "mergeFailures",
  "target-locks": "targetLocks",
  "merge-executions": "mergeExecutions",
  "merge-progress": "mergeProgress",
  "merge-work": "mergeWork",
  claims: "claims",
  "merge-claims": "mergeClaims",
  "catchup-active": "catchupActive",
  "compact-preparations": "compactPreparations",
  "compact-commit-ready": "compactCommitReady",
} as const satisfies Record<Exclude<FamilyName, "leader">, keyof FleetSnapshot>;

export type ListFamily = keyof typeof FAMILY_FIELD;
export type ListField = (typeof FAMILY_FIELD)[ListFamily];

export const LIST_FAMILIES = FAMILY_NAMES.filter((f): f is ListFamily => f !== "leader");

/** Family of a full key under `prefix` (no trailing `/`), or null for keys the console does not read. */
export function familyOfKey(prefix: string, key: string): FamilyName | null {
  if (!key.startsWith(prefix) || key.charCodeAt(prefix.length) !== 47 /* / */) return null;
  const rest = key.slice(prefix.length + 1);
  if (rest === "leader" || rest === "leader-token") return "leader";
  const slash = rest.indexOf("/");
  if (slash <= 0) return null;
  const family = rest.slice(0, slash);
  return family in FAMILY_FIELD ? (family as ListFamily) : null;
}
