import "server-only";
// POST /api/v1/policies/{target}/preview and the X-Preview-Digest check of PUT / DELETE
// (console-api.md Additions "Policy edits an admin can trust"): the pure previewPolicy of
// lib/planner on the live fleet, once that fleet includes every stored policy the preview
// compares against, plus the digest of its effect and range warnings.
import { createHash } from "node:crypto";
import { etcdClient, etcdPrefix } from "@/lib/etcd/client";
import { readPolicyWithDefault } from "./store";
import { fleetView, liveCache, type FleetView } from "@/lib/live/cache";
import { plannerFleet } from "@/lib/snapshot/planner-input";
import { decisionSets, previewEffect, previewPolicy, type DecisionSets } from "@/lib/planner/plan";
import { effectivePolicy, policyWarnings } from "@/lib/planner/policy";
import { BUILTIN_POLICY, DEFAULT_POLICY_TARGET, type PolicyDocument } from "@/lib/schema/policy";
import type { PreviewResponse } from "@/lib/schema/api/policies";
import { usableDoc } from "./view";
import { processWide } from "@/lib/schema/process-wide";
import { BoundedMap } from "@/lib/schema/bounded-map";

/** How long a preview waits for the watch-fed live view to reach the policies it read. */
const CATCH_UP_MS = 2000;

/**
 * The live view at `revision` or later: the watch delivers a write within milliseconds, so
 * this usually returns at once (woken by the watch batch, lib/live/cache.ts awaitRevision);
 * a view that does not catch up in time is read pinned.
 */
export async function viewAtLeast(revision: number): Promise<FleetView> {
  const view = await fleetView();
  if (view.revision >= revision) return view;
  if (!(await liveCache().awaitRevision(revision, CATCH_UP_MS))) return fleetView(revision);
  const caught = await fleetView();
  return caught.revision >= revision ? caught : fleetView(revision);
}

export const digestOf = (effect: string) => createHash("sha256").update(effect, "utf8").digest("hex");

/** What a preview decided, kept by its digest so a later write can say what changed since. */
export interface ReviewedEffect {
  sets: DecisionSets;
  /** the etcd revision the preview was evaluated on */
  revision: number;
  /** the moment it was evaluated at: a write re-evaluates at this moment, so the clock alone never makes it stale */
  nowMs: number;
}

/** A reviewed effect with the fleet it was evaluated on (kept for the most recent reviews only). */
export interface ReviewedFleet extends ReviewedEffect {
  view: FleetView | null;
}

const REVIEWS_KEPT = 512;
/** the fleets of the most recent reviews (a view shares most of its memory with the live one) */
const FLEETS_KEPT = 8;
const reviews = () =>
  processWide(
    "scheduler-console.policy-reviews",
    () => new BoundedMap<string, ReviewedEffect>({ evict: "least-recently-set", maxEntries: REVIEWS_KEPT }),
  );
const reviewedViews = () =>
  processWide(
    "scheduler-console.policy-reviewed-views",
    () => new BoundedMap<string, FleetView>({ evict: "least-recently-set", maxEntries: FLEETS_KEPT }),
  );

/**
 * The effect behind a digest this process answered, with its fleet while that is still kept
 * (null: another replica, or a restart, answered it).
 */
export function reviewedEffect(digest: string): ReviewedFleet | null {
  const effect = reviews().get(digest);
  return effect ? { ...effect, view: reviewedViews().get(digest) ?? null } : null;
}

/** The latest preview with a digest is kept (it is the one most likely being confirmed), oldest dropped first. */
function remember(digest: string, effect: ReviewedEffect, view: FleetView): void {
  reviews().set(digest, effect);
  reviewedViews().set(digest, view);
}

/** The decision sets of storing `doc` for `target` on `view` at `nowMs` (no digest kept). */
export function decisionSetsOn(
  view: FleetView,
  target: string,
  doc: PolicyDocument | null,
  nowMs: number,
): DecisionSets {
  return decisionSets(previewPolicy(plannerFleet(view), target, doc, nowMs));
}

/** A preview with the view it was evaluated on (the write's staleness check reads both). */
export interface EvaluatedPreview {
  preview: PreviewResponse;
  sets: DecisionSets;
  view: FleetView;
}

/**
 * The preview of storing `doc` for `target` (null = deleting the override), evaluated at
 * `nowMs` on a fleet that already holds what is stored now.
 */
export async function previewFor(target: string, doc: PolicyDocument | null, nowMs: number): Promise<PreviewResponse> {
  return (await evaluatePreview(target, doc, nowMs)).preview;
}

/** previewFor, with its decision sets and view; remembers the effect under its digest. */
export async function evaluatePreview(
  target: string,
  doc: PolicyDocument | null,
  nowMs: number,
): Promise<EvaluatedPreview> {
  const stored = await readPolicyWithDefault(etcdClient(), etcdPrefix(), target);
  const view = await viewAtLeast(stored.revision);
  // the same planner input as the pages (their write-turn verdicts use the view's progress memory)
  const preview = previewPolicy(plannerFleet(view), target, doc, nowMs);
  const isDefault = target === DEFAULT_POLICY_TARGET;
  const proposed = doc ?? {};
  const effective = isDefault
    ? effectivePolicy(BUILTIN_POLICY, proposed, null)
    : effectivePolicy(BUILTIN_POLICY, usableDoc(stored.defaultPolicy).doc, proposed);
  const sets = decisionSets(preview);
  const digest = digestOf(previewEffect(preview));
  remember(digest, { sets, revision: view.revision, nowMs }, view);
  return {
    sets,
    view,
    preview: {
      revision: view.revision,
      read_at_ms: view.readAtMs,
      now_ms: nowMs,
      target,
      changed: preview.changed,
      unchanged_count: preview.unchanged_count,
      summary: preview.summary,
      digest,
      modes: preview.modes,
      warnings: policyWarnings(effective.effective, proposed),
    },
  };
}
