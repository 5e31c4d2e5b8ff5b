import "server-only";
// POST /api/v1/policies/{target}/preview and the X-Preview-Digest check of PUT / DELETE
// (console-api.md Additions "Policy edits an admin can trust"): the pure previewPolicy of
// lib/planner on the live fleet, once that fleet includes every stored policy the preview
// compares against, plus the digest of its effect and range warnings.
import { createHash } from "node:crypto";
import { etcdClient, etcdPrefix } from "@/lib/etcd/client";
import { readPolicyWithDefault } from "@/lib/etcd/policy-store";
import { fleetView, type FleetView } from "@/lib/live/cache";
import { plannerFleet } from "@/lib/live/planner-input";
import { previewEffect, previewPolicy } from "@/lib/planner/plan";
import { effectivePolicy, policyWarnings } from "@/lib/planner/policy";
import { BUILTIN_POLICY, DEFAULT_POLICY_TARGET, type PolicyDocument } from "@/lib/schema/policy";
import type { PreviewResponse } from "@/lib/schema/api/policies";
import { usableDoc } from "./policy-view";

/** How long a preview waits for the watch-fed live view to reach the policies it read. */
const CATCH_UP_MS = 2000;
const CATCH_UP_POLL_MS = 25;

/**
 * The live view at `revision` or later: the watch delivers a write within milliseconds, so
 * this usually returns at once; a view that does not catch up in time is read pinned.
 */
export async function viewAtLeast(revision: number): Promise<FleetView> {
  const deadline = Date.now() + CATCH_UP_MS;
  for (;;) {
    const view = await fleetView();
    if (view.revision >= revision) return view;
    if (Date.now() >= deadline) return fleetView(revision);
    await new Promise((r) => setTimeout(r, CATCH_UP_POLL_MS));
  }
}

export const digestOf = (effect: string) => createHash("sha256").update(effect, "utf8").digest("hex");

/**
 * The preview of storing `doc` for `target` (null = deleting the override), evaluated at
 * `nowMs` on a fleet that already holds what is stored now.
 */
export async function previewFor(target: string, doc: PolicyDocument | null, nowMs: number): Promise<PreviewResponse> {
  const stored = await readPolicyWithDefault(etcdClient(), etcdPrefix(), target);
  const view = await viewAtLeast(stored.revision);
  // the same planner input as the pages (their write-turn verdicts use the sequence clocks)
  const preview = previewPolicy(plannerFleet(view.snapshot, view.tables, view.sequenceClocks), target, doc, nowMs);
  const isDefault = target === DEFAULT_POLICY_TARGET;
  const proposed = doc ?? {};
  const effective = isDefault ? effectivePolicy(BUILTIN_POLICY, proposed, null) : effectivePolicy(BUILTIN_POLICY, usableDoc(stored.defaultPolicy).doc, proposed);
  return {
    revision: view.revision,
    read_at_ms: view.readAtMs,
    now_ms: nowMs,
    target,
    changed: preview.changed,
    unchanged_count: preview.unchanged_count,
    summary: preview.summary,
    digest: digestOf(previewEffect(preview)),
    modes: preview.modes,
    warnings: policyWarnings(effective.effective, proposed),
  };
}
