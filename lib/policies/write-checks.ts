import "server-only";
// The checks a policy write passes before anything is written (console-api.md "PUT
// /api/v1/policies/{target}", Additions "Policy edits an admin can trust" and "Policy
// edits on a live fleet"): ONE ordered list, run first to last; the first to refuse answers
// and nothing is written. A new gate (e.g. the takeover gate of the third version) is one
// more entry in POLICY_WRITE_CHECKS at its place in the order.
import type { AllowingRule, Principal } from "@/lib/auth";
import type { StoredPolicy } from "./store";
import { changesExcept, decisionChanges, noDecisionChange } from "@/lib/planner/plan";
import { sameSettings } from "@/lib/planner/policy";
import { previewDigestSchema } from "@/lib/schema/api/policies";
import type { PolicyDocument } from "@/lib/schema/policy";
import type { FleetSnapshot } from "@/lib/snapshot/types";
import { ApiError } from "@/lib/schema/api/errors";
import { globCovers } from "@/lib/schema/target-glob";
import { decisionSetsOn, evaluatePreview, reviewedEffect } from "./preview";
import { decodeDigest } from "./preview-digest";
import { reviewedTablesWithNowElse } from "./own-motion";
import { RevisionCompacted } from "@/lib/etcd/errors";
import type { DecisionSets } from "@/lib/planner/plan";

/** Everything a check may look at; checks read, never write. */
export interface PolicyWriteContext {
  target: string;
  action: "put" | "delete";
  /** the validated document to store (null for a DELETE) */
  doc: PolicyDocument | null;
  /** what is stored now (modRevision 0: nothing) */
  stored: StoredPolicy;
  ifMatch: number;
  principal: Principal;
  /** the rule that allows the save (lib/http's wrapper found it for this target) */
  rule: AllowingRule;
  /** the request's headers (X-Preview-Digest, and any header a later gate reads) */
  headers: Headers;
}

export interface PolicyWriteCheck {
  name: string;
  check: (ctx: PolicyWriteContext) => Promise<void> | void;
}

export function conflict(target: string, current: StoredPolicy): ApiError {
  return new ApiError(
    412,
    "precondition_failed",
    `The policy of ${target} changed since you read it (now mod_revision ${current.modRevision}).`,
    { stored: current.modRevision === 0 ? null : current.doc, mod_revision: current.modRevision },
    { etag: String(current.modRevision) },
  );
}

/**
 * 403 forbidden: the allowing rule must cover this very target (console-api.md "Single
 * sign-on and team rights"; the wrapper checked the path, this holds for any caller).
 */
const targetRights: PolicyWriteCheck = {
  name: "target_rights",
  check: ({ target, rule, principal }) => {
    if (!globCovers(rule.glob, target))
      throw new ApiError(403, "forbidden", `${principal.actor} may not change the policy of ${target} (${rule.glob}).`);
  },
};

/** 412: the editor read another version than the one stored now. */
const ifMatch: PolicyWriteCheck = {
  name: "if_match",
  check: ({ target, stored, ifMatch: expected }) => {
    if (stored.modRevision !== expected) throw conflict(target, stored);
  },
};

/** 404: a DELETE of an override that does not exist. */
const somethingToDelete: PolicyWriteCheck = {
  name: "something_to_delete",
  check: ({ target, action, stored }) => {
    if (action === "delete" && stored.modRevision === 0) {
      throw new ApiError(
        404,
        "not_found",
        `${target} has no policy override to delete.`,
        { stored: null, mod_revision: 0 },
        { etag: "0" },
      );
    }
  },
};

/** 422 no_change: the document says what is stored already (console-api.md third version). */
const noChange: PolicyWriteCheck = {
  name: "no_change",
  check: ({ target, action, doc, stored }) => {
    if (action !== "put" || stored.badJson !== undefined) return;
    if (sameSettings(stored.modRevision === 0 ? null : stored.doc, doc)) {
      throw new ApiError(
        422,
        "no_change",
        `Nothing to save: the document equals the stored policy of ${target} (mod_revision ${stored.modRevision}).`,
        { mod_revision: stored.modRevision },
      );
    }
  },
};

