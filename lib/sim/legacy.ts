// The master's legacy side in live mode (scheduler-model.md §1.2, §2.8): its sweeps enqueue
// due tables (`tasks/` + `queue/` + `dedupe/`, one active task per kind and target), workers
// claim them (`running/`, a leased `claims/` token, a `merge-executions/` fence holding the
// target lock, `merge-progress/` advancing while it runs) and finish them as `tasks/` records
// that end `done` or `failed` with `started_at`/`finished_at`. A finished merge lowers the
// table's pending generations (the caller publishes the merged marks, §3.5). Tables named
// `incident/…` are never touched, so the seeded incidents stay visible.
// Time is counted in ticks, so a test running ticks back to back sees whole merges.
import type { EtcdClient as Etcd3 } from "@/lib/etcd/client";
import { readPrefixPaged } from "@/lib/etcd/paged-read";
import { writeChunked, type LeasedWriteOp } from "@/lib/etcd/writes";
import { KEY_DIRS, keys } from "@/lib/schema/keys";
import { parseTaskRecord, type TaskRecord } from "@/lib/schema/tasks";
import { uuidv7 } from "@/lib/schema/task-id";
import type { SimExecutor } from "./scenarios/fleet";

/** a table this pending is due for the sweep (min_generations 8, halved for the age boost, §4.1) */
export const SWEEP_MIN_PENDING = 4;
/** the master's merge sweep runs this often (ticks) */
export const SWEEP_EVERY_TICKS = 5;
/** one merge runs this many ticks (inclusive range) */
const RUN_TICKS = [3, 9] as const;
/** the share of merges that fail (retryable; the next sweep enqueues the table again) */
const FAILURE_SHARE = 0.04;
const FAILURE_ERROR = "merge_wal: commit conflict on the base table (retryable)";

interface ActiveTask {
  record: TaskRecord;
  executor?: string;
  executionId?: string;
  ticksLeft: number;
  sequence: number;
}

export interface LegacyFinish {
  target: string;
  ok: boolean;
}

export interface LegacyStats {
  enqueued: number;
  started: number;
  done: number;
  failed: number;
}

const mergeSlots = (e: SimExecutor) => (e.draining ? 0 : (e.slots_total.merge_wal ?? 0));

export class LegacyMaster {
  private readonly active = new Map<string, ActiveTask>();
  private counter = 0;
  /** a failed write leaves memory ahead of etcd: the next tick reloads from etcd first */
  private stale = false;
  /** the lease the running claims are on; a new one (the old expired) gets the claims again */
  private claimLease: string | null = null;
  readonly stats: LegacyStats = { enqueued: 0, started: 0, done: 0, failed: 0 };

  constructor(
    private readonly client: Etcd3,
    private readonly prefix: string,
    private readonly executors: readonly SimExecutor[],
    private readonly random: () => number,
  ) {}

  /** Adopts the seeded queue and running merges (not the incidents'), so they run too. */
  async load(): Promise<void> {
    for (const dir of [KEY_DIRS.queue, KEY_DIRS.running]) {
      const base = keys.dir(this.prefix, dir);
      const { kvs } = await readPrefixPaged(this.client, base);
      for (const kv of kvs) {
        const parsed = parseTaskRecord(kv.value.toString("utf8"));
        if (!parsed.ok || parsed.value.kind !== "merge_wal" || parsed.value.target.startsWith("incident/")) continue;
        const record = parsed.value;
        const running = dir === KEY_DIRS.running;
        const executionId = running ? simExecutionId(record.id) : undefined;
        this.active.set(record.target, {
          record,
          executor: running ? this.freeExecutor()?.id : undefined,
          executionId,
          ticksLeft: running ? this.runTicks() : 0,
          sequence: 0,
        });
      }
    }
  }

  /** Targets with a queued or running merge. */
  activeTargets(): ReadonlySet<string> {
    return new Set(this.active.keys());
  }

  /**
   * One tick: finish merges whose time is up, start queued ones on free slots, advance the
   * running ones' progress, and (every SWEEP_EVERY_TICKS) enqueue the due tables.
   */
  async tick(
    tick: number,
    now: number,
    pending: ReadonlyMap<string, number>,
    leaseId: string | null,
  ): Promise<LegacyFinish[]> {
    if (this.stale) {
      this.active.clear();
      await this.load();
      this.stale = false;
      this.claimLease = null;
    }
    const ops: LeasedWriteOp[] = [];
    if (leaseId !== this.claimLease) {
      for (const t of this.active.values())
        if (t.executor)
          ops.push({
            type: "put",
            key: keys.claim(this.prefix, t.record.id),
            value: `claim-${t.record.id}`,
            lease: leaseId ?? undefined,
          });
      this.claimLease = leaseId;
    }
    const finished: LegacyFinish[] = [];
    for (const task of this.active.values()) {
      if (!task.executor) continue;
      task.ticksLeft -= 1;
      if (task.ticksLeft > 0) {
        task.sequence += 1;
        if (task.executionId)
          ops.push({
            type: "put",
            key: keys.mergeProgress(this.prefix, task.executionId),
            value: JSON.stringify({ sequence: task.sequence }),
          });
        continue;
      }
      const ok = this.random() >= FAILURE_SHARE;
      ops.push(...this.finishOps(task, now, ok));
      finished.push({ target: task.record.target, ok });
    }
    for (const f of finished) this.active.delete(f.target);
    for (const task of [...this.active.values()].sort((a, b) => (a.record.id < b.record.id ? -1 : 1))) {
      if (task.executor) continue;
      const executor = this.freeExecutor();
      if (!executor) break;
      ops.push(...this.startOps(task, executor, now, leaseId));
    }
    // a table whose merge just finished waits for the next sweep (and one txn never names a key twice)
    if (tick % SWEEP_EVERY_TICKS === 0) ops.push(...this.sweep(now, pending, new Set(finished.map((f) => f.target))));
    try {
      if (ops.length > 0) await writeChunked(this.client, ops);
    } catch (e) {
      this.stale = true;
      throw e;
    }
    return finished;
  }

