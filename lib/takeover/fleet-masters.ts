import "server-only";
// GET /api/v1/fleet/masters (console-api.md "The takeover gate and the canary evidence"):
// every `resident_master` heartbeat's version (scheduler-model.md §2.4) against
// CONSOLE_POLICY_AWARE_VERSION. The fleet is homogeneous when every master applies policies;
// with no master heartbeat at all it is not (nothing says a master would apply them).
import { takeoverEnv } from "@/lib/config/env";
import { isPolicyAware } from "@/lib/planner/takeover/semver";
import { compareTargets } from "@/lib/planner/order";
import type { MastersResponse } from "@/lib/schema/api/fleet";
import type { ReadQuery } from "@/lib/schema/api/common";
import { fleetView, type FleetView } from "@/lib/live/fleet-view";
import { evaluate } from "@/lib/live/evaluation";

export function mastersOf(
  view: FleetView,
  policyAwareVersion: string | null,
): Pick<MastersResponse, "policy_aware_version" | "masters" | "homogeneous"> {
  const masters = view.snapshot.executors
    .filter((e) => e.heartbeat.kind === "resident_master")
    .map((e) => ({
      instance: e.id,
      version: e.heartbeat.version || null,
      policy_aware: isPolicyAware(e.heartbeat.version, policyAwareVersion),
    }))
    .sort((a, b) => compareTargets(a.instance, b.instance));
  return {
    policy_aware_version: policyAwareVersion,
    masters,
    homogeneous: masters.length > 0 && masters.every((m) => m.policy_aware),
  };
}

export async function fleetMasters(query: ReadQuery): Promise<MastersResponse> {
  const view = await fleetView(query.revision);
  const evaluation = await evaluate(view, query);
  return { revision: view.revision, now_ms: evaluation.now, ...mastersOf(view, takeoverEnv().policyAwareVersion) };
}
