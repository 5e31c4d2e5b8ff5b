// The master's legacy side in the live world (scheduler-model.md §1.2, §2.8): its sweep
// enqueues the tables due for a merge (`tasks/` + `queue/` + `dedupe/`, one active task per
// kind and target), the executors' merge slots claim them in id order (`running/`, a leased
// `claims/` token, a `merge-executions/` fence holding the target lock, `merge-progress/`
// advancing while it runs), and a merge ends as a `tasks/` record `done` or `failed` with
// `started_at`/`finished_at`; a done merge publishes its merged marks (./writers.ts). Finished
// records are deleted once older than the master's task history. Pure: a tick returns what
// to write. `incident/…` tables are never swept (their lives: lib/sim/README.md "Incident lives").
import { KEY_DIRS, keys } from "@/lib/schema/keys";
import type { TaskRecord } from "@/lib/schema/tasks";
import { uuidv7 } from "@/lib/schema/task-id";
import { del, put, type SimOp } from "./ops";
import type { WorldRates } from "./rates";
import type { SimExecutor } from "./scenarios/fleet";
import type { Publish, Writers } from "./writers";

const FAILURE_ERROR = "merge_wal: commit conflict on the base table (retryable)";

interface ActiveTask {
  record: TaskRecord;
  executor?: string;
  executionId?: string;
  ticksLeft: number;
  sequence: number;
  /** generations the pass merges, fixed when it starts (what was sealed then) */
  take: number;
}

export interface LegacyStats {
  enqueued: number;
  started: number;
  done: number;
  failed: number;
}

export interface LegacyStep {
  ops: SimOp[];
  publishes: Publish[];
  /** merges that finished this tick */
  finished: number;
}

/** The planner's side of the same executors (./canary.ts): the tables it acts on and the slots its merges hold. */
interface PlannerSide {
  has(target: string): boolean;
  slotsUsed(executor: string): number;
}

const NO_PLANNER: PlannerSide = { has: () => false, slotsUsed: () => 0 };

const mergeSlots = (e: SimExecutor) => (e.draining ? 0 : (e.slots_total.merge_wal ?? 0));

/** The execution id of a simulated task's merge (derived, so a restarted simulator finds its fence again). */
const simExecutionId = (taskId: string) => `exec-sim-${taskId}`;

export class LegacyMaster {
  private readonly active = new Map<string, ActiveTask>();
  /** finished records this master will delete, oldest first */
  private readonly history: { id: string; finishedAt: number }[] = [];
  private counter = 0;
  readonly stats: LegacyStats = { enqueued: 0, started: 0, done: 0, failed: 0 };

  constructor(
    private readonly prefix: string,
    private readonly executors: readonly SimExecutor[],
    private readonly writers: Writers,
    private readonly rates: Readonly<WorldRates>,
    private readonly random: () => number,
    private readonly planner: PlannerSide = NO_PLANNER,
  ) {}

  /** Adopts the stored merges (queued and running, not the incidents') and the finished records to expire. */
  adopt(tasks: Iterable<{ dir: string; record: TaskRecord }>): void {
    const finished: { id: string; finishedAt: number }[] = [];
    for (const { dir, record } of tasks) {
      if (dir === KEY_DIRS.tasks && (record.state === "done" || record.state === "failed"))
        finished.push({ id: record.id, finishedAt: record.finished_at ?? record.enqueued_at });
      if (record.kind !== "merge_wal" || record.target.startsWith("incident/")) continue;
      if (dir !== KEY_DIRS.queue && dir !== KEY_DIRS.running) continue;
      const running = dir === KEY_DIRS.running;
      this.active.set(record.target, {
        record,
        executor: running ? this.freeExecutor()?.id : undefined,
        executionId: running ? simExecutionId(record.id) : undefined,
        ticksLeft: running ? this.runTicks() : 0,
        sequence: 0,
        take: running ? this.writers.startPass(record.target) : 0,
      });
    }
    this.history.push(...finished.sort((a, b) => a.finishedAt - b.finishedAt));
  }

  /** A finished task record of another of the master's sweeps, expired with the rest. */
  remember(id: string, finishedAt: number): void {
    this.history.push({ id, finishedAt });
  }

  /** Targets with a queued or running merge. */
  activeTargets(): ReadonlySet<string> {
    return new Set(this.active.keys());
  }

  /** Merges queued and not yet claimed. */
  queued(): number {
    let n = 0;
    for (const t of this.active.values()) if (!t.executor) n++;
    return n;
  }

  /** The running merges' claims again, on a new `live` lease (the old one expired). */
  reclaim(): SimOp[] {
    return [...this.active.values()]
      .filter((t) => t.executor)
      .map((t) => put(keys.claim(this.prefix, t.record.id), `claim-${t.record.id}`, "live"));
  }

