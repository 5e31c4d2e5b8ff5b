// The broken stores' life (`incident/broken-store`, `incident/broken-store-2`): they fail,
// cool down and fail again, by the master's own rules.
// * Task cooldowns (§9.2): the maintenance sweep runs a (kind, target) whenever it is not
//   cooling (`until_ms` null or past); the task fails, and the cooldown's count rises with its
//   window (600 s at 3 failures, 1,200 s at 4, … 21,600 s from 9), the record put on a lease of
//   TASK_COOLDOWN_MAX_SECS so the count outlives each window (and is forgotten with it).
// * The merge-failure ledger (§9.1): at `next_retry_ms` the retry fails with the same error,
//   and the record's attempts, class, attention and next retry follow `recordFailure`.
import { DEFAULT_COOLDOWN, recordTaskFailure, type CooldownRecord } from "@/lib/planner/cooldown";
import { recordFailure, type FailureLedgerRecord } from "@/lib/planner/failure-ledger";
import { keys } from "@/lib/schema/keys";
import type { TaskKind } from "@/lib/schema/kinds";
import type { TaskRecord } from "@/lib/schema/tasks";
import { uuidv7 } from "@/lib/schema/task-id";
import { del, put, type SimOp } from "./ops";
import { stringifyTask } from "./legacy";
import type { Life, LifeStep } from "./incident-merges";

/** the master's maintenance sweep (compaction, index, repair) looks this often (ticks) */
const MAINTENANCE_SWEEP_TICKS = 60;
/** a maintenance task runs this long before it fails (ticks) */
const TASK_RUN_TICKS = 20;
const COOLDOWN_LEASE_MS = DEFAULT_COOLDOWN.maxSecs * 1000;

interface Cooling {
  record: CooldownRecord;
  /** the record's lease ends then (it was put on a TASK_COOLDOWN_MAX_SECS lease) */
  expiresAt: number;
  running: { task: TaskRecord; endsAtTick: number } | null;
}

export interface SeededFailures {
  cooldowns: readonly { kind: TaskKind; target: string; cooldown: CooldownRecord }[];
  failures: readonly { target: string; endpoint: string; failure: FailureLedgerRecord }[];
}

export class BrokenStoreLife implements Life {
  private readonly cooling: Cooling[];
  private readonly failures: FailureLedgerRecord[];
  private counter = 0;

  constructor(
    private readonly prefix: string,
    seeded: SeededFailures,
    startMs: number,
    /** finished task records, for the master's task history to expire */
    private readonly finished: (id: string, finishedAt: number) => void,
  ) {
    const incident = (t: string) => t.startsWith("incident/");
    this.cooling = seeded.cooldowns
      .filter((c) => incident(c.target))
      .map((c) => ({ record: c.cooldown, expiresAt: startMs + COOLDOWN_LEASE_MS, running: null }));
    this.failures = seeded.failures.filter((f) => incident(f.target)).map((f) => f.failure);
  }

  step(tick: number, now: number): LifeStep {
    const ops: SimOp[] = [];
    for (const c of this.cooling) {
      if (c.running) {
        if (tick >= c.running.endsAtTick) ops.push(...this.fail(c, now));
        continue;
      }
      const cooling = c.record.until_ms !== null && c.record.until_ms > now && now < c.expiresAt;
      if (!cooling && tick % MAINTENANCE_SWEEP_TICKS === 0) ops.push(...this.start(c, tick, now));
    }
    for (let i = 0; i < this.failures.length; i++) {
      const f = this.failures[i];
      if (f.next_retry_ms > now) continue;
      const next = recordFailure(f, { target: f.target, endpoint: f.endpoint, error: f.last_error, now });
      this.failures[i] = next;
      ops.push(put(keys.mergeFailure(this.prefix, f.target, f.endpoint), JSON.stringify(next)));
    }
    return { ops, publishes: [] };
  }

  /** The sweep runs the task: queued and claimed at once (`running/`, its dedupe key). */
  private start(c: Cooling, tick: number, now: number): SimOp[] {
    const { kind, target } = c.record;
    const task: TaskRecord = {
      id: uuidv7(now, 0x6200_0000 + this.counter++),
      kind,
      target,
      state: "running",
      enqueued_at: now,
      started_at: now,
      depends_on: [],
    };
    c.running = { task, endsAtTick: tick + TASK_RUN_TICKS };
    const value = stringifyTask(task);
    return [
      put(keys.task(this.prefix, task.id), value),
      put(keys.running(this.prefix, task.id), value),
      put(keys.dedupe(this.prefix, kind, target), task.id),
    ];
  }

  /** It fails: the record `failed`, and the cooldown one failure further (§9.2). */
  private fail(c: Cooling, now: number): SimOp[] {
    const task = c.running!.task;
    c.running = null;
    const error = c.record.last_error;
    // a record whose lease ended is gone: the count starts again
    const previous = now < c.expiresAt ? c.record : null;
    c.record = recordTaskFailure(previous, { kind: task.kind, target: task.target, error, now })!;
    c.expiresAt = now + COOLDOWN_LEASE_MS;
    this.finished(task.id, now);
    return [
      put(keys.task(this.prefix, task.id), stringifyTask({ ...task, state: "failed", error, finished_at: now })),
      del(keys.running(this.prefix, task.id)),
      del(keys.dedupe(this.prefix, task.kind, task.target)),
      put(keys.cooldown(this.prefix, task.kind, task.target), JSON.stringify(c.record), "cooldown"),
    ];
  }
}
