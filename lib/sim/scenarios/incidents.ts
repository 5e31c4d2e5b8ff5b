// `incidents`: named, stable situations the UI and API tests assert on (documented in
// lib/sim/README.md). Times are relative to `now`; every target starts with `incident/`.
import { keys } from "@/lib/schema/keys";
import type { TaskKind } from "@/lib/schema/kinds";
import { uuidv7 } from "@/lib/schema/task-id";
import { demandEventKv, pendingTimes, type SeedKv } from "../seed-kv";
import { heartbeatKv, type SimExecutor } from "./fleet";

export const INCIDENT = {
  /** needs attention (data_or_configuration) on a worker, retryable backoff on master:compact, compact cooldown in its 2,400 s window */
  brokenStore: "incident/broken-store",
  /** 16 consecutive retryable failures → needs attention; repair cooldown in its first 600 s window */
  brokenStoreRepeat: "incident/broken-store-2",
  /** executor publishing draining: true */
  drainingExecutor: "worker-draining",
  /** assignment whose executor has no heartbeat */
  orphanTarget: "incident/orphan",
  orphanExecutor: "worker-gone",
  orphanUnitId: "0192c000-orphan-0001",
  /** legacy tasks on tables with no demand at all (phantom tasks) */
  phantomQueued: "incident/phantom-queued",
  phantomRunning: "incident/phantom-running",
  /** target-lock and merge-claim held by a claim token (leased) */
  lockedTarget: "incident/locked",
  lockToken: "claim-token-7f3a",
  /** worker merge execution holding the lock, with progress sequence 12 and a matching work report, run for the legacy MergeWal task in `running/` */
  mergingTarget: "incident/merging",
  mergingExecutionId: "exec-0001",
  mergingSequence: 12,
  /** execution running with no progress record at all */
  stalledTarget: "incident/stalled-merge",
  stalledExecutionId: "exec-0002",
  /** prepared compaction whose commit is ready: merge yields to it (T45) */
  preparedTarget: "incident/prepared-compaction",
  preparationToken: "prep-7c1e",
  /**
   * catch-up job owning the target; its writer kept no flush time for its oldest pending
   * generation (501), so its wait is a lower bound ("≥", age_bound "upper")
   */
  catchingUpTarget: "incident/catching-up",
  catchupJob: "catchup-job-1",
  /** keys that fail to parse: one each of unknown_version, bad_key, bad_json */
  futureVersionTarget: "incident/future-version",
  garbledTarget: "incident/garbled",
  badHexKeySuffix: "zz/shard-1",
} as const;

/** Pending generations of the incident tables that have demand. */
export const INCIDENT_PENDING: Record<string, number> = {
  [INCIDENT.brokenStore]: 40,
  [INCIDENT.brokenStoreRepeat]: 12,
  [INCIDENT.orphanTarget]: 9,
  [INCIDENT.lockedTarget]: 25,
  [INCIDENT.mergingTarget]: 40,
  [INCIDENT.stalledTarget]: 18,
  [INCIDENT.preparedTarget]: 20,
  [INCIDENT.catchingUpTarget]: 30,
};

const WORKER_URL = "http://worker-1.lake.internal:8080";

/** The flush times a writer kept after losing the first pending generation's (the wait is then a lower bound). */
function withoutOldest(merged: number, sealed: number, timeOf: (g: number) => number): Record<string, number> {
  const { [String(merged + 1)]: _lost, ...kept } = pendingTimes(merged, sealed, timeOf);
  return kept;
}

