// The simulator's planner canary (lib/sim/canary.ts) on a real etcd: once every master is
// policy-aware its tables get policy documents in planner mode (scheduler-model.md §7.3), the
// legacy sweep leaves them, and the leader's plan places their merges as assignments in the
// master's wire format (§2.5) that the executors bind and run under an execution fence
// holding the target lock (§2.8); the console's own plan of the fleet names `planner` their
// acting world, and the other tables stay the legacy queue's.
import { afterAll, describe, expect, it } from "vitest";
import { runLive } from "@/lib/sim/live";
import { hex } from "@/lib/schema/keys";
import { planFleet } from "@/lib/planner/plan";
import { actingWorld } from "@/lib/planner/forecast/forecasts";
import { plannerFleet } from "@/lib/snapshot/planner-input";
import { foldSnapshot } from "@/lib/snapshot/demand-index";
import { testPrefix } from "../../support/prefix";
import { until } from "../../support/observe";
import { readerFor, suiteClient } from "./helpers";

const client = suiteClient();
const prefix = testPrefix("planner-canary");
const CANARY = ["canary/table-0", "canary/table-1"];
const LEGACY = ["legacy/table-0", "legacy/table-1", "legacy/table-2"];

afterAll(() => client.close());

describe("the simulator's planner canary", () => {
  it("puts its tables in planner mode and runs their merges by the leader's plan, in the master's records", async () => {
    // the legacy tables due from the start; the canary's one generation short of due. The
    // switch comes at the first tick, before its legacy sweep: the writers' flushes are drawn
    // at random, so a later switch let a canary table become due, and be swept, before it
    for (const target of [...CANARY, ...LEGACY])
      await client.put(`${prefix}/demand-events/${hex(target)}/s`).value(
        JSON.stringify({
          shard: "s",
          sealed_through: CANARY.includes(target) ? 101 : 160,
          merged_through: 100,
          flushed_at_ms: Date.now(),
          writer_epoch: 1,
          source: "writer",
        }),
      );
    const stop = new AbortController();
    const live = runLive(client, {
      prefix,
      intervalMs: 0,
      flushesPerTick: 1, // the tables stay due
      upgradeAfterTicks: 0,
      canary: CANARY,
      signal: stop.signal,
    });
    const released = async () => {
      const kvs = await client.getAll().prefix(`${prefix}/assignments/`).strings();
      return Object.values(kvs).filter((v) => JSON.parse(v).state === "released").length >= 2 || undefined;
    };
    await until(released, 120_000, { what: "two planner merges finished" });
    const all = await client.getAll().prefix(`${prefix}/`).strings();
    stop.abort();
    const stats = await live;
    expect(stats.failedTicks).toBe(0);
    const under = (dir: string) =>
      Object.entries(all)
        .filter(([k]) => k.startsWith(`${prefix}/${dir}/`))
        .map(([k, v]) => ({ key: k.slice(`${prefix}/${dir}/`.length), value: v }));
    // the policies: planner mode for the canary, nothing for the rest
    expect(under("policies").map((p) => [p.key, JSON.parse(p.value)])).toEqual(
      CANARY.map((t) => [hex(t), { v: 1, mode: "planner" }]).sort(),
    );
    // the legacy queue never held a canary table; it ran the others
    const legacyTargets = new Set(under("tasks").map((t) => JSON.parse(t.value).target as string));
    expect(CANARY.filter((t) => legacyTargets.has(t))).toEqual([]);
    expect(LEGACY.some((t) => legacyTargets.has(t))).toBe(true);
    // the planner's assignments (the shadow pass's rows aside): the canary's only, one merge slot each, under the leader's token
    const assignments = under("assignments")
      .map((a) => JSON.parse(a.value))
      .filter((a) => a.state !== "shadow");
    const leaderToken = all[`${prefix}/leader-token`];
    expect(assignments.length).toBeGreaterThanOrEqual(2);
    for (const a of assignments) {
      expect(CANARY).toContain(a.target);
      expect(a).toMatchObject({
        v: 1,
        kind: "merge_wal",
        needs_write_turn: true,
        planner_token: leaderToken,
        reserved_slots: { merge_wal: 1 },
        bind_deadline_ms: a.created_ms + 30_000,
      });
      expect(["assigned", "bound", "released"]).toContain(a.state);
    }
    // a bound one runs under its execution fence, which holds the table's target lock
    for (const a of assignments.filter((x) => x.state === "bound")) {
      const execution = JSON.parse(all[`${prefix}/merge-executions/${hex(a.target)}`]);
      expect([execution.id, all[`${prefix}/target-locks/${hex(a.target)}`]]).toEqual([
        `exec-plan-${a.unit_id}`,
        `merge-execution:exec-plan-${a.unit_id}`,
      ]);
    }
    // the console's plan of what is stored: the canary's acting world is the planner, the others' the legacy queue
    const snapshot = await readerFor(client, prefix).readFleet();
    const plan = planFleet(plannerFleet({ snapshot, tables: foldSnapshot(snapshot) }), Date.now());
    expect([...CANARY, ...LEGACY].map((t) => actingWorld(plan.byTarget.get(t)!.policy.effective.mode))).toEqual([
      "planner",
      "planner",
      "legacy",
      "legacy",
      "legacy",
    ]);
  }, 180_000);
});
