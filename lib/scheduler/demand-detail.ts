import "server-only";
// GET /api/v1/scheduler/demand?target=T: everything the list row says plus shards, score
// breakdown, units, why-not, the legacy view (tasks, cooldowns, failures, lock, execution,
// eligibility, §7.1 merge progress), the master's cache agreement and the effective policy.
import { sameTableDemand } from "@/lib/planner/cache";
import { deriveShard } from "@/lib/planner/derived";
import { compareTargets } from "@/lib/planner/order";
import type { TablePlan, WhyNot } from "@/lib/planner/plan";
import { IDLE_TIMEOUT_SECS, mergeProgress } from "@/lib/planner/progress";
import { UNFINISHED_PHASES, lockedExecutionId, progressState } from "@/lib/planner/plan/write-turn";
import type { DemandDetail, DemandQuery, TableDetail } from "@/lib/schema/api/demand";
import { fleetView, type FleetView } from "@/lib/live/fleet-view";
import { eventsOfTarget } from "@/lib/snapshot/demand-index";
import { tableSummary } from "./demand";
import { notFound } from "@/lib/schema/api/errors";
import { cooldownRows, failureRows } from "./failures";
import { answerKey, identityOf, viewKey } from "@/lib/http/answer-key";
import { cacheable, type Cacheable } from "@/lib/http/encoded-response";
import { snapshotMeta } from "@/lib/live/evaluation";
import { shadowFor, type ShadowPlanned } from "@/lib/live/plan";
import { executorAgreement } from "@/lib/planner/plan/agreement";
import { forecastsOf, type ForecastView } from "./forecasts";

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

function legacyOf(view: FleetView, t: TablePlan, now: number): TableDetail["legacy"] {
  const { snapshot } = view;
  const target = t.target;
  const queued = snapshot.queue.filter((x) => x.task.target === target);
  const running = snapshot.running.filter((x) => x.task.target === target);
  const lock = snapshot.targetLocks.find((l) => l.target === target) ?? null;
  const execution = snapshot.mergeExecutions.find((e) => e.target === target) ?? null;
  const execId = execution?.execution.id ?? null;
  const progress = execId === null ? null : (snapshot.mergeProgress.find((p) => p.executionId === execId) ?? null);
  const work = execId === null ? null : (snapshot.mergeWork.find((w) => w.executionId === execId) ?? null);
  const activeMerge = [...running, ...queued].find((x) => x.task.kind === "merge_wal") ?? null;
  const sequence = progress?.progress.sequence ?? null;
  const idleSecs = execution?.execution.idle_timeout_secs || IDLE_TIMEOUT_SECS;
  // the write turn's progress is the verdict's (one answer); an execution not holding it has the view's
  const known = execId === null ? undefined : view.progress.get(execId);
  const last = t.write_turn ?? known ?? null;
  const lastMs = last?.last_progress_ms ?? null;
  const state = t.write_turn ? t.write_turn.progress : progressState(known, idleSecs, now);
  const p = mergeProgress({
    activeTaskId: activeMerge?.taskId ?? null,
    executionId: execId,
    sequence,
    workReport: work?.report ?? null,
    lastProgressMs: lastMs,
    now,
    idleTimeoutSecs: idleSecs,
  });
  const e = execution?.execution;
  return {
    queued: queued.length > 0,
    running: running.length > 0,
    task_ids: [...running, ...queued].map((x) => x.taskId),
    cooldowns: cooldownRows(view, now, target),
    failures: failureRows(view, now, target),
    target_lock: lock && {
      value: lock.value,
      holder: lockedExecutionId(lock.value) !== null ? "execution" : "claim",
      execution_id: lockedExecutionId(lock.value),
      leased: lock.lease !== "0",
      mod_revision: lock.modRevision,
    },
    execution: e
      ? {
          id: e.id,
          target: e.target,
          endpoint: e.endpoint,
          instance: e.instance,
          maintenance: e.maintenance ?? null,
          phase: e.phase,
          unfinished: UNFINISHED_PHASES.has(e.phase),
          holds_lock: lock !== null && lockedExecutionId(lock.value) === e.id,
          timeout_secs: e.timeout_secs,
          queue_timeout_secs: e.queue_timeout_secs,
          idle_timeout_secs: idleSecs,
          reclaimed: e.reclaimed,
          error: e.error,
          protocol: e.protocol,
          sequence,
          progress: state,
          last_progress_revision: known?.last_progress_revision ?? null,
          last_progress_ms: lastMs,
          last_progress_bound: last?.last_progress_bound ?? null,
          // a `now_ms` before the last progress reads 0, never negative
          no_progress_for_ms: lastMs === null ? null : Math.max(0, now - lastMs),
          mod_revision: execution!.modRevision,
        }
      : null,
    eligibility: t.eligibility,
    progress: {
      status: p.status,
      task_id: p.task_id,
      execution_id: execId,
      sequence: p.sequence,
      work_report: p.work_report,
      sequence_mod_revision: progress?.modRevision ?? null,
      unchanged_since_ms: execId === null ? null : lastMs,
      unchanged_for_ms: p.unchanged_for_ms,
      idle_timeout_ms: idleSecs * 1000,
      stalled: state === "stalled",
    },
  };
}

