// Table-level reasons a unit cannot take its write turn now (before any executor is
// considered), cheapest first as the runbook checks them (scheduler-model.md §5.6e):
// policy mode and kinds, tails, running work, cooldown, failure ledger, ownership/yield.
import type { EffectivePolicy, PolicyUnitKind } from "@/lib/schema/policy";
import { isCooling } from "../cooldown";
import { admissionEligibility, EMPTY_FENCE, type TargetFence } from "../eligibility";
import { ledgerBlock } from "../failure-ledger";
import { failureAppliesTo, type TargetIndex } from "./context";
import type { PlannerFence } from "./input";
import type { PlanUnit } from "./units";
import { writeTurnEntry, type WriteTurn } from "./write-turn";
import { holderInWords, type WriteTurnHolder } from "./write-turn-holder";
import { formatDurationFromZero, plural, whyNot, type WhyNot } from "./why-not";
import { overdueAt } from "../deadline";
import { formatTime } from "@/lib/schema/format";

const POLICY_KIND: Record<PlanUnit["kind"], PolicyUnitKind> = {
  merge_wal: "MergeWal",
  compact: "Compact",
  index_id: "IndexId",
  repair: "Repair",
  retire: "Retire",
};

export function toTargetFence(fence: PlannerFence | undefined, taskClaimed: boolean): TargetFence {
  if (!fence) return { ...EMPTY_FENCE, taskClaimed };
  const execution = fence.execution ?? null;
  return {
    taskClaimed,
    targetLock: fence.targetLock ?? null,
    mergeClaim: fence.mergeClaim ?? null,
    execution: execution ? { id: execution.id, maintenance: execution.maintenance ?? null } : null,
    catchupOwner: fence.catchupOwner ?? null,
    preparation: fence.preparation ?? null,
    commitReady: fence.commitReady ?? null,
  };
}

export interface BlockerContext {
  target: string;
  policy: EffectivePolicy;
  index: TargetIndex | undefined;
  fence: PlannerFence | undefined;
  /** the unfinished execution holding the write turn (write-turn.ts), null when none */
  writeTurn: WriteTurn | null;
  /** the table's one write-turn holder (./write-turn-holder.ts) */
  holder?: WriteTurnHolder | null;
  now: number;
}

function tailEntry(u: PlanUnit, policy: EffectivePolicy): WhyNot {
  const limit = policy.max_turn_wait_secs[u.kind as keyof EffectivePolicy["max_turn_wait_secs"]];
  const waited = u.wait_ms === null ? "its wait is unknown" : `it has waited ${formatDurationFromZero(u.wait_ms)}`;
  const promotion =
    limit === undefined
      ? "it is never promoted"
      : `it is promoted after waiting ${formatDurationFromZero(limit * 1000)}`;
  return whyNot(
    "tail_below_threshold",
    `${u.kind} is a tail (score ${u.score.toFixed(2)}, below 1): tails are not placed; ${promotion} and ${waited}.`,
    { kind: u.kind, score: u.score, wait_ms: u.wait_ms, max_turn_wait_secs: limit ?? null },
  );
}

function runningEntry(u: PlanUnit, ctx: BlockerContext): WhyNot | null {
  const index = ctx.index;
  const task = index?.running.find((t) => t.kind === u.kind);
  if (task) {
    return whyNot("already_running", `A legacy ${task.kind} task (${task.id}) is already running on this table.`, {
      kind: u.kind,
      task_id: task.id,
    });
  }
  if (u.kind === "merge_wal" && ctx.fence?.activeTaskClaimed) {
    return whyNot("already_running", "The active merge_wal task holds a live claim: it is already running.", {
      kind: u.kind,
    });
  }
  const held = index?.liveAssignments[0];
  // a placement not bound by its bind deadline is not one the master will see through: past it,
  // the entry says so and no longer that it clears by itself (the master must release it)
  const late = held && held.state !== "bound" ? overdueAt(held.bind_deadline_ms, ctx.now) : null;
  // the holder in the words every surface gives it (./write-turn-holder.ts), deadline included
  const holder = ctx.holder?.type === "assignment" ? ctx.holder : null;
  const words = !held
    ? ""
    : holder
      ? holderInWords(holder, ctx.now)
      : `Write turn held by assignment ${held.unit_id} (${held.kind}) on ${held.executor} (${held.state})` +
        (late
          ? `; bind deadline ${formatTime(late.deadline_ms)} passed: overdue by ${formatDurationFromZero(late.overdue_ms)}`
          : "");
  if (held && late) {
    return {
      ...whyNot("already_running", `${words}: until the master releases it, nothing else is placed here.`, {
        kind: u.kind,
        unit_id: held.unit_id,
        executor: held.executor,
        state: held.state,
        bind_deadline_ms: held.bind_deadline_ms,
        overdue_ms: late.overdue_ms,
      }),
      retryable: false,
      overdue: late,
    };
  }
  if (held) {
    return whyNot("already_running", `Already running or about to. ${words}. A new ${u.kind} waits until it ends.`, {
      kind: u.kind,
      unit_id: held.unit_id,
      executor: held.executor,
      state: held.state,
      orphaned: holder?.orphaned ?? false,
      bind_deadline_ms: held.bind_deadline_ms,
    });
  }
  return null;
}

