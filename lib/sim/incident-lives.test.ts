// The seeded incidents live their lives in the live world (lib/sim/README.md "Incident
// lives"), by the master's rules: stepped tick by tick on the test's own clock with the
// writes applied to a store in memory (no etcd, no sleeping), over 70 simulated minutes.
import { beforeAll, describe, expect, it } from "vitest";
import { cooldownDurationSecs } from "@/lib/planner/cooldown";
import { backoffSecs } from "@/lib/planner/failure-ledger";
import type { FleetSnapshot } from "@/lib/snapshot/types";
import { bindDeadlineOps } from "./bind-deadlines";
import { BIND_TIMEOUT_MS, DRAIN_SPELL_MS, ORPHAN_EVERY_MS } from "./incident-fleet";
import { STALL_RECLAIMED_AFTER_MS } from "./incident-merges";
import { INCIDENT } from "./scenarios/incidents";
import { scenarioKvs } from "./seed";
import { rng } from "./seed-kv";
import { World } from "./world";
import { WorldStore } from "./world-store";

const P = "/lives";
const START = 1_800_000_000_000;
const MINUTE = 60_000;

/** The families the lives touch (not the demand events: the store is read every minute). */
const LIVES = [
  "executors/",
  "assignments/",
  "tasks/",
  "cooldown/",
  "merge-failures/",
  "target-locks/",
  "merge-executions/",
  "merge-progress/",
  "catchup-active/",
];

/** The store read at every minute of the run. */
const minutes: FleetSnapshot[] = [];
let world: World;

beforeAll(() => {
  const store = new WorldStore(P, [...scenarioKvs("realistic", P, START), ...scenarioKvs("incidents", P, START)]);
  world = new World(store.snapshot(START), { prefix: P, startMs: START, random: rng(7), leaderToken: "tok" });
  store.apply(world.onLease(START), []);
  for (let tick = 0; tick <= 70 * 60; tick++) {
    const now = START + tick * 1000;
    const step = world.step(tick, now);
    store.apply(step.ops, step.publishes);
    // the leader's cycle every 30 s releases what is past its bind deadline (./master-cycle.ts)
    if (tick % 30 === 0) store.apply(bindDeadlineOps(store.snapshot(now, ["assignments/"]).assignments, now), []);
    if (tick % 60 === 0) minutes.push(store.snapshot(now, LIVES));
  }
}, 120_000);

const at = (minute: number) => minutes[minute];
const executionOf = (s: FleetSnapshot, target: string) => s.mergeExecutions.find((e) => e.target === target);

