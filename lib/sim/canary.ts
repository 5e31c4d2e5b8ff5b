// The planner canary of the live world (scheduler-model.md §7.3: `mode: planner` is P2, and
// needs every master policy-aware): once the fleet is homogeneous, a few tables get a policy
// document with mode `planner` (README.md "The planner canary": which and why), the legacy
// sweep leaves them (./legacy.ts), and the leader places their merges by the planner's own
// plan of its read (lib/planner/plan `planFleet`, the console's plan of the same revision):
// each placement of a planner-mode table becomes an `assigned` assignment (§2.5, the
// master's wire format) on the executor the plan chose, with its reserved slot and bytes and
// a 30 s bind deadline. The executor binds it at its next tick (`bound`) and runs the merge
// under an execution fence holding the target lock (§2.8), reporting progress; the finished
// merge publishes its merged marks and the assignment is `released` (the leader deletes it an
// hour later, ./bind-deadlines.ts). Its slot is the executor's: the legacy claimers count it
// (./legacy.ts), and the plan counts the assignment (§5.2). Pure: the world's tick and the
// leader's cycle hand in the clock and the read.
import type { TableDemand } from "@/lib/schema/demand";
import { keys, policyKeys } from "@/lib/schema/keys";
import type { Assignment } from "@/lib/schema/assignments";
import { uuidv7 } from "@/lib/schema/task-id";
import { planFleet } from "@/lib/planner/plan";
import { foldSnapshot } from "@/lib/snapshot/demand-index";
import { plannerFleet } from "@/lib/snapshot/planner-input";
import type { FleetSnapshot } from "@/lib/snapshot/types";
import { simExecution } from "./legacy";
import { del, put, type SimOp } from "./ops";
import type { WorldRates } from "./rates";
import type { Publish, Writers } from "./writers";

/**
 * The canary (README.md "The planner canary"): twelve backlogged tables outside `ingest/`
 * (their writers are hot, so each is due again as soon as its merge ends), none with a seeded
 * legacy task, each of one shard (the first twelve such by name). More than the eight a cycle
 * places (§5.5), so the ones behind in the planner's order wait for later cycles (sixteen
 * take too much of the legacy queue's work: its line no longer holds within ±20 %,
 * world.test.ts). One shard:
 * a backlogged table of several keeps its oldest generations on its less full shards for ever
 * here (a pass merges what arrived, fullest shards first), so the P1 order's age boost (§4.1)
 * puts it first every cycle and, due again at once, it would take the placements of the rest.
 */
export const CANARY_TABLES: readonly string[] = [
  "clicks/table-00092",
  "clicks/table-00342",
  "events/table-00231",
  "events/table-00271",
  "inventory/table-00078",
  "logs/table-00275",
  "logs/table-00325",
  "metrics/table-00074",
  "metrics/table-00094",
  "metrics/table-00144",
  "metrics/table-00344",
  "orders/table-00070",
];

/** §2.5: an `assigned` unit must be bound within this long, else the leader releases it. */
const BIND_DEADLINE_MS = 30_000;

interface PlannedMerge {
  key: string;
  assignment: Assignment;
  executionId: string;
  /** 0 until bound */
  ticksLeft: number;
  sequence: number;
  take: number;
}

interface CanaryStep {
  ops: SimOp[];
  publishes: Publish[];
  finished: number;
}

export class PlannerCanary {
  /** tables whose effective mode is `planner` (the canary's once started, else as the leader last read them) */
  private readonly planned = new Set<string>();
  /** the merges the planner placed, by target: assigned (not yet bound) or running */
  private readonly merges = new Map<string, PlannedMerge>();
  private counter = 0;
  /** the leader places planner-mode tables (the canary's policies are written, or were found) */
  started = false;
  private written = false;
  readonly stats = { assigned: 0, done: 0, failed: 0 };

  constructor(
    private readonly prefix: string,
    private readonly targets: readonly string[],
    private readonly writers: Writers,
    private readonly rates: Readonly<WorldRates>,
    private readonly random: () => number,
  ) {}

  /** The policy documents that put the canary in planner mode (an admin's, written once the fleet is homogeneous). */
  start(): SimOp[] {
    if (this.written) return [];
    this.written = true;
    this.started = true;
    const tables = this.targets.filter((t) => this.writers.roleOf(t) !== null);
    for (const t of tables) this.planned.add(t);
    return tables.map((t) => put(policyKeys.tablePolicy(this.prefix, t), JSON.stringify({ v: 1, mode: "planner" })));
  }

  /** A world built on a fleet with tables in planner mode already (a restarted simulator): the planner acts on them from the start. */
  resume(snapshot: FleetSnapshot): void {
    if (!snapshot.policies.some((p) => p.document.mode === "planner")) return;
    this.started = true;
    this.modesOf(snapshot);
  }

  /** Whether the planner acts on the table (the legacy sweep leaves it). */
  has(target: string): boolean {
    return this.planned.has(target);
  }

  /** Slots the planner's assignments hold on an executor (§5.2: assigned or bound). */
  slotsUsed(executor: string): number {
    let n = 0;
    for (const m of this.merges.values()) if (m.assignment.executor === executor) n++;
    return n;
  }

