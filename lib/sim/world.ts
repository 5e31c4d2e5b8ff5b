// The live world, pure: built from one read of the seeded fleet, it steps one tick at a
// time on a clock it is given and returns what to write (./live.ts writes it to etcd; a test
// may apply it to a store in memory). Its parts: the writers (./writers.ts), the master's
// legacy side (./legacy.ts), the executors' heartbeats and the incidents' lives
// (./incident-*.ts). The leader's reconcile and shadow pass read etcd, so they run in
// ./master-cycle.ts, every `reconcileEveryTicks`.
import type { TableDemand } from "@/lib/schema/demand";
import { keys } from "@/lib/schema/keys";
import type { FleetSnapshot } from "@/lib/snapshot/types";
import { INCIDENT } from "./scenarios/incidents";
import { fleetExecutors, heartbeatValue, leaderKvs, SIM_VERSIONS, type SimExecutor } from "./scenarios/fleet";
import { LegacyMaster } from "./legacy";
import { CANARY_TABLES, PlannerCanary } from "./canary";
import { put, type SimOp } from "./ops";
import { WORLD_RATES, type WorldRates } from "./rates";
import { Writers, type Publish } from "./writers";
import { CatchingUpLife, MergingLife, seededTask, StalledMergeLife, type Life } from "./incident-merges";
import { BrokenStoreLife } from "./incident-failures";
import { DrainingExecutorLife, OrphanLife } from "./incident-fleet";

/**
 * The demo's upgrade and canary switch: 5 minutes in (at 1 s a tick), inside the 10-minute
 * warm-up, so the legacy queue has settled to its level without the canary's twelve tables
 * before the steady minutes are judged (README.md "Rates"; at 10 minutes the switch's dip
 * and rebound fell in minutes 10–25 of the soak).
 */
const UPGRADE_AFTER_TICKS = 300;

export interface WorldOptions {
  prefix: string;
  /** the world's clock at its first tick */
  startMs: number;
  random: () => number;
  /** the leader's token (its shadow rows and assignments carry it) */
  leaderToken: string;
  rates?: Partial<WorldRates>;
  /** the writers' flushes per tick in all (default: each table's rate, README.md "Rates") */
  flushesPerTick?: number;
  /** after this many ticks `master-b` runs the policy-aware version (default UPGRADE_AFTER_TICKS), and the planner canary starts */
  upgradeAfterTicks?: number;
  /** the tables the planner canary puts in planner mode (default CANARY_TABLES; [] for none) */
  canary?: readonly string[];
}

export interface WorldStep {
  ops: SimOp[];
  publishes: Publish[];
}

export interface WorldStats {
  flushes: number;
  merges: number;
}

export class World {
  readonly rates: Readonly<WorldRates>;
  readonly writers: Writers;
  readonly legacy: LegacyMaster;
  /** the planner canary (./canary.ts): its tables' merges are placed by the leader's plan */
  readonly canary: PlannerCanary;
  /** the executors that heartbeat (the fleet's six, and `worker-draining` when seeded) */
  readonly executors: SimExecutor[];
  readonly stats: WorldStats = { flushes: 0, merges: 0 };
  private readonly lives: Life[] = [];

  constructor(
    snapshot: FleetSnapshot,
    private readonly opts: WorldOptions,
  ) {
    this.rates = { ...WORLD_RATES, ...opts.rates };
    const { prefix, startMs, random } = opts;
    this.writers = new Writers(
      snapshot.demandEvents.map((e) => ({ target: e.target, shard: e.shard, event: e.event })),
      this.rates,
      opts.flushesPerTick,
    );
    this.executors = fleetExecutors(startMs);
    const seeded = new Map(snapshot.executors.map((e) => [e.id, e.heartbeat]));
    const draining = seeded.get(INCIDENT.drainingExecutor);
    if (draining) {
      const executor: SimExecutor = {
        id: INCIDENT.drainingExecutor,
        kind: draining.kind,
        kinds: draining.kinds,
        slots_total: draining.slots_total,
        bytes_total: draining.bytes_total,
        draining: draining.draining,
      };
      this.executors.push(executor);
      this.lives.push(new DrainingExecutorLife(executor, startMs));
    }
    this.canary = new PlannerCanary(prefix, opts.canary ?? CANARY_TABLES, this.writers, this.rates, random);
    this.canary.resume(snapshot);
    this.legacy = new LegacyMaster(prefix, this.executors, this.writers, this.rates, random, this.canary);
    this.legacy.adopt([
      ...snapshot.queue.map((t) => ({ dir: "queue/", record: t.task })),
      ...snapshot.running.map((t) => ({ dir: "running/", record: t.task })),
      ...snapshot.tasks.map((t) => ({ dir: "tasks/", record: t.task })),
    ]);
    this.addIncidentLives(snapshot);
  }