  /**
   * One tick: finish merges whose time is up, start queued ones on free slots, report the
   * running ones' progress, enqueue the due tables (every `sweepEveryTicks`), and delete
   * records past the task history.
   */
  tick(tick: number, now: number): LegacyStep {
    const ops: SimOp[] = [];
    const publishes: Publish[] = [];
    const finished: string[] = [];
    for (const task of this.active.values()) {
      if (!task.executor) continue;
      task.ticksLeft -= 1;
      if (task.ticksLeft > 0) {
        task.sequence += 1;
        if (task.executionId && task.sequence % this.rates.progressEveryTicks === 0)
          ops.push(put(keys.mergeProgress(this.prefix, task.executionId), JSON.stringify({ sequence: task.sequence })));
        continue;
      }
      const ok = this.random() >= this.rates.failureShare;
      ops.push(...this.finishOps(task, now, ok));
      if (ok) publishes.push(...this.writers.merge(task.record.target, task.take, now));
      finished.push(task.record.target);
    }
    for (const target of finished) this.active.delete(target);
    for (const task of [...this.active.values()].sort((a, b) => (a.record.id < b.record.id ? -1 : 1))) {
      if (task.executor) continue;
      const executor = this.freeExecutor();
      if (!executor) break;
      ops.push(...this.startOps(task, executor, now));
    }
    if (tick % this.rates.sweepEveryTicks === 0) {
      const swept = this.sweep(now);
      // a table whose merge just finished and is due again is queued in the same tick: its
      // dedupe key passes to the new task (put, not deleted: one txn never names a key twice)
      const requeued = new Set(
        finished.filter((t) => swept.targets.has(t)).map((t) => keys.dedupe(this.prefix, "merge_wal", t)),
      );
      ops.splice(0, ops.length, ...ops.filter((op) => !(op.type === "delete" && requeued.has(op.key))), ...swept.ops);
    }
    while (this.history.length > 0 && this.history[0].finishedAt < now - this.rates.taskHistoryMs)
      ops.push(del(keys.task(this.prefix, this.history.shift()!.id)));
    return { ops, publishes, finished: finished.length };
  }

  /** The master's merge sweep: every due table without an active merge gets one (dedupe, §1.2), but the planner's. */
  private sweep(now: number): { ops: SimOp[]; targets: Set<string> } {
    const ops: SimOp[] = [];
    const targets = new Set<string>();
    for (const target of this.writers.targets()) {
      // a table in planner mode is the planner's (§7.3): the legacy sweep leaves it
      if (this.active.has(target) || target.startsWith("incident/") || this.planner.has(target)) continue;
      if (!this.writers.sweepDue(target, now)) continue;
      const id = uuidv7(now, 0x5000_0000 + (this.counter++ % 0x0fff_ffff));
      const record: TaskRecord = { id, kind: "merge_wal", target, state: "queued", enqueued_at: now, depends_on: [] };
      this.active.set(target, { record, ticksLeft: 0, sequence: 0, take: 0 });
      const value = stringifyTask(record);
      ops.push(
        put(keys.task(this.prefix, id), value),
        put(keys.queued(this.prefix, id), value),
        put(keys.dedupe(this.prefix, "merge_wal", target), id),
      );
      targets.add(target);
      this.stats.enqueued += 1;
    }
    return { ops, targets };
  }

  private startOps(task: ActiveTask, executor: SimExecutor, now: number): SimOp[] {
    const p = this.prefix;
    const { id, target } = task.record;
    task.executor = executor.id;
    task.executionId = simExecutionId(id);
    task.ticksLeft = this.runTicks();
    task.take = this.writers.startPass(target);
    task.record = { ...task.record, state: "running", started_at: now };
    this.stats.started += 1;
    const value = stringifyTask(task.record);
    return [
      put(keys.task(p, id), value),
      del(keys.queued(p, id)),
      put(keys.running(p, id), value),
      put(keys.claim(p, id), `claim-${id}`, "live"),
      put(keys.mergeExecution(p, target), JSON.stringify(simExecution(task.executionId, target, executor.id))),
      put(keys.targetLock(p, target), `merge-execution:${task.executionId}`),
      put(keys.mergeProgress(p, task.executionId), JSON.stringify({ sequence: 0 })),
    ];
  }

  private finishOps(task: ActiveTask, now: number, ok: boolean): SimOp[] {
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
    this.history.push({ id, finishedAt: now });
    const ops: SimOp[] = [
      put(keys.task(p, id), stringifyTask(record)),
      del(keys.running(p, id)),
      del(keys.claim(p, id)),
      del(keys.dedupe(p, "merge_wal", target)),
    ];
    if (task.executionId)
      ops.push(
        del(keys.mergeExecution(p, target)),
        del(keys.targetLock(p, target)),
        del(keys.mergeProgress(p, task.executionId)),
      );
    return ops;
  }

  private freeExecutor(): SimExecutor | undefined {
    const used = new Map<string, number>();
    for (const t of this.active.values()) if (t.executor) used.set(t.executor, (used.get(t.executor) ?? 0) + 1);
    return this.executors.find((e) => mergeSlots(e) > (used.get(e.id) ?? 0) + this.planner.slotsUsed(e.id));
  }

  private runTicks(): number {
    const [min, max] = this.rates.mergeTicks;
    return min + Math.floor(this.random() * (max - min + 1));
  }
}

/** A worker merge's execution fence (§2.8), as the legacy claimers write it. */
export function simExecution(id: string, target: string, executor: string, phase = "running", reclaimed = false) {
  return {
    id,
    target,
    endpoint: `http://${executor}.lake.internal:8080`,
    instance: executor,
    timeout_secs: 3600,
    queue_timeout_secs: 600,
    idle_timeout_secs: 600,
    phase,
    reclaimed,
    error: null,
    protocol: 2,
  };
}

/** §2.8: `error`, `started_at`, `finished_at` omitted when unset, `depends_on` when empty. */
export function stringifyTask(t: TaskRecord): string {
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