/** Each unit with every reason it was passed over: entries naming its kind, and table-wide ones. */
function unitsWithWhyNot(t: TablePlan): TableDetail["units"] {
  const entries: WhyNot[] =
    t.passed_over === t.why_not
      ? t.why_not
      : [...t.passed_over, ...t.why_not.filter((w) => !t.passed_over.includes(w))];
  return t.units.map((u) => ({
    ...u,
    why_not: entries.filter((w) => w.detail.kind === undefined || w.detail.kind === u.kind),
  }));
}

const HEADROOM_EXCLUDING_SHADOW: TableDetail["headroom"] = {
  basis: "excluding_shadow",
  message:
    "The verdict uses headroom without the master's shadow rows: they are replaced every pass and never bound (scheduler-model.md §6.2 step 3). The executors page shows headroom both ways.",
};

function agreementOf(t: TablePlan, planned: ShadowPlanned): TableDetail["executor_agreement"] {
  const consoleShadow = planned.pass.placements.find((p) => p.unit.target === t.target)?.executor ?? null;
  const row = planned.view.snapshot.assignments.find(
    (a) => a.assignment.state === "shadow" && a.assignment.target === t.target,
  );
  const master = row
    ? { executor: row.assignment.executor, created_ms: row.assignment.created_ms, mod_revision: row.modRevision }
    : null;
  return executorAgreement(t.verdict, consoleShadow, master, planned.view.revision);
}

/** One table as a cacheable answer (404 is thrown before, so it is never cached). */
export async function demandDetailAnswer(q: DemandQuery & { target: string }): Promise<Cacheable> {
  // the shadow entry carries the plan too: one plan answers verdict and shadow alike
  const planned = await shadowFor(await fleetView(q.revision), q);
  const t = planned.plan.byTarget.get(q.target);
  if (!t)
    throw notFound(
      `table ${JSON.stringify(q.target)} has neither demand events nor a cache row at revision ${planned.view.revision}`,
    );
  // the forecasts rest on the forecast journal at the revision too: its version is part of the key
  const { forecasts, version } = await forecastsOf(planned, t);
  return cacheable(
    answerKey(
      "demand-detail",
      identityOf(planned.plan),
      viewKey(planned.view, planned.evaluation),
      planned.now,
      `${q.target}\u0000${version}`,
    ),
    () => detailBody(planned, t, forecasts),
  );
}

/** One table's body, for callers inside the services and tests (the route serves the cacheable answer). */
export async function demandDetail(q: DemandQuery & { target: string }): Promise<DemandDetail> {
  return (await demandDetailAnswer(q)).body() as DemandDetail;
}

function detailBody(planned: ShadowPlanned, t: TablePlan, forecasts: ForecastView[]): DemandDetail {
  const { view, now, evaluation, plan } = planned;
  const target = t.target;
  const cacheRow = view.snapshot.demandTables.find((d) => d.target === target) ?? null;
  const folded = view.tables.get(target);
  const leader = view.snapshot.leader?.record ?? null;
  return {
    ...snapshotMeta(view, evaluation),
    now_ms: now,
    leader: leader ? { token: leader.token, instance: leader.instance, since_ms: leader.since_ms } : null,
    table: {
      ...tableSummary(t, plan.line),
      // the acting world's place (console-api.md "Forecasts …": the top level equals forecasts[0])
      position: forecasts[0].position,
      shards: shardsOf(view, target),
      shard_count: t.shards,
      score_breakdown: t.score_breakdown,
      units: unitsWithWhyNot(t),
      why_not: t.why_not,
      legacy: legacyOf(view, t, now),
      cache: cacheRow && {
        observed_revision: cacheRow.record.observed_revision,
        updated_ms: cacheRow.record.updated_ms,
        agrees_with_fold: folded !== undefined && sameTableDemand(cacheRow.record, folded),
      },
      policy: {
        effective: t.policy.effective as unknown as Record<string, unknown>,
        sources: t.policy.sources as unknown as Record<string, unknown>,
      },
      eta: forecasts[0].eta,
      forecasts,
      clock_skew: t.clock_skew,
      headroom: HEADROOM_EXCLUDING_SHADOW,
      executor_agreement: agreementOf(t, planned),
    },
  };
}