  private addIncidentLives(snapshot: FleetSnapshot): void {
    const { prefix, startMs, random } = this.opts;
    const running = snapshot.running.map((t) => t.task);
    const executionOf = (target: string) => snapshot.mergeExecutions.find((e) => e.target === target)?.execution;
    const stalled = executionOf(INCIDENT.stalledTarget);
    if (stalled)
      this.lives.push(
        new StalledMergeLife(
          prefix,
          this.writers,
          seededTask(running, INCIDENT.stalledTarget, startMs),
          stalled.id,
          startMs,
          random,
        ),
      );
    const merging = executionOf(INCIDENT.mergingTarget);
    if (merging) {
      const sequence = snapshot.mergeProgress.find((p) => p.executionId === merging.id)?.progress.sequence ?? 0;
      this.lives.push(
        new MergingLife(
          prefix,
          this.writers,
          seededTask(running, INCIDENT.mergingTarget, startMs),
          merging.id,
          sequence,
          random,
        ),
      );
    }
    if (this.writers.roleOf(INCIDENT.catchingUpTarget) !== null) {
      const active = snapshot.catchupActive.some((c) => c.target === INCIDENT.catchingUpTarget);
      this.lives.push(new CatchingUpLife(prefix, this.writers, active, startMs, random));
    }
    if (snapshot.cooldowns.length + snapshot.mergeFailures.length > 0)
      this.lives.push(
        new BrokenStoreLife(
          prefix,
          {
            cooldowns: snapshot.cooldowns.map((c) => ({ kind: c.kind, target: c.target, cooldown: c.cooldown })),
            failures: snapshot.mergeFailures.map((f) => ({
              target: f.target,
              endpoint: f.endpoint,
              failure: f.failure,
            })),
          },
          startMs,
          (id, at) => this.legacy.remember(id, at),
        ),
      );
    if (snapshot.assignments.some((a) => a.target === INCIDENT.orphanTarget))
      this.lives.push(new OrphanLife(prefix, this.opts.leaderToken, startMs));
  }

  /**
   * The planner part of the leader's cycle at one read (./master-cycle.ts): the planner-mode
   * tables as read, and their merges the plan places (./canary.ts); nothing before the canary
   * starts. Hand the written assignments to `canary.assigned`.
   */
  plannerCycle(
    snapshot: FleetSnapshot,
    now: number,
    folded?: ReadonlyMap<string, TableDemand>,
  ): ReturnType<PlannerCanary["placements"]> {
    if (!this.canary.started) return { ops: [], assigned: [] };
    this.canary.modesOf(snapshot);
    return this.canary.placements(snapshot, this.opts.leaderToken, now, this.legacy.activeTargets(), folded);
  }

  /** What a new `live` lease carries: the leader, every heartbeat, the running merges' claims. */
  onLease(now: number): SimOp[] {
    const { prefix, leaderToken } = this.opts;
    return [
      ...leaderKvs(prefix, now, leaderToken).kvs.map((kv) => put(kv.key, kv.value, "live")),
      ...this.heartbeats(now),
      ...this.legacy.reclaim(),
    ];
  }

  /** One tick at `now`: flushes, the legacy side, heartbeats (every `heartbeatEveryTicks`) and the lives. */
  step(tick: number, now: number): WorldStep {
    const publishes = this.writers.flushTick(now, this.opts.random);
    this.stats.flushes += publishes.length;
    const planned = this.canary.tick(now);
    const upgrade = tick === (this.opts.upgradeAfterTicks ?? UPGRADE_AFTER_TICKS);
    // every master is policy-aware now: the canary's tables go to planner mode (§7.3, P2),
    // before this tick's legacy sweep, which leaves them from this tick on
    const started = upgrade ? this.canary.start() : [];
    const legacy = this.legacy.tick(tick, now);
    this.stats.merges += legacy.finished + planned.finished;
    const ops = [...planned.ops, ...started, ...legacy.ops];
    publishes.push(...planned.publishes, ...legacy.publishes);
    let heartbeat = tick % this.rates.heartbeatEveryTicks === 0;
    if (upgrade) {
      for (const e of this.executors) if (e.kind === "resident_master") e.version = SIM_VERSIONS.current;
      heartbeat = true;
    }
    for (const life of this.lives) {
      const step = life.step(tick, now);
      ops.push(...step.ops);
      publishes.push(...step.publishes);
      heartbeat ||= step.heartbeat === true;
    }
    if (heartbeat) ops.push(...this.heartbeats(now));
    return { ops, publishes };
  }

  private heartbeats(now: number): SimOp[] {
    return this.executors.map((e) => put(keys.executor(this.opts.prefix, e.id), heartbeatValue(e, now), "live"));
  }
}