  /**
   * The leader's placements at one read: the plan (lib/planner/plan, the console's own
   * planner) of the tables it acts on — those in planner mode; the legacy queue's are not its
   * to place, so they take none of its placements per cycle — against the executors'
   * capacity as read (heartbeats, assignments, fences), and an assignment for each placement
   * of a table that has no merge of the planner's or the legacy queue's already (`busy`).
   * Pure: the world learns of them through `assigned` once they are written.
   */
  placements(
    snapshot: FleetSnapshot,
    leaderToken: string,
    now: number,
    busy: ReadonlySet<string>,
    folded: ReadonlyMap<string, TableDemand> = foldSnapshot(snapshot),
  ): { ops: SimOp[]; assigned: { key: string; assignment: Assignment }[] } {
    const fleet = plannerFleet({ snapshot, tables: folded });
    const mine = new Map([...fleet.tables].filter(([target]) => this.planned.has(target)));
    const plan = planFleet({ ...fleet, tables: mine }, now);
    const ops: SimOp[] = [];
    const assigned: { key: string; assignment: Assignment }[] = [];
    for (const p of plan.placements) {
      if (p.kind !== "merge_wal" || plan.byTarget.get(p.target)?.policy.effective.mode !== "planner") continue;
      if (this.merges.has(p.target) || busy.has(p.target)) continue;
      const unitId = uuidv7(now, 0x6000_0000 + (this.counter++ % 0x0fff_ffff));
      const assignment: Assignment = {
        v: 1,
        unit_id: unitId,
        kind: "merge_wal",
        target: p.target,
        needs_write_turn: true,
        executor: p.executor,
        planner_token: leaderToken,
        reserved_slots: { merge_wal: 1 },
        reserved_bytes: p.reserved_bytes,
        state: "assigned",
        created_ms: now,
        bind_deadline_ms: now + BIND_DEADLINE_MS,
      };
      const key = keys.assignment(this.prefix, p.target, unitId);
      ops.push(put(key, JSON.stringify(assignment)));
      assigned.push({ key, assignment });
    }
    return { ops, assigned };
  }

  /** The planner-mode tables of a read (an admin may switch one, or the fleet default, through the console). */
  modesOf(snapshot: FleetSnapshot): void {
    if (!this.started) return;
    const byTarget = new Map(snapshot.policies.map((p) => [p.target, p.document.mode]));
    const fallback = byTarget.get(null);
    this.planned.clear();
    for (const t of this.writers.targets())
      if ((byTarget.get(t) ?? fallback) === "planner" && this.writers.roleOf(t) !== "incident") this.planned.add(t);
  }

  /** Written assignments: their executors bind them at the next tick. */
  assigned(list: readonly { key: string; assignment: Assignment }[]): void {
    for (const { key, assignment } of list) {
      if (this.merges.has(assignment.target)) continue;
      this.stats.assigned += 1;
      this.merges.set(assignment.target, {
        key,
        assignment,
        executionId: `exec-plan-${assignment.unit_id}`,
        ticksLeft: 0,
        sequence: 0,
        take: 0,
      });
    }
  }

  /** One tick: assigned units bound and started, running merges reporting progress or finishing. */
  tick(now: number): CanaryStep {
    const ops: SimOp[] = [];
    const publishes: Publish[] = [];
    let finished = 0;
    for (const [target, m] of this.merges) {
      if (m.ticksLeft === 0) {
        ops.push(...this.bindOps(m));
        continue;
      }
      m.ticksLeft -= 1;
      if (m.ticksLeft > 0) {
        m.sequence += 1;
        if (m.sequence % this.rates.progressEveryTicks === 0)
          ops.push(put(keys.mergeProgress(this.prefix, m.executionId), JSON.stringify({ sequence: m.sequence })));
        continue;
      }
      const ok = this.random() >= this.rates.failureShare;
      if (ok) publishes.push(...this.writers.merge(target, m.take, now));
      if (ok) this.stats.done += 1;
      else this.stats.failed += 1;
      ops.push(
        put(m.key, JSON.stringify({ ...m.assignment, state: "released" })),
        del(keys.mergeExecution(this.prefix, target)),
        del(keys.targetLock(this.prefix, target)),
        del(keys.mergeProgress(this.prefix, m.executionId)),
      );
      this.merges.delete(target);
      finished += 1;
    }
    return { ops, publishes, finished };
  }

  private bindOps(m: PlannedMerge): SimOp[] {
    const p = this.prefix;
    const { target, executor } = m.assignment;
    const [min, max] = this.rates.mergeTicks;
    m.ticksLeft = min + Math.floor(this.random() * (max - min + 1));
    m.take = this.writers.startPass(target);
    m.assignment = { ...m.assignment, state: "bound" };
    return [
      put(m.key, JSON.stringify(m.assignment)),
      put(keys.mergeExecution(p, target), JSON.stringify(simExecution(m.executionId, target, executor))),
      put(keys.targetLock(p, target), `merge-execution:${m.executionId}`),
      put(keys.mergeProgress(p, m.executionId), JSON.stringify({ sequence: 0 })),
    ];
  }
}
