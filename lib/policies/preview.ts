import "server-only";
// POST /api/v1/policies/{target}/preview and the X-Preview-Digest check of PUT / DELETE
// (console-api.md Additions "Policy edits an admin can trust"): the pure previewPolicy of
// lib/planner on the live fleet, once that fleet includes every stored policy the preview
// compares against, plus the digest of its effect and moment (./preview-digest.ts) and range
// warnings. A save re-plans the reviewed fleet from etcd at the digest's revision and moment
// (`reviewedEffect`): the same on any replica (console-api.md fourth version).
import { etcdClient, etcdPrefix } from "@/lib/etcd/client";
import { readPolicyWithDefault } from "./store";
import { fleetView, liveCache, type FleetView } from "@/lib/live/cache";
import { fleetView as pinnedFleetView } from "@/lib/live/fleet-view";
import { plannerFleet } from "@/lib/snapshot/planner-input";
import {
  decisionSets,
  previewEffect,
  previewPolicyInSteps,
  type DecisionSets,
  type PolicyPreview,
} from "@/lib/planner/plan";
import { inSlices } from "@/lib/live/plan-entry";
import { effectivePolicy, policyWarnings } from "@/lib/planner/policy";
import { BUILTIN_POLICY, DEFAULT_POLICY_TARGET, type PolicyDocument } from "@/lib/schema/policy";
import type { PreviewResponse } from "@/lib/schema/api/policies";
import { usableDoc } from "./view";
import { effectHash, encodeDigest, type PreviewDigest } from "./preview-digest";
import { revisionClock } from "@/lib/live/revision-clock";
import { BoundedMap } from "@/lib/util/bounded-map";

/**
 * The preview of storing `doc` for `target` on `view` at `nowMs`: two plans of the whole
 * fleet, made in slices with the event loop's turn between them (as the clock's plan is,
 * lib/live/plan-entry.ts), so the other requests and the streams are answered meanwhile
 * instead of waiting behind an admin's preview.
 */
async function previewOn(
  view: FleetView,
  target: string,
  doc: PolicyDocument | null,
  nowMs: number,
): Promise<PolicyPreview> {
  return (await inSlices(previewPolicyInSteps(plannerFleet(view), target, doc, nowMs))).value;
}

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

/** The reviewed effect a digest names, re-planned on the fleet it was evaluated on. */
export interface ReviewedFleet {
  sets: DecisionSets;
  /** the etcd revision the preview was evaluated on */
  revision: number;
  /** the moment it was evaluated at: a write re-evaluates at this moment, so the clock alone never makes it stale */
  nowMs: number;
  /** the fleet at `revision` */
  view: FleetView;
}

/** the most recent reviews kept (a view shares most of its memory with the live one): a speed-up only */
const REVIEWS_KEPT = 8;
const REVIEWS = new BoundedMap<string, ReviewedFleet>({ evict: "least-recently-set", maxEntries: REVIEWS_KEPT });
/** One review: the digest, and the document it previews for the target. */
const reviewKey = (digest: string, target: string, doc: PolicyDocument | null) =>
  `${digest}\u0000${target}\u0000${JSON.stringify(doc)}`;

/**
 * The effect behind `digest` when it is a preview of storing `doc` for `target`: the fleet
 * at the reviewed revision read from etcd (pinned), planned at the reviewed moment, on any
 * replica and after any restart; kept briefly by the replica that made or re-planned it
 * (the same answer, sooner). Null when the digest is not of this document (its effect on
 * that fleet differs). RevisionCompacted when etcd no longer holds the reviewed revision.
 */
export async function reviewedEffect(
  digest: PreviewDigest,
  encoded: string,
  target: string,
  doc: PolicyDocument | null,
): Promise<ReviewedFleet | null> {
  // compaction first: a kept review answers only while any replica could re-plan it
  await revisionClock().timeOf(digest.revision);
  const key = reviewKey(encoded, target, doc);
  const kept = REVIEWS.get(key);
  if (kept) return kept;
  const view = await pinnedFleetView(digest.revision);
  const preview = await previewOn(view, target, doc, digest.nowMs);
  if (effectHash(previewEffect(preview)) !== digest.effect) return null;
  const reviewed = { sets: decisionSets(preview), revision: digest.revision, nowMs: digest.nowMs, view };
  REVIEWS.set(key, reviewed);
  return reviewed;
}

/** The decision sets of storing `doc` for `target` on `view` at `nowMs` (no digest kept). */
export async function decisionSetsOn(
  view: FleetView,
  target: string,
  doc: PolicyDocument | null,
  nowMs: number,
): Promise<DecisionSets> {
  return decisionSets(await previewOn(view, target, doc, nowMs));
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
  const preview = await previewOn(view, target, doc, nowMs);
  const isDefault = target === DEFAULT_POLICY_TARGET;
  const proposed = doc ?? {};
  const effective = isDefault
    ? effectivePolicy(BUILTIN_POLICY, proposed, null)
    : effectivePolicy(BUILTIN_POLICY, usableDoc(stored.defaultPolicy).doc, proposed);
  const sets = decisionSets(preview);
  const digest = encodeDigest({ revision: view.revision, nowMs, effect: effectHash(previewEffect(preview)) });
  REVIEWS.set(reviewKey(digest, target, doc), { sets, revision: view.revision, nowMs, view });
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