function cooldownEntry(u: PlanUnit, ctx: BlockerContext): WhyNot | null {
  const c = ctx.index?.cooldowns.find((r) => r.kind === u.kind && isCooling(r, ctx.now));
  if (!c) return null;
  const left = (c.until_ms as number) - ctx.now;
  return whyNot(
    "cooldown",
    `${u.kind} is cooling down after ${plural(c.failures, "failure")}: ${formatDurationFromZero(left)} left.`,
    { kind: u.kind, failures: c.failures, until_ms: c.until_ms, remaining_ms: left, last_error: c.last_error },
  );
}

function ledgerEntry(u: PlanUnit, ctx: BlockerContext): WhyNot | null {
  let worst: { code: "needs_attention" | "failure_backoff"; rec: NonNullable<TargetIndex["failures"]>[number] } | null =
    null;
  for (const rec of ctx.index?.failures ?? []) {
    if (!failureAppliesTo(rec.endpoint, u.kind)) continue;
    const code = ledgerBlock(rec, ctx.now);
    if (code === null) continue;
    const better =
      worst === null ||
      (code === "needs_attention" && worst.code !== "needs_attention") ||
      (code === worst.code && rec.next_retry_ms > worst.rec.next_retry_ms);
    if (better) worst = { code, rec };
  }
  if (!worst) return null;
  const { code, rec } = worst;
  const left = rec.next_retry_ms - ctx.now;
  const base = `${u.kind} failed ${plural(rec.consecutive_attempts, "time")} in a row on ${rec.endpoint} (${rec.class})`;
  const message =
    code === "needs_attention"
      ? `${base} and needs attention; next retry in ${formatDurationFromZero(left)}. Last error: ${rec.last_error.slice(0, 200)}`
      : `${base}; backing off, next retry in ${formatDurationFromZero(left)}.`;
  return whyNot(code, message, {
    kind: u.kind,
    endpoint: rec.endpoint,
    class: rec.class,
    consecutive_attempts: rec.consecutive_attempts,
    next_retry_ms: rec.next_retry_ms,
    remaining_ms: left,
  });
}

function fenceEntry(u: PlanUnit, ctx: BlockerContext): WhyNot | null {
  if (u.kind === "retire" || ctx.fence === undefined) return null; // no fence records: nothing blocks
  const e = admissionEligibility({ kind: u.kind, target: ctx.target }, toTargetFence(ctx.fence, false));
  if (e.code === "ok") return null;
  const code = e.code === "yield_to_prepared_commit" ? "yield_to_prepared_commit" : "ownership_blocked";
  return whyNot(code, e.message, { kind: u.kind, eligibility: e.code });
}

/** Every table-level reason `u` cannot be offered now, most decisive first. */
export function unitBlockers(u: PlanUnit, ctx: BlockerContext): WhyNot[] {
  const { policy } = ctx;
  if (policy.mode === "frozen") {
    return [
      whyNot("policy_frozen", "This table's policy mode is frozen: nothing new is placed until an admin changes it.", {
        mode: policy.mode,
      }),
    ];
  }
  if (policy.mode === "drain") {
    return [
      whyNot("policy_draining", "This table's policy mode is drain: running work may finish, nothing new is placed.", {
        mode: policy.mode,
      }),
    ];
  }
  if (!policy.kinds_allowed.includes(POLICY_KIND[u.kind])) {
    return [
      whyNot(
        "kind_not_allowed",
        `${POLICY_KIND[u.kind]} is not in this table's policy kinds_allowed (${policy.kinds_allowed.join(", ")}).`,
        {
          kind: u.kind,
          kinds_allowed: policy.kinds_allowed,
        },
      ),
    ];
  }
  if (u.class_rank === 5) return [tailEntry(u, policy)];
  // every remaining check reads the target's index entry or fence records: none, no blocker
  if (ctx.index === undefined && ctx.fence === undefined) return NONE;
  let out: WhyNot[] = NONE;
  for (const check of CHECKS) {
    const entry = check(u, ctx);
    if (entry) out = out === NONE ? [entry] : [...out, entry];
  }
  return out;
}

const writeTurnCheck = (u: PlanUnit, ctx: BlockerContext) => writeTurnEntry(u, ctx.writeTurn, ctx.now);
// the write turn first: while an execution holds it, nothing else decides
const CHECKS = [writeTurnCheck, runningEntry, cooldownEntry, ledgerEntry, fenceEntry];
/** Shared empty result (the common case for 13k tables; never mutated). */
const NONE: WhyNot[] = [];
