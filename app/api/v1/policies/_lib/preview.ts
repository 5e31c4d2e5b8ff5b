import "server-only";
// console-api.md "POST /api/v1/policies/{target}/preview": run the planner twice on one
// revision of the fleet, with the stored policies and with the proposed document in place
// of the target's (or of `_default`), and report the tables whose class, score or verdict
// move. Nothing is written.
import { plannerFleet } from "@/lib/live/planner-input";
import type { FleetView } from "@/lib/live/cache";
import { planFleet, type PlannerFleet, type TablePlan } from "@/lib/planner/plan";
import type { PolicyDocument } from "@/lib/schema/policy";
import { DEFAULT_POLICY_TARGET } from "@/lib/etcd/policy-store";

export interface PreviewSide {
  class: string;
  score: TablePlan["score"];
  verdict: TablePlan["verdict"];
}

export interface PolicyPreview {
  revision: number;
  read_at_ms: number;
  now_ms: number;
  target: string;
  changed: { target: string; before: PreviewSide; after: PreviewSide }[];
  unchanged_count: number;
}

const side = (t: TablePlan): PreviewSide => ({ class: t.class, score: t.score, verdict: t.verdict });

function withProposal(fleet: PlannerFleet, target: string, doc: PolicyDocument): PlannerFleet {
  if (target === DEFAULT_POLICY_TARGET) return { ...fleet, policies: { default: doc, tables: fleet.policies.tables } };
  const tables = new Map(fleet.policies.tables);
  tables.set(target, doc);
  return { ...fleet, policies: { default: fleet.policies.default, tables } };
}

export function previewPolicy(view: FleetView, target: string, doc: PolicyDocument, nowMs: number): PolicyPreview {
  const fleet = plannerFleet(view.snapshot, view.tables, view.sequenceClocks);
  const before = planFleet(fleet, nowMs);
  const after = planFleet(withProposal(fleet, target, doc), nowMs);
  const changed: PolicyPreview["changed"] = [];
  let unchanged = 0;
  for (const b of before.tables) {
    const a = after.byTarget.get(b.target);
    if (!a) continue;
    const moved = a.class !== b.class || a.score !== b.score || JSON.stringify(a.verdict) !== JSON.stringify(b.verdict);
    if (moved) changed.push({ target: b.target, before: side(b), after: side(a) });
    else unchanged++;
  }
  return { revision: view.revision, read_at_ms: view.readAtMs, now_ms: nowMs, target, changed, unchanged_count: unchanged };
}
