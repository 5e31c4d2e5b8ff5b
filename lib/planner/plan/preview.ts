// Policy preview (console-api.md `POST /policies/{target}/preview`, issue 6): plan the same
// revision with the stored policies and with the proposed document, and list the tables
// whose class, score or verdict would change. Writes nothing; pure.
import type { PolicyDocument } from "@/lib/schema/policy";
import type { PlannerFleet } from "./input";
import { planFleet } from "./plan-fleet";
import type { TablePlan } from "./types";

export const DEFAULT_POLICY_TARGET = "_default";

export interface PreviewSide {
  class: TablePlan["class"];
  score: TablePlan["score"];
  verdict: TablePlan["verdict"];
}

export interface PolicyPreview {
  changed: Array<{ target: string; before: PreviewSide; after: PreviewSide }>;
  unchanged_count: number;
}

/** The fleet with `proposed` stored for `target` (`_default` = the fleet default; null = delete). */
export function withPolicy(fleet: PlannerFleet, target: string, proposed: PolicyDocument | null): PlannerFleet {
  if (target === DEFAULT_POLICY_TARGET) return { ...fleet, policies: { ...fleet.policies, default: proposed } };
  const tables = new Map(fleet.policies.tables);
  if (proposed) tables.set(target, proposed);
  else tables.delete(target);
  return { ...fleet, policies: { ...fleet.policies, tables } };
}

const side = (t: TablePlan): PreviewSide => ({ class: t.class, score: t.score, verdict: t.verdict });

function sameVerdict(a: TablePlan["verdict"], b: TablePlan["verdict"]): boolean {
  if (a.state !== b.state) return false;
  if (a.state === "would_place" && b.state === "would_place") {
    return a.executor === b.executor && a.reserved_bytes === b.reserved_bytes && a.kind === b.kind;
  }
  return a.state === "would_skip" && b.state === "would_skip" && a.code === b.code && a.message === b.message;
}

/** Tables whose class, score or verdict differ, in the proposed plan's planner order. */
export function previewPolicy(fleet: PlannerFleet, target: string, proposed: PolicyDocument | null, now: number): PolicyPreview {
  const before = planFleet(fleet, now).byTarget;
  const after = planFleet(withPolicy(fleet, target, proposed), now);
  const changed: PolicyPreview["changed"] = [];
  for (const next of after.tables) {
    const prev = before.get(next.target);
    if (!prev) continue;
    if (prev.class !== next.class || prev.score !== next.score || !sameVerdict(prev.verdict, next.verdict)) {
      changed.push({ target: next.target, before: side(prev), after: side(next) });
    }
  }
  return { changed, unchanged_count: after.tables.length - changed.length };
}
