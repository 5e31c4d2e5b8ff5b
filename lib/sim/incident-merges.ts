// The lives of the incidents that hold a table's write turn or its merges (lib/sim/README.md
// "Incident lives"), as the master's rules run them:
// * `incident/stalled-merge`: an execution with no progress, which the console calls stalled
//   after its idle timeout (§7.1: 600 s); the master's watchdog reclaims it a while later
//   (phase `recovering`), another worker reports progress and finishes it, and after a quiet
//   spell a new merge there stalls again;
// * `incident/merging`: a long merge reporting progress (every 3 ticks), which finishes and
//   is followed by the next;
// * `incident/catching-up`: a catch-up job merging a backlog left by an outage, done once it
//   caught up; then a normal spell; then an outage (nothing merges, the writer keeps flushing),
//   and a new catch-up job.
import { INCIDENT } from "./scenarios/incidents";
import { keys } from "@/lib/schema/keys";
import type { TaskRecord } from "@/lib/schema/tasks";
import { uuidv7 } from "@/lib/schema/task-id";
import { del, put, type SimOp } from "./ops";
import { simExecution, stringifyTask } from "./legacy";
import type { Publish, Writers } from "./writers";

/** What a life writes in one step. */
export interface LifeStep {
  ops: SimOp[];
  publishes: Publish[];
  /** the executors changed: heartbeat now */
  heartbeat?: boolean;
}

/** A life of the live world: it steps with the world's tick and clock. */
export interface Life {
  step(tick: number, now: number): LifeStep;
}

const MINUTE = 60_000;
/** the console calls an execution stalled after 600 s without progress; the watchdog reclaims it this long after it was started */
export const STALL_RECLAIMED_AFTER_MS = 20 * MINUTE;
/** a reclaimed merge reports progress this long, then finishes */
const RECOVERY_MS = 2 * MINUTE;
/** the quiet spell before the next merge on the table (which stalls again) */
const STALL_QUIET_MS = 5 * MINUTE;
/** the merging incident's run: this many progress steps (one every MERGING_STEP_TICKS), then it finishes */
const MERGING_STEPS = 200;
const MERGING_STEP_TICKS = 3;
/** the catch-up job merges this many generations a minute */
const CATCHUP_PER_MINUTE = 4;
const CATCHUP_NORMAL_MS = 15 * MINUTE;
const CATCHUP_OUTAGE_MS = 20 * MINUTE;
/** the incident tables' writers flush one or two generations this often */
const INCIDENT_FLUSH_MS = 2 * MINUTE;

/** The records of a MergeWal task the master claimed for an execution (§1.2, §2.8). */
function claimedTask(prefix: string, record: TaskRecord): SimOp[] {
  const value = stringifyTask(record);
  return [
    put(keys.task(prefix, record.id), value),
    put(keys.running(prefix, record.id), value),
    put(keys.claim(prefix, record.id), `claim-${record.id}`, "live"),
    put(keys.dedupe(prefix, "merge_wal", record.target), record.id),
  ];
}

/** Its end: the record done, the execution fence and the task's claims gone. */
function finishedTask(prefix: string, record: TaskRecord, executionId: string, now: number): SimOp[] {
  const { id, target } = record;
  return [
    put(keys.task(prefix, id), stringifyTask({ ...record, state: "done", finished_at: now })),
    del(keys.running(prefix, id)),
    del(keys.claim(prefix, id)),
    del(keys.dedupe(prefix, "merge_wal", target)),
    del(keys.mergeExecution(prefix, target)),
    del(keys.targetLock(prefix, target)),
    del(keys.mergeProgress(prefix, executionId)),
    del(keys.mergeWork(prefix, executionId)),
  ];
}

/** A MergeWal task enqueued and started at `now`. */
const runningMerge = (id: string, target: string, now: number): TaskRecord => ({
  id,
  kind: "merge_wal",
  target,
  state: "running",
  enqueued_at: now,
  started_at: now,
  depends_on: [],
});

/** A new claimed merge on `target` holding the write turn through execution `executionId` on `executor`. */
function startedMerge(prefix: string, target: string, id: string, executionId: string, executor: string, now: number) {
  const record = runningMerge(id, target, now);
  const ops = [
    ...claimedTask(prefix, record),
    put(keys.mergeExecution(prefix, target), JSON.stringify(simExecution(executionId, target, executor))),
    put(keys.targetLock(prefix, target), `merge-execution:${executionId}`),
  ];
  return { record, ops };
}

/** The seeded task of an incident's execution (`running/` names its target), or a stand-in with the seed's shape. */
export function seededTask(running: readonly TaskRecord[], target: string, now: number): TaskRecord {
  return running.find((t) => t.target === target) ?? runningMerge(uuidv7(now, 0x6fff_0000), target, now);
}

/** Occasional writer flushes of an incident table. */
function flushNow(writers: Writers, target: string, tick: number, every: number, now: number, random: () => number) {
  return tick % every === 0 ? writers.flush(target, 1 + Math.floor(random() * 2), now, random) : [];
}

export class StalledMergeLife implements Life {
  private phase: "stalled" | "recovering" | "quiet";
  private since: number;
  private cycle = 0;
  private sequence = 0;

  constructor(
    private readonly prefix: string,
    private readonly writers: Writers,
    private task: TaskRecord,
    private executionId: string,
    startMs: number,
    private readonly random: () => number,
  ) {
    this.phase = "stalled";
    this.since = startMs;
  }