export function* incidentKvs(prefix: string, now: number): Generator<SeedKv> {
  let n = 0;
  for (const [target, pending] of Object.entries(INCIDENT_PENDING)) {
    n += 1;
    const merged = 500;
    const sealed = merged + pending;
    const timeOf = (g: number) => now - 2 * 3_600_000 + (g - merged) * 60_000;
    yield demandEventKv(prefix, target, {
      v: 1,
      shard: `eeeeeeee-0000-4000-8000-${String(n).padStart(12, "0")}`,
      sealed_through: sealed,
      sealed_bytes_through: sealed * 4_194_304,
      merged_through: merged,
      flushed_at_ms: timeOf(sealed),
      writer_epoch: 1,
      source: "writer",
      sealed_times:
        target === INCIDENT.catchingUpTarget
          ? withoutOldest(merged, sealed, timeOf)
          : pendingTimes(merged, sealed, timeOf),
    });
  }

  // failure ledger (§9.1) and task cooldowns (§9.2)
  const failure = (target: string, endpoint: string, f: object) => ({
    key: keys.mergeFailure(prefix, target, endpoint),
    value: JSON.stringify({ target, endpoint, ...f }),
  });
  yield failure(INCIDENT.brokenStore, WORKER_URL, {
    consecutive_attempts: 3,
    class: "data_or_configuration",
    last_error: "Not found: s3://lake/broken-store/_versions/17.manifest",
    last_failure_ms: now - 600_000,
    next_retry_ms: now - 600_000 + 3_600_000,
    needs_attention: true,
  });
  yield failure(INCIDENT.brokenStore, "master:compact", {
    consecutive_attempts: 5,
    class: "retryable",
    last_error: "temporary storage failure: connection reset by peer",
    last_failure_ms: now - 30_000,
    next_retry_ms: now - 30_000 + 120_000,
    needs_attention: false,
  });
  yield failure(INCIDENT.brokenStoreRepeat, WORKER_URL, {
    consecutive_attempts: 16,
    class: "retryable",
    last_error: "temporary storage failure: 503 slow down",
    last_failure_ms: now - 120_000,
    next_retry_ms: now - 120_000 + 3_600_000,
    needs_attention: true,
  });
  const cooldown = (
    kind: TaskKind,
    target: string,
    failures: number,
    untilMs: number | null,
    lastError: string,
  ): SeedKv => ({
    key: keys.cooldown(prefix, kind, target),
    value: JSON.stringify({ kind, target, failures, until_ms: untilMs, last_error: lastError }),
    leased: true,
  });
  yield cooldown("compact", INCIDENT.brokenStore, 5, now + 1_800_000, "compaction failed: Not found: fragment 1207");
  yield cooldown("index_id", INCIDENT.brokenStore, 2, null, "index build failed: schema mismatch");
  yield cooldown("repair", INCIDENT.brokenStoreRepeat, 3, now + 420_000, "repair failed: timed out");

  // a draining executor and an assignment whose executor is gone
  const draining: SimExecutor = {
    id: INCIDENT.drainingExecutor,
    kind: "worker",
    kinds: ["merge_wal"],
    slots_total: { merge_wal: 2 },
    bytes_total: 4 * 1024 ** 3,
    draining: true,
  };
  yield heartbeatKv(prefix, draining, now);
  yield {
    key: keys.assignment(prefix, INCIDENT.orphanTarget, INCIDENT.orphanUnitId),
    value: JSON.stringify({
      v: 1,
      unit_id: INCIDENT.orphanUnitId,
      kind: "merge_wal",
      target: INCIDENT.orphanTarget,
      needs_write_turn: true,
      executor: INCIDENT.orphanExecutor,
      planner_token: "leader-token-0001",
      reserved_slots: { merge_wal: 1 },
      reserved_bytes: 1024 ** 3,
      state: "assigned",
      created_ms: now - 300_000,
      bind_deadline_ms: now - 270_000,
    }),
  };

  // phantom tasks: queued and running legacy merges on tables without demand
  const task = (id: string, target: string, state: "queued" | "running") => ({
    id,
    kind: "merge_wal",
    target,
    state,
    enqueued_at: now - 240_000,
    ...(state === "running" ? { started_at: now - 120_000 } : {}),
  });
  // real UUIDv7 ids of their enqueue time (§2.8), as the master mints them
  const queued = task(uuidv7(now - 240_000, 0xd000), INCIDENT.phantomQueued, "queued");
  const running = task(uuidv7(now - 240_000, 0xd001), INCIDENT.phantomRunning, "running");
  yield { key: keys.task(prefix, queued.id), value: JSON.stringify(queued) };
  yield { key: keys.queued(prefix, queued.id), value: JSON.stringify(queued) };
  yield { key: keys.task(prefix, running.id), value: JSON.stringify(running) };
  yield { key: keys.running(prefix, running.id), value: JSON.stringify(running) };
  yield { key: keys.claim(prefix, running.id), value: `claim-${running.id}`, leased: true };

  // a held write-turn lock (claim token form, leased) and its reconciler claim
  yield { key: keys.targetLock(prefix, INCIDENT.lockedTarget), value: INCIDENT.lockToken, leased: true };
  yield { key: keys.mergeClaim(prefix, INCIDENT.lockedTarget), value: INCIDENT.lockToken, leased: true };

  // a worker merge execution with progress, and one without any progress record
  const execution = (id: string, target: string) => ({
    id,
    target,
    endpoint: WORKER_URL,
    instance: "worker-1",
    timeout_secs: 1_800,
    queue_timeout_secs: 600,
    idle_timeout_secs: 600,
    phase: "running",
    reclaimed: false,
    error: null,
    protocol: 2,
  });
  yield {
    key: keys.mergeExecution(prefix, INCIDENT.mergingTarget),
    value: JSON.stringify(execution(INCIDENT.mergingExecutionId, INCIDENT.mergingTarget)),
  };
  yield {
    key: keys.targetLock(prefix, INCIDENT.mergingTarget),
    value: `merge-execution:${INCIDENT.mergingExecutionId}`,
  };
  yield {
    key: keys.mergeProgress(prefix, INCIDENT.mergingExecutionId),
    value: JSON.stringify({ sequence: INCIDENT.mergingSequence }),
  };
  yield {
    key: keys.mergeWork(prefix, INCIDENT.mergingExecutionId),
    value: JSON.stringify({
      sequence: INCIDENT.mergingSequence,
      generations_done: 12,
      generations_total: 40,
      rows_merged: 1_200_000,
    }),
  };
  // the MergeWal task the master claimed for that execution (§1.2, §2.8): the record, its
  // `running/` copy, the leased claim and the dedupe key it was enqueued under, as the
  // master's sweep and start write them (lib/sim/legacy.ts); the shadow comparison reads it as running
  yield* claimedMerge(
    prefix,
    task(uuidv7(now - 900_000, 0xd002), INCIDENT.mergingTarget, "running"),
    now - 900_000,
    now - 600_000,
  );
  // the stalled execution runs for a MergeWal task the master claimed as well: a master that
  // started a merge has its `running/` entry, whether or not the worker ever reported progress
  yield* claimedMerge(
    prefix,
    task(uuidv7(now - 1_500_000, 0xd003), INCIDENT.stalledTarget, "running"),
    now - 1_500_000,
    now - 1_200_000,
  );
  yield {
    key: keys.mergeExecution(prefix, INCIDENT.stalledTarget),
    value: JSON.stringify(execution(INCIDENT.stalledExecutionId, INCIDENT.stalledTarget)),
  };
  yield {
    key: keys.targetLock(prefix, INCIDENT.stalledTarget),
    value: `merge-execution:${INCIDENT.stalledExecutionId}`,
  };

  // a prepared compaction whose commit waits for its write turn (merge yields, T45)
  yield {
    key: keys.compactPreparation(prefix, INCIDENT.preparedTarget),
    value: INCIDENT.preparationToken,
    leased: true,
  };
  yield { key: keys.compactCommitReady(prefix, INCIDENT.preparedTarget), value: INCIDENT.preparationToken };

  // a catch-up job owning a target
  yield { key: keys.catchupActive(prefix, INCIDENT.catchingUpTarget), value: INCIDENT.catchupJob };

  // keys the reader must skip and count
  yield {
    key: keys.demandEvent(prefix, INCIDENT.futureVersionTarget, "ffffffff-0000-4000-8000-000000000001"),
    value: JSON.stringify({
      v: 2,
      shard: "ffffffff-0000-4000-8000-000000000001",
      sealed_through: 10,
      flushed_at_ms: now,
      writer_epoch: 1,
      source: "writer",
    }),
  };
  yield {
    key: `${keys.demandEvents(prefix)}${INCIDENT.badHexKeySuffix}`,
    value: JSON.stringify({
      shard: "shard-1",
      sealed_through: 1,
      flushed_at_ms: now,
      writer_epoch: 1,
      source: "writer",
    }),
  };
  yield {
    key: keys.demandEvent(prefix, INCIDENT.garbledTarget, "ffffffff-0000-4000-8000-000000000002"),
    value: "not json{",
  };
}

/**
 * A MergeWal task the master claimed (§1.2, §2.8): the record, its `running/` copy, the leased
 * claim and the dedupe key it was enqueued under, as the master's sweep and start write them
 * (lib/sim/legacy.ts).
 */
function* claimedMerge(
  prefix: string,
  base: { id: string; target: string },
  enqueuedAt: number,
  startedAt: number,
): Generator<SeedKv> {
  const merge = { ...base, enqueued_at: enqueuedAt, started_at: startedAt };
  yield { key: `${prefix}/tasks/${merge.id}`, value: JSON.stringify(merge) };
  yield { key: `${prefix}/running/${merge.id}`, value: JSON.stringify(merge) };
  yield { key: `${prefix}/claims/${merge.id}`, value: `claim-${merge.id}`, leased: true };
  yield { key: keys.dedupe(prefix, "merge_wal", merge.target), value: merge.id };
}
