// The live world reaches a steady state (lib/sim/README.md "Rates"): the realistic and
// incidents fleet, stepped tick by tick on a clock the test owns (no sleeping, no etcd: its
// writes applied to a store in memory), settles within the 10-minute warm-up, and then the
// tables with pending work, the planner's line per kind (the console's own plan of the
// store) and the legacy queue stay within ±20 %, while merges finish as fast as work arrives
// and no table the planner calls due is missed by the legacy queue (but the incidents and the
// planner canary's). The canary (./canary.ts, from minute 1 here) is the planner's: the
// legacy queue never takes its tables, the leader's plan places their merges on the
// executors' capacity, and the console's plan names `planner` their acting world.
import { describe, expect, it } from "vitest";
import { planFleet } from "@/lib/planner/plan";
import { scoreTables } from "@/lib/planner/score";
import { compareShadow, mergeTaskTargets } from "@/lib/planner/shadow";
import { foldSnapshot } from "@/lib/snapshot/demand-index";
import { plannerFleet } from "@/lib/snapshot/planner-input";
import { scenarioKvs } from "./seed";
import { rng } from "./seed-kv";
import { actingWorld } from "@/lib/planner/forecast/forecasts";
import { bindDeadlineOps } from "./bind-deadlines";
import { CANARY_TABLES } from "./canary";
import { World } from "./world";
import { WorldStore } from "./world-store";

const P = "/steady";
const START = 1_800_000_000_000;
const MINUTE_TICKS = 60;

/**
 * The store's plan as the console makes it: tables with pending work, each kind's line, and
 * the due tables the legacy queue has missed (§6.2 discovery_miss) outside the incidents.
 */
function consolePlan(store: WorldStore, now: number) {
  const snapshot = store.snapshot(now);
  const tables = foldSnapshot(snapshot);
  const plan = planFleet(plannerFleet({ snapshot, tables }), now);
  const reality = {
    queued: mergeTaskTargets(snapshot.queue.map((t) => t.task)),
    running: mergeTaskTargets(snapshot.running.map((t) => t.task)),
  };
  const missed = compareShadow(scoreTables(tables, now), new Set(), reality)!.targets.discovery_miss;
  return {
    pending: plan.tables_with_pending,
    lines: plan.line.sizes(),
    missed: missed.filter((t) => !t.startsWith("incident/") && !CANARY.has(t)),
    acting: CANARY_TABLES.map((t) => actingWorld(plan.byTarget.get(t)!.policy.effective.mode)),
  };
}

const CANARY = new Set(CANARY_TABLES);
/** the tick the fleet is policy-aware and the canary starts */
const UPGRADE_TICK = 60;

/** The leader's cycle in memory (./master-cycle.ts without etcd): bind deadlines and the planner's placements. */
function leaderCycle(store: WorldStore, world: World, now: number): void {
  const snapshot = store.snapshot(now);
  const placed = world.plannerCycle(snapshot, now);
  store.apply([...bindDeadlineOps(snapshot.assignments, now), ...placed.ops], []);
  world.canary.assigned(placed.assigned);
}