describe("incident lives", () => {
  it("a stalled merge is reclaimed by the watchdog, finishes, and a new one stalls again", () => {
    const reclaimMinute = STALL_RECLAIMED_AFTER_MS / MINUTE;
    const stalled = executionOf(at(reclaimMinute - 1), INCIDENT.stalledTarget)!;
    expect([stalled.execution.id, stalled.execution.phase]).toEqual([INCIDENT.stalledExecutionId, "running"]);
    expect(at(reclaimMinute - 1).mergeProgress.some((p) => p.executionId === INCIDENT.stalledExecutionId)).toBe(false);
    // reclaimed: recovering on another worker, progress reported
    const recovering = executionOf(at(reclaimMinute + 1), INCIDENT.stalledTarget)!.execution;
    expect([recovering.phase, recovering.reclaimed, recovering.instance]).toEqual(["recovering", true, "worker-2"]);
    expect(
      at(reclaimMinute + 1).mergeProgress.find((p) => p.executionId === INCIDENT.stalledExecutionId)?.progress.sequence,
    ).toBeGreaterThan(0);
    // finished: the fence gone, its task done, the table merged
    const after = at(reclaimMinute + 3);
    expect(executionOf(after, INCIDENT.stalledTarget)).toBeUndefined();
    expect(after.targetLocks.some((l) => l.target === INCIDENT.stalledTarget)).toBe(false);
    const done = after.tasks.filter((t) => t.task.target === INCIDENT.stalledTarget).map((t) => t.task.state);
    expect(done).toEqual(["done"]);
    // the next merge there stalls again: a new execution holding the lock, no progress
    const again = at(reclaimMinute + 9);
    const next = executionOf(again, INCIDENT.stalledTarget)!.execution;
    expect([next.id, next.phase]).toEqual([`${INCIDENT.stalledExecutionId}-1`, "running"]);
    expect(again.targetLocks.find((l) => l.target === INCIDENT.stalledTarget)?.value).toBe(
      `merge-execution:${next.id}`,
    );
    expect(again.mergeProgress.some((p) => p.executionId === next.id)).toBe(false);
  });

  it("the broken stores fail, cool down for the §9.2 durations, and fail again", () => {
    const cooldown = (s: FleetSnapshot, kind: string, target: string) =>
      s.cooldowns.find((c) => c.kind === kind && c.target === target)!.cooldown;
    // compact on broken-store: seeded 5 failures cooling until +30 min; the retry after it fails (6: 4,800 s)
    expect(cooldown(at(29), "compact", INCIDENT.brokenStore)).toMatchObject({
      failures: 5,
      until_ms: START + 30 * MINUTE,
    });
    const compact = cooldown(at(33), "compact", INCIDENT.brokenStore);
    expect(compact.failures).toBe(6);
    const failedAt = compact.until_ms! - cooldownDurationSecs(6) * 1000;
    expect(failedAt).toBeGreaterThan(START + 30 * MINUTE);
    expect(
      at(33).tasks.some(
        (t) => t.task.kind === "compact" && t.task.state === "failed" && t.task.finished_at === failedAt,
      ),
    ).toBe(true);
    // index_id: 2 failures (not cooling) → fails at the first sweep → 3 (600 s) → fails after it → 4 (1,200 s) → …
    const failed = at(70)
      .tasks.filter((t) => t.task.kind === "index_id" && t.task.target === INCIDENT.brokenStore)
      .map((t) => t.task.finished_at!);
    expect(failed.length).toBeGreaterThanOrEqual(3);
    expect(failed[0] - START).toBeLessThan(3 * MINUTE);
    for (let i = 1; i < failed.length; i++) {
      // each retry waits out the window of the failure before it (the sweep looks once a minute)
      const window = cooldownDurationSecs(2 + i) * 1000;
      expect(failed[i] - failed[i - 1]).toBeGreaterThanOrEqual(window);
      expect(failed[i] - failed[i - 1]).toBeLessThan(window + 2 * MINUTE);
    }
    expect(cooldown(at(70), "index_id", INCIDENT.brokenStore).failures).toBe(2 + failed.length);
    // repair on broken-store-2: 3 failures until +7 min, then 4 (1,200 s)
    expect(cooldown(at(6), "repair", INCIDENT.brokenStoreRepeat).failures).toBe(3);
    expect(cooldown(at(10), "repair", INCIDENT.brokenStoreRepeat).failures).toBe(4);
    // the ledger: master:compact retries at its next_retry_ms and fails again with the §9.1 backoff
    const ledger = (s: FleetSnapshot) =>
      s.mergeFailures.find((f) => f.target === INCIDENT.brokenStore && f.endpoint === "master:compact")!.failure;
    expect(ledger(at(0)).consecutive_attempts).toBe(5);
    const later = ledger(at(10));
    expect(later.consecutive_attempts).toBeGreaterThan(6);
    expect(later.next_retry_ms - later.last_failure_ms).toBe(
      backoffSecs("retryable", later.consecutive_attempts) * 1000,
    );
  });

  it("the orphan assignment is released at its bind deadline, and a new one comes now and then", () => {
    const orphans = (s: FleetSnapshot) => s.assignments.filter((a) => a.target === INCIDENT.orphanTarget);
    expect(orphans(at(0)).map((a) => [a.unitId, a.assignment.state])).toEqual([[INCIDENT.orphanUnitId, "released"]]);
    const madeMinute = ORPHAN_EVERY_MS / MINUTE;
    // past the seeded one's hour it is gone; the new one, to an executor that stopped heartbeating, released after its deadline
    const fresh = orphans(at(madeMinute + 1)).filter((a) => a.unitId !== INCIDENT.orphanUnitId);
    expect(fresh).toHaveLength(1);
    const a = fresh[0].assignment;
    expect([a.executor, a.state, a.bind_deadline_ms - a.created_ms]).toEqual([
      INCIDENT.orphanExecutor,
      "released",
      BIND_TIMEOUT_MS,
    ]);
    expect(at(madeMinute + 1).executors.some((e) => e.id === INCIDENT.orphanExecutor)).toBe(false);
    expect(orphans(at(65)).some((x) => x.unitId === INCIDENT.orphanUnitId)).toBe(false);
    expect(orphans(at(65)).length).toBeGreaterThanOrEqual(3);
  });

  it("the catching-up table catches up, runs normally, and after an outage catches up again", () => {
    const job = (m: number) => at(m).catchupActive.find((c) => c.target === INCIDENT.catchingUpTarget)?.value;
    expect(job(0)).toBe(INCIDENT.catchupJob);
    const caughtUp = minutes.findIndex((s, m) => m > 0 && job(m) === undefined);
    expect(caughtUp).toBeGreaterThan(5);
    expect(caughtUp).toBeLessThan(15);
    // a normal spell (15 min) and an outage (20 min): then a new catch-up job
    expect(job(caughtUp + 30)).toBeUndefined();
    expect(job(caughtUp + 37)).toBe("catchup-job-2");
  });

  it("the draining executor drains, comes back, and drains again; merges run on it while it is back", () => {
    const draining = (m: number) => at(m).executors.find((e) => e.id === INCIDENT.drainingExecutor)!.heartbeat.draining;
    const spell = DRAIN_SPELL_MS / MINUTE;
    expect([draining(1), draining(spell + 1), draining(2 * spell + 1)]).toEqual([true, false, true]);
    const onIt = (s: FleetSnapshot) =>
      s.mergeExecutions.filter((e) => e.execution.instance === INCIDENT.drainingExecutor).length;
    expect(onIt(at(1))).toBe(0);
    expect(Math.max(...minutes.slice(spell + 2, 2 * spell).map(onIt))).toBeGreaterThan(0);
  });
});