/** Targets with a record of their own written after `revision` (their writer, merger or executor moved them). */
function movedSince(snapshot: FleetSnapshot, revision: number): Set<string> {
  const moved = new Set<string>();
  const lists = [
    snapshot.demandEvents,
    snapshot.demandTables,
    snapshot.assignments,
    snapshot.mergeFailures,
    snapshot.mergeExecutions,
    snapshot.targetLocks,
    snapshot.mergeClaims,
    snapshot.cooldowns,
    snapshot.catchupActive,
    snapshot.compactPreparations,
    snapshot.compactCommitReady,
  ];
  for (const list of lists) for (const e of list) if (e.modRevision > revision) moved.add(e.target);
  return moved;
}

const sameSets = (a: DecisionSets, b: DecisionSets) => noDecisionChange(decisionChanges(a, b));

/**
 * 409 preview_stale (console-api.md third version: stale means material). The effect of
 * saving now is evaluated at the moment the admin's preview was (so the clock alone never
 * refuses) and compared with the reviewed decision sets, re-planned from etcd at the
 * digest's revision and moment (./preview.ts `reviewedEffect`: the same on any replica,
 * console-api.md fourth version). A difference is material unless it comes from the
 * tables' own records:
 * - it is only on tables whose own records moved since the review (their writer or merger
 *   moved them, and the reviewed rule applies to them as reviewed); or
 * - the edited table's own decisions are as reviewed, and the reviewed fleet, with the
 *   executors, policies and leader of now, decides exactly what was reviewed (./own-motion.ts):
 *   then what differs on other tables followed from moved tables through the placement rule
 *   (a freed or taken executor), not from anything reviewed.
 * The refusal names the changes on tables that did not move, beside the fresh preview to
 * confirm; `changed: null` when the reviewed effect cannot be re-planned (its revision is
 * compacted, or the digest is not a preview of this document).
 */
const previewStale: PolicyWriteCheck = {
  name: "preview_digest",
  check: async ({ target, doc, headers }) => {
    const raw = headers.get("x-preview-digest");
    if (raw === null) return;
    const parsed = previewDigestSchema.safeParse(raw.trim());
    const digest = parsed.success ? decodeDigest(parsed.data) : null;
    if (!parsed.success || digest === null) {
      const message = parsed.success
        ? "X-Preview-Digest must be the digest a preview returned"
        : (parsed.error.issues[0]?.message ?? "invalid digest");
      throw new ApiError(422, "invalid_policy", `digest: ${message}`, { issues: [{ path: "digest", message }] });
    }
    const fresh = await evaluatePreview(target, doc, digest.nowMs);
    if (decodeDigest(fresh.preview.digest)?.effect === digest.effect) return;
    const reviewed = await reviewedEffect(digest, parsed.data, target, doc).catch((e: unknown) => {
      if (e instanceof RevisionCompacted) return null; // nothing left to re-plan: review afresh
      throw e;
    });
    let changed = null;
    if (reviewed) {
      const moved = movedSince(fresh.view.snapshot, reviewed.revision);
      changed = changesExcept(decisionChanges(reviewed.sets, fresh.sets), (t) => moved.has(t));
      if (noDecisionChange(changed)) return;
      // what the edited table itself would now get is always material: the admin reviewed the edit for it
      const onTheEditedTable = !noDecisionChange(changesExcept(changed, (t) => t !== target));
      if (
        !onTheEditedTable &&
        sameSets(
          reviewed.sets,
          await decisionSetsOn(reviewedTablesWithNowElse(reviewed.view, fresh.view), target, doc, reviewed.nowMs),
        )
      )
        return;
    }
    throw new ApiError(
      409,
      "preview_stale",
      "The fleet moved since your preview: saving now would change it differently. Review what changed and confirm the fresh preview.",
      { preview: fresh.preview, changed, reviewed_revision: digest.revision },
    );
  },
};

/** The order matters: rights first (403), version (412), then what the write is, then what it does. */
export const POLICY_WRITE_CHECKS: readonly PolicyWriteCheck[] = [
  targetRights,
  ifMatch,
  somethingToDelete,
  noChange,
  previewStale,
];

export async function runWriteChecks(
  ctx: PolicyWriteContext,
  checks: readonly PolicyWriteCheck[] = POLICY_WRITE_CHECKS,
): Promise<void> {
  for (const { check } of checks) await check(ctx);
}