/** Per executor: merge slots held by the planner's assignments of the canary (assigned or bound), and its merge slots. */
function reservations(store: WorldStore, now: number) {
  const snapshot = store.snapshot(now, ["assignments/", "executors/"]);
  const held = new Map<string, number>();
  for (const { assignment: a } of snapshot.assignments)
    if (CANARY.has(a.target) && (a.state === "assigned" || a.state === "bound"))
      held.set(a.executor, (held.get(a.executor) ?? 0) + 1);
  return [...held].map(([executor, n]) => ({
    executor,
    n,
    slots: snapshot.executors.find((e) => e.id === executor)?.heartbeat.slots_total.merge_wal ?? 0,
  }));
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
/** every value within ±`pct` % of the values' mean */
const within = (xs: number[], pct: number) => xs.every((x) => Math.abs(x - mean(xs)) <= (mean(xs) * pct) / 100);

describe("the live world", () => {
  it("settles within the 10-minute warm-up and then stays within ±20 %, finishing work as it arrives", () => {
    const store = new WorldStore(P, [...scenarioKvs("realistic", P, START), ...scenarioKvs("incidents", P, START)]);
    const world = new World(store.snapshot(START), {
      prefix: P,
      startMs: START,
      random: rng(42),
      leaderToken: "t",
      upgradeAfterTicks: UPGRADE_TICK,
    });
    store.apply(world.onLease(START), []);
    const seeded = consolePlan(store, START);
    const perMinute: { queue: number; enqueued: number; finished: number }[] = [];
    const plans: ReturnType<typeof consolePlan>[] = [];
    let queue = 0;
    const legacyOnCanary = new Set<string>();
    const overbooked: unknown[] = [];
    let canaryDone = 0;
    for (let tick = 0; tick < 22 * MINUTE_TICKS; tick++) {
      const now = START + tick * 1000;
      const step = world.step(tick, now);
      store.apply(step.ops, step.publishes);
      if (tick % world.rates.reconcileEveryTicks === 1) {
        leaderCycle(store, world, now);
        overbooked.push(...reservations(store, now).filter((r) => r.n > r.slots));
      }
      if (tick > UPGRADE_TICK)
        for (const op of step.ops)
          if (op.type === "put" && op.key.startsWith(`${P}/queue/`) && CANARY.has(JSON.parse(op.value).target))
            legacyOnCanary.add(JSON.parse(op.value).target);
      if (tick === 10 * MINUTE_TICKS) canaryDone = world.canary.stats.done;
      queue += world.legacy.queued();
      if ((tick + 1) % MINUTE_TICKS === 0) {
        const { enqueued, done, failed } = world.legacy.stats;
        perMinute.push({ queue: queue / MINUTE_TICKS, enqueued, finished: done + failed });
        queue = 0;
      }
      if (tick >= 10 * MINUTE_TICKS && tick % (4 * MINUTE_TICKS) === 0) plans.push(consolePlan(store, now));
    }
    // the seed is not the steady state: its 300-odd due tables are worked off first
    expect(seeded.lines.merge_wal).toBeGreaterThan(250);
    expect(plans).toHaveLength(3);
    const steady = perMinute.slice(10);
    expect(
      within(
        steady.map((m) => m.queue),
        20,
      ),
      JSON.stringify(steady.map((m) => m.queue)),
    ).toBe(true);
    expect(
      within(
        plans.map((p) => p.pending),
        20,
      ),
      JSON.stringify(plans),
    ).toBe(true);
    expect(
      within(
        plans.map((p) => p.lines.merge_wal),
        20,
      ),
      JSON.stringify(plans),
    ).toBe(true);
    // the sweep queues every table before the planner calls it due: no discovery miss but the incidents'
    expect(plans.map((p) => p.missed)).toEqual([[], [], []]);
    // a line is a line: the steady world keeps tables waiting (not an idle fleet) but far fewer than seeded
    expect(mean(plans.map((p) => p.lines.merge_wal))).toBeGreaterThan(20);
    expect(mean(plans.map((p) => p.lines.merge_wal))).toBeLessThan(seeded.lines.merge_wal / 2);
    // after the warm-up the master finishes merges at the rate its sweep enqueues them (±10 %)
    const enqueued = steady.at(-1)!.enqueued - steady[0].enqueued;
    const finished = steady.at(-1)!.finished - steady[0].finished;
    expect(finished).toBeGreaterThan(300);
    expect(Math.abs(finished - enqueued)).toBeLessThanOrEqual(enqueued * 0.1);

    // the canary: planner mode, the console's acting world `planner`; the legacy sweep never
    // queues its tables after the switch; the leader's plan runs their merges, never holding
    // more slots on an executor than it has; every one of them merged in the steady minutes
    expect(plans.map((p) => p.acting)).toEqual(plans.map(() => CANARY_TABLES.map(() => "planner")));
    expect([...legacyOnCanary]).toEqual([]);
    expect(overbooked).toEqual([]);
    expect(world.canary.stats.done - canaryDone).toBeGreaterThan(CANARY_TABLES.length * 2);
    const merged = new Set<string>();
    const snapshot = store.snapshot(START + 22 * MINUTE_TICKS * 1000, ["assignments/"]);
    for (const { assignment } of snapshot.assignments)
      if (
        assignment.state !== "shadow" &&
        !assignment.target.startsWith("incident/") &&
        assignment.created_ms >= START + 10 * MINUTE_TICKS * 1000
      )
        merged.add(assignment.target);
    expect([...merged].sort()).toEqual([...CANARY_TABLES].sort());
    // in the master's wire format (§2.5): every record the console's parser keeps (none skipped),
    // each placement reserving one merge slot under the leader's token
    expect(snapshot.assignments).toHaveLength(store.count("assignments/"));
    for (const { assignment: a } of snapshot.assignments.filter((r) => CANARY.has(r.target))) {
      expect([a.kind, a.reserved_slots, a.planner_token, a.needs_write_turn]).toEqual([
        "merge_wal",
        { merge_wal: 1 },
        "t",
        true,
      ]);
    }
  }, 120_000);
});