  /** The master's merge sweep: every due table without an active merge gets one (dedupe, §1.2). */
  private sweep(now: number, pending: ReadonlyMap<string, number>, justFinished: ReadonlySet<string>): LeasedWriteOp[] {
    const ops: LeasedWriteOp[] = [];
    for (const [target, generations] of pending) {
      if (
        this.active.has(target) ||
        justFinished.has(target) ||
        target.startsWith("incident/") ||
        generations < SWEEP_MIN_PENDING
      )
        continue;
      const id = uuidv7(now, 0x5000_0000 + (this.counter++ % 0x0fff_ffff));
      const record: TaskRecord = { id, kind: "merge_wal", target, state: "queued", enqueued_at: now, depends_on: [] };
      this.active.set(target, { record, ticksLeft: 0, sequence: 0 });
      const value = stringifyTask(record);
      ops.push(
        { type: "put", key: keys.task(this.prefix, id), value },
        { type: "put", key: keys.queued(this.prefix, id), value },
        { type: "put", key: keys.dedupe(this.prefix, "merge_wal", target), value: id },
      );
      this.stats.enqueued += 1;
    }
    return ops;
  }

  private startOps(task: ActiveTask, executor: SimExecutor, now: number, leaseId: string | null): LeasedWriteOp[] {
    const p = this.prefix;
    const { id, target } = task.record;
    task.executor = executor.id;
    task.executionId = simExecutionId(id);
    task.ticksLeft = this.runTicks();
    task.record = { ...task.record, state: "running", started_at: now };
    this.stats.started += 1;
    const value = stringifyTask(task.record);
    const execution = {
      id: task.executionId,
      target,
      endpoint: `http://${executor.id}.lake.internal:8080`,
      instance: executor.id,
      timeout_secs: 3600,
      queue_timeout_secs: 600,
      idle_timeout_secs: 600,
      phase: "running",
      reclaimed: false,
      error: null,
      protocol: 2,
    };
    return [
      { type: "put", key: keys.task(p, id), value },
      { type: "delete", key: keys.queued(p, id) },
      { type: "put", key: keys.running(p, id), value },
      { type: "put", key: keys.claim(p, id), value: `claim-${id}`, lease: leaseId ?? undefined },
      { type: "put", key: keys.mergeExecution(p, target), value: JSON.stringify(execution) },
      { type: "put", key: keys.targetLock(p, target), value: `merge-execution:${task.executionId}` },
      { type: "put", key: keys.mergeProgress(p, task.executionId), value: JSON.stringify({ sequence: 0 }) },
    ];
  }

  private finishOps(task: ActiveTask, now: number, ok: boolean): LeasedWriteOp[] {
    const p = this.prefix;
    const { id, target } = task.record;
    const record: TaskRecord = {
      ...task.record,
      state: ok ? "done" : "failed",
      finished_at: now,
      ...(ok ? {} : { error: FAILURE_ERROR }),
    };
    if (ok) this.stats.done += 1;
    else this.stats.failed += 1;
    const ops: LeasedWriteOp[] = [
      { type: "put", key: keys.task(p, id), value: stringifyTask(record) },
      { type: "delete", key: keys.running(p, id) },
      { type: "delete", key: keys.claim(p, id) },
      { type: "delete", key: keys.dedupe(p, "merge_wal", target) },
    ];
    if (task.executionId) {
      ops.push(
        { type: "delete", key: keys.mergeExecution(p, target) },
        { type: "delete", key: keys.targetLock(p, target) },
        { type: "delete", key: keys.mergeProgress(p, task.executionId) },
      );
    }
    return ops;
  }

  private freeExecutor(): SimExecutor | undefined {
    const used = new Map<string, number>();
    for (const t of this.active.values()) if (t.executor) used.set(t.executor, (used.get(t.executor) ?? 0) + 1);
    return this.executors.find((e) => mergeSlots(e) > (used.get(e.id) ?? 0));
  }

  private runTicks(): number {
    return RUN_TICKS[0] + Math.floor(this.random() * (RUN_TICKS[1] - RUN_TICKS[0] + 1));
  }
}

/** The execution id of a simulated task's merge (derived, so a reload finds its fence again). */
const simExecutionId = (taskId: string) => `exec-sim-${taskId}`;

/** §2.8: `error`, `started_at`, `finished_at` omitted when unset, `depends_on` when empty. */
function stringifyTask(t: TaskRecord): string {
  const { depends_on, error, started_at, finished_at, detail, ...rest } = t;
  return JSON.stringify({
    ...rest,
    ...(error != null ? { error } : {}),
    ...(detail !== undefined ? { detail } : {}),
    ...(started_at != null ? { started_at } : {}),
    ...(finished_at != null ? { finished_at } : {}),
    ...(depends_on.length > 0 ? { depends_on } : {}),
  });
}
