// Executor filtering for one unit (scheduler-model.md §5.2, §5.5 [DESIGN]): the reasons an
// executor does not fit, counted per reason like the Kubernetes scheduler
// ("0/6 executors fit: 3 no free merge_wal slot, 2 draining, 1 needs 2.0 GiB, has 1.2 GiB").
import type { ExecutorKind } from "@/lib/schema/executors";
import type { TaskKind } from "@/lib/schema/kinds";
import type { EffectivePolicy, PolicyExecutorKind } from "@/lib/schema/policy";
import { bytesFree, headroomRejection, type HeadroomRow } from "../headroom";
import { formatBytes, whyNot, type WhyNot, type WhyNotCode } from "./why-not";

/** Heartbeat kinds → policy `executors_allowed` values (legacy RPC workers are workers). */
const POLICY_EXECUTOR_KIND: Record<ExecutorKind, PolicyExecutorKind> = {
  resident_master: "resident",
  worker: "worker",
  legacy_rpc: "worker",
  catchup_job: "catchup_job",
};

/** Filter stages in order; a row's reason is the first stage it fails. */
export type Stage =
  "orphan" | "draining" | "executor_not_allowed" | "no_free_slot" | "rate_limited" | "insufficient_bytes";
const STAGE_RANK: Record<Stage, number> = {
  orphan: 0,
  draining: 0,
  executor_not_allowed: 1,
  no_free_slot: 2,
  rate_limited: 3,
  insufficient_bytes: 4,
};

export interface ExecutorCheck {
  kind: TaskKind;
  bytes: number;
  policy: EffectivePolicy;
  /** placements per executor in the last minute, this cycle's included */
  recent: ReadonlyMap<string, number>;
  ratePerMin: number | null;
}

/**
 * The one feasibility question of the design planner, asked by placement and by its
 * explanation alike: null when `row` can take the unit, else the first stage it fails.
 * The §5.2 `fits` stages come from `headroomRejection`; policy and rate stages sit between.
 */
export function rowRejection(row: HeadroomRow, check: ExecutorCheck): Stage | null {
  const headroom = headroomRejection(row, check.kind, check.bytes);
  if (headroom === "orphan" || headroom === "draining") return headroom;
  if (!check.policy.executors_allowed.includes(POLICY_EXECUTOR_KIND[row.kind])) return "executor_not_allowed";
  if (headroom === "no_free_slot") return headroom;
  if (check.ratePerMin !== null && (check.recent.get(row.executor) ?? 0) >= check.ratePerMin) return "rate_limited";
  return headroom;
}

/** `rowRejection` as the placement predicate. */
export function acceptsFor(check: ExecutorCheck): (row: HeadroomRow) => boolean {
  return (row) => rowRejection(row, check) === null;
}

/** Why no row fits `check`, as one why-not entry with per-reason counts in `detail`. */
export function noFitEntry(rows: readonly HeadroomRow[], check: ExecutorCheck): WhyNot {
  if (rows.length === 0) {
    return whyNot("no_executors", "0/0 executors fit: no executor has a live heartbeat.", {
      considered: 0,
      counts: {},
    });
  }
  const counts: Record<Stage, number> = {
    orphan: 0,
    draining: 0,
    executor_not_allowed: 0,
    no_free_slot: 0,
    rate_limited: 0,
    insufficient_bytes: 0,
  };
  let furthest: Stage = "orphan";
  let bestHas = -1;
  for (const row of rows) {
    // called only when no row is accepted: every row has a stage
    const stage = rowRejection(row, check) ?? "insufficient_bytes";
    counts[stage]++;
    if (STAGE_RANK[stage] > STAGE_RANK[furthest]) furthest = stage;
    if (stage === "insufficient_bytes") bestHas = Math.max(bestHas, bytesFree(row));
  }
  const parts: string[] = [];
  const n = (k: Stage) => counts[k];
  if (n("no_free_slot")) parts.push(`${n("no_free_slot")} no free ${check.kind} slot`);
  if (n("draining")) parts.push(`${n("draining")} draining`);
  if (n("orphan")) parts.push(`${n("orphan")} without a live heartbeat`);
  if (n("executor_not_allowed")) parts.push(`${n("executor_not_allowed")} executor kind not in executors_allowed`);
  if (n("rate_limited")) parts.push(`${n("rate_limited")} rate limited at ${check.ratePerMin} placements per minute`);
  if (n("insufficient_bytes")) {
    const need = n("insufficient_bytes") === 1 ? "needs" : "need";
    const has = n("insufficient_bytes") === 1 ? "has" : "best has";
    parts.push(
      `${n("insufficient_bytes")} with too few bytes free (${need} ${formatBytes(check.bytes)}, ${has} ${formatBytes(bestHas)})`,
    );
  }
  // The code names the furthest stage any executor reached: the closest to fitting. Its
  // words (lib/words/codes.ts) are the message's own: lib/words/codes-agree.test.ts checks.
  const code: WhyNotCode = furthest === "orphan" || furthest === "draining" ? "all_draining" : furthest;
  const lead =
    code === "all_draining" ? `0/${rows.length} executors fit, none accepting work` : `0/${rows.length} executors fit`;
  return whyNot(code, `${lead}: ${parts.join(", ")}.`, {
    considered: rows.length,
    counts: Object.fromEntries(Object.entries(counts).filter(([, v]) => v > 0)),
    kind: check.kind,
    needed_bytes: check.bytes,
    best_free_bytes: bestHas >= 0 ? bestHas : null,
    // the design planner's headroom leaves the master's shadow rows out (§6.2 step 3)
    headroom: "excluding_shadow",
  });
}
