import "server-only";
// GET /api/v1/scheduler/demand?target=T: everything the list row says plus shards, score
// breakdown, units, why-not, the legacy view (tasks, cooldowns, failures, lock, execution,
// eligibility, §7.1 merge progress), the master's cache agreement and the effective policy.
import { sameTableDemand } from "@/lib/planner/cache";
import { deriveShard } from "@/lib/planner/derived";
import { compareTargets } from "@/lib/planner/order";
import { IDLE_TIMEOUT_SECS, mergeProgress } from "@/lib/planner/progress";
import type { DemandDetail, DemandQuery, TableDetail } from "@/lib/schema/api/demand";
import { fleetView, type FleetView } from "./fleet";
import { eventsOfTarget } from "@/lib/snapshot/demand-index";
import { tableSummary } from "./demand";
import { notFound } from "./errors";
import { cooldownRows, failureRows } from "./failures";
import { snapshotMeta } from "./meta";
import { planFor } from "./plan";

function shardsOf(view: FleetView, target: string): TableDetail["shards"] {
  const table = view.tables.get(target);
  if (!table) return [];
  const events = new Map(eventsOfTarget(view.snapshot, target).map((e) => [e.shard, e]));
  return Object.keys(table.shards)
    .sort(compareTargets)
    .map((shard) => {
      const s = table.shards[shard];
      const d = deriveShard(s);
      const ev = events.get(shard);
      return {
        shard,
        sealed: s.sealed,
        merged: s.merged,
        sealed_bytes: s.sealed_bytes,
        pending: d.pending,
        oldest_pending_ms: d.oldest_pending_ms,
        age_bound: d.bound,
        sealed_times_kept: s.sealed_times.size,
        source: ev?.event.source ?? null,
        flushed_at_ms: ev?.event.flushed_at_ms ?? null,
        mod_revision: ev?.modRevision ?? null,
      };
    });
}

function legacyOf(view: FleetView, target: string, now: number, eligibility: { code: string; message: string }): TableDetail["legacy"] {
  const { snapshot } = view;
  const queued = snapshot.queue.filter((t) => t.task.target === target);
  const running = snapshot.running.filter((t) => t.task.target === target);
  const lock = snapshot.targetLocks.find((l) => l.target === target) ?? null;
  const execution = snapshot.mergeExecutions.find((e) => e.target === target) ?? null;
  const execId = execution?.execution.id ?? null;
  const progress = execId === null ? null : (snapshot.mergeProgress.find((p) => p.executionId === execId) ?? null);
  const work = execId === null ? null : (snapshot.mergeWork.find((w) => w.executionId === execId) ?? null);
  const activeMerge = [...running, ...queued].find((t) => t.task.kind === "merge_wal") ?? null;
  const clock = execId === null ? undefined : view.sequenceClocks.get(execId);
  const sequence = progress?.progress.sequence ?? null;
  // the clock is this replica's observation; it only counts for the same sequence
  const changedAt = clock && clock.sequence === sequence ? clock.changed_at_ms : null;
  const idleSecs = execution?.execution.idle_timeout_secs || IDLE_TIMEOUT_SECS;
  const p = mergeProgress({
    activeTaskId: activeMerge?.taskId ?? null,
    executionId: execId,
    sequence,
    workReport: work?.report ?? null,
    sequenceChangedAtMs: changedAt,
    now,
    idleTimeoutSecs: idleSecs,
  });
  return {
    queued: queued.length > 0,
    running: running.length > 0,
    task_ids: [...running, ...queued].map((t) => t.taskId),
    cooldowns: cooldownRows(view, now, target),
    failures: failureRows(view, now, target),
    target_lock: lock && {
      value: lock.value,
      holder: lock.value.startsWith("merge-execution:") ? "execution" : "claim",
      leased: lock.lease !== "0",
      mod_revision: lock.modRevision,
    },
    execution: execution && { ...execution.execution, mod_revision: execution.modRevision },
    eligibility,
    progress: {
      status: p.status,
      task_id: p.task_id,
      execution_id: execId,
      sequence: p.sequence,
      work_report: p.work_report,
      sequence_mod_revision: progress?.modRevision ?? null,
      unchanged_since_ms: changedAt,
      unchanged_for_ms: p.unchanged_for_ms,
      idle_timeout_ms: idleSecs * 1000,
      stalled: p.stalled,
    },
  };
}

export async function demandDetail(q: DemandQuery & { target: string }): Promise<DemandDetail> {
  const { view, now, plan, evaluation } = await planFor(await fleetView(q.revision), q);
  const t = plan.byTarget.get(q.target);
  if (!t) throw notFound(`table ${JSON.stringify(q.target)} has neither demand events nor a cache row at revision ${view.revision}`);
  const cacheRow = view.snapshot.demandTables.find((d) => d.target === q.target) ?? null;
  const folded = view.tables.get(q.target);
  const leader = view.snapshot.leader?.record ?? null;
  return {
    ...snapshotMeta(view, evaluation),
    now_ms: now,
    leader: leader ? { token: leader.token, instance: leader.instance, since_ms: leader.since_ms } : null,
    table: {
      ...tableSummary(t),
      shards: shardsOf(view, q.target),
      shard_count: t.shards,
      score_breakdown: t.score_breakdown,
      units: t.units,
      why_not: t.why_not,
      legacy: legacyOf(view, q.target, now, t.eligibility),
      cache: cacheRow && {
        observed_revision: cacheRow.record.observed_revision,
        updated_ms: cacheRow.record.updated_ms,
        agrees_with_fold: folded !== undefined && sameTableDemand(cacheRow.record, folded),
      },
      policy: { effective: t.policy.effective as unknown as Record<string, unknown>, sources: t.policy.sources as unknown as Record<string, unknown> },
    },
  };
}