  step(tick: number, now: number): LifeStep {
    const p = this.prefix;
    const target = INCIDENT.stalledTarget;
    const ops: SimOp[] = [];
    const publishes: Publish[] = [];
    if (this.phase === "stalled" && now - this.since >= STALL_RECLAIMED_AFTER_MS) {
      // the watchdog reclaims the execution; another worker adopts it and reports progress
      this.phase = "recovering";
      this.since = now;
      this.sequence = 0;
      ops.push(
        put(
          keys.mergeExecution(p, target),
          JSON.stringify(simExecution(this.executionId, target, "worker-2", "recovering", true)),
        ),
      );
    } else if (this.phase === "recovering") {
      if (now - this.since >= RECOVERY_MS) {
        ops.push(...finishedTask(p, this.task, this.executionId, now));
        publishes.push(...this.writers.merge(target, this.writers.pending(target), now));
        this.phase = "quiet";
        this.since = now;
      } else if (tick % 10 === 0) {
        this.sequence += 1;
        ops.push(put(keys.mergeProgress(p, this.executionId), JSON.stringify({ sequence: this.sequence })));
      }
    } else if (this.phase === "quiet") {
      publishes.push(...flushNow(this.writers, target, tick, 60, now, this.random));
      if (now - this.since >= STALL_QUIET_MS) {
        // the next merge there: claimed, holding the write turn, and never reporting progress
        this.cycle += 1;
        this.executionId = `${INCIDENT.stalledExecutionId}-${this.cycle}`;
        const started = startedMerge(
          p,
          target,
          uuidv7(now, 0x6000_0000 + this.cycle),
          this.executionId,
          "worker-1",
          now,
        );
        this.task = started.record;
        ops.push(...started.ops);
        this.phase = "stalled";
        this.since = now;
      }
    }
    return { ops, publishes };
  }
}

export class MergingLife implements Life {
  private cycle = 0;
  private steps = 0;
  private quietUntil = 0;

  constructor(
    private readonly prefix: string,
    private readonly writers: Writers,
    private task: TaskRecord | null,
    private executionId: string,
    private sequence: number,
    private readonly random: () => number,
  ) {
    // the seeded run carries on where its work report stands (12 of 40 generations)
    this.steps = Math.round((sequence / 40) * MERGING_STEPS);
  }

  step(tick: number, now: number): LifeStep {
    const p = this.prefix;
    const target = INCIDENT.mergingTarget;
    const ops: SimOp[] = [];
    const publishes: Publish[] = [];
    if (this.task === null) {
      publishes.push(...flushNow(this.writers, target, tick, 30, now, this.random));
      if (now < this.quietUntil) return { ops, publishes };
      this.cycle += 1;
      this.executionId = `${INCIDENT.mergingExecutionId}-${this.cycle}`;
      const started = startedMerge(p, target, uuidv7(now, 0x6100_0000 + this.cycle), this.executionId, "worker-1", now);
      this.task = started.record;
      this.sequence = 0;
      this.steps = 0;
      ops.push(...started.ops);
    }
    if (tick % MERGING_STEP_TICKS !== 0) return { ops, publishes };
    this.sequence += 1;
    this.steps += 1;
    if (this.steps > MERGING_STEPS) {
      ops.push(...finishedTask(p, this.task, this.executionId, now));
      publishes.push(...this.writers.merge(target, this.writers.pending(target), now));
      this.task = null;
      this.quietUntil = now + MINUTE;
      return { ops, publishes };
    }
    const total = 40;
    ops.push(
      put(keys.mergeProgress(p, this.executionId), JSON.stringify({ sequence: this.sequence })),
      put(
        keys.mergeWork(p, this.executionId),
        JSON.stringify({
          sequence: this.sequence,
          generations_done: Math.min(total, Math.round((total * this.steps) / MERGING_STEPS)),
          generations_total: total,
          rows_merged: this.sequence * 100_000,
        }),
      ),
    );
    return { ops, publishes };
  }
}

export class CatchingUpLife implements Life {
  private phase: "catching_up" | "normal" | "outage";
  private since: number;
  private job = 1;

  constructor(
    private readonly prefix: string,
    private readonly writers: Writers,
    active: boolean,
    startMs: number,
    private readonly random: () => number,
  ) {
    this.phase = active ? "catching_up" : "normal";
    this.since = startMs;
  }

  step(tick: number, now: number): LifeStep {
    const p = this.prefix;
    const target = INCIDENT.catchingUpTarget;
    const ops: SimOp[] = [];
    const publishes = flushNow(
      this.writers,
      target,
      tick,
      this.phase === "outage" ? 40 : INCIDENT_FLUSH_MS / 1000,
      now,
      this.random,
    );
    const pending = this.writers.pending(target);
    if (this.phase === "catching_up") {
      if (pending <= 2) {
        ops.push(del(keys.catchupActive(p, target)));
        this.phase = "normal";
        this.since = now;
      } else if (tick % 60 === 0) publishes.push(...this.writers.merge(target, CATCHUP_PER_MINUTE, now));
    } else if (this.phase === "normal") {
      // merged whole every other minute while its merges run as usual
      if (tick % 120 === 0) publishes.push(...this.writers.merge(target, pending, now));
      if (now - this.since >= CATCHUP_NORMAL_MS) {
        this.phase = "outage";
        this.since = now;
      }
    } else if (now - this.since >= CATCHUP_OUTAGE_MS) {
      this.job += 1;
      ops.push(put(keys.catchupActive(p, target), `catchup-job-${this.job}`));
      this.phase = "catching_up";
      this.since = now;
    }
    return { ops, publishes };
  }
}
