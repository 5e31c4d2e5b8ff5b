// Legacy claim-admission pre-filter, scheduler-model.md §5.6(a) (eligibility.rs):
// why a running legacy loop would skip a (kind, target) today, from fence state only.
import type { TaskKind } from "@/lib/schema/kinds";

/** Fence records of one target, as read at one revision (bare values, null when absent). */
export interface TargetFence {
  /** A live `P/claims/<task-id>` for the task being admitted. */
  taskClaimed: boolean;
  /** `P/target-locks/<hex>`: a claim token or `merge-execution:<execution-id>`. */
  targetLock: string | null;
  /** `P/merge-claims/<hex>` token. */
  mergeClaim: string | null;
  /** `P/merge-executions/<hex>`: the execution fence (`maintenance` absent = worker merge). */
  execution: { id: string; maintenance?: string | null } | null;
  /** `P/catchup-active/<hex>`: the catch-up owner job, `shared` when preparations may coexist. */
  catchupOwner: { job: string; shared?: boolean } | null;
  /** `P/compact-preparations/<hex>` value (leased). */
  preparation: string | null;
  /** `P/compact-commit-ready/<hex>` value (the prepared commit asking for its write turn). */
  commitReady: string | null;
}

export const EMPTY_FENCE: TargetFence = {
  taskClaimed: false,
  targetLock: null,
  mergeClaim: null,
  execution: null,
  catchupOwner: null,
  preparation: null,
  commitReady: null,
};

/** The claim being admitted. */
export interface AdmissionRequest {
  kind: TaskKind;
  target: string;
  /** A preparing (compaction/index preparation) claim rather than a write claim. */
  preparing?: boolean;
  /** The preparation token this claim itself holds, if any. */
  ownPreparation?: string | null;
  /** The catch-up job this claim runs for (a write claim may proceed under its own job). */
  expectedCatchupJob?: string | null;
  /** The poller's kind set; absent = every kind. */
  pollerKinds?: readonly TaskKind[];
  /** Present for a resident-only poller. */
  resident?: { owned: boolean; draining: boolean; targets: readonly string[] };
}

type EligibilityCode =
  | "ok"
  | "kind_not_runnable"
  | "not_resident_eligible"
  | "yield_to_prepared_commit"
  | "ownership_blocked"
  | "worker_execution_needs_merge";

export interface Eligibility {
  code: EligibilityCode;
  message: string;
}

const OK: Eligibility = { code: "ok", message: "eligible: no fence blocks this claim" };

function residentEligible(req: AdmissionRequest): boolean {
  const r = req.resident;
  if (!r) return true;
  const listed = r.targets.includes("*") || r.targets.includes(req.target);
  return req.kind === "merge_wal" && !req.target.startsWith("generic:") && r.owned && !r.draining && listed;
}

function ownershipBlock(req: AdmissionRequest, fence: TargetFence): string | null {
  if (fence.taskClaimed) return "another claim already holds this task";
  if (req.preparing) {
    if (fence.preparation !== null && fence.preparation !== (req.ownPreparation ?? null)) {
      return "another preparation holds this target";
    }
    if (fence.catchupOwner && !fence.catchupOwner.shared)
      return `catch-up job ${fence.catchupOwner.job} owns this target`;
    return null;
  }
  if (fence.catchupOwner && fence.catchupOwner.job !== (req.expectedCatchupJob ?? null)) {
    return `catch-up job ${fence.catchupOwner.job} owns this target`;
  }
  if (fence.mergeClaim !== null) return "a reconciler merge claim is held on this target";
  const expectedLock = fence.execution ? `merge-execution:${fence.execution.id}` : null;
  if (fence.targetLock !== null && fence.targetLock !== expectedLock) {
    return fence.targetLock.startsWith("merge-execution:")
      ? `the write-turn lock belongs to ${fence.targetLock}`
      : "another claim holds the write-turn lock";
  }
  return null;
}

/** §5.6(a) in order: runnable kind, resident eligibility, ownership, worker execution,
 * then the one-turn yield of a MergeWal to a matching prepared commit. */
export function admissionEligibility(req: AdmissionRequest, fence: TargetFence): Eligibility {
  if (req.pollerKinds && !req.pollerKinds.includes(req.kind)) {
    return { code: "kind_not_runnable", message: `this poller does not run ${req.kind} tasks` };
  }
  if (!residentEligible(req)) {
    return {
      code: "not_resident_eligible",
      message: "a resident-only poller runs only merge_wal on owned, non-draining, listed non-generic targets",
    };
  }
  const blocked = ownershipBlock(req, fence);
  if (blocked) return { code: "ownership_blocked", message: `ownership blocked: ${blocked}` };
  if (!req.preparing && req.kind !== "merge_wal" && fence.execution && !fence.execution.maintenance) {
    return {
      code: "worker_execution_needs_merge",
      message: `worker execution ${fence.execution.id} is unresolved; only merge_wal reconciles it`,
    };
  }
  if (
    req.kind === "merge_wal" &&
    !fence.execution &&
    fence.commitReady !== null &&
    fence.commitReady === fence.preparation
  ) {
    return {
      code: "yield_to_prepared_commit",
      message: "merge yields one write turn to the prepared compaction/index commit",
    };
  }
  return OK;
}
