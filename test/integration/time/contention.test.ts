// console-api.md "Time", under contention: five tables dated two hours ago want a merge and
// one executor has one merge slot, so at every revision one is placed and the others wait
// for the slot. The history plans each point's whole fleet (`verdict_basis: fleet_plan`),
// so every point equals the table page pinned at that revision — including the skips that
// only the tables ahead in line explain. Past the whole-fleet budget a point never gives a
// verdict the page would not (console-api.md fourth version): it carries the table's own
// figures, the page's too, with `verdict: null` (`figures_only`).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedEtcd } from "../../support/shared-etcd";
import type { Etcd3 } from "etcd3";
import { testPrefix } from "../../support/prefix";
import { publishDemandEvent } from "@/lib/sim";
import { loadKvs } from "@/lib/sim/load";
import { heartbeatKv, heartbeatValue, leaderKvs, type SimExecutor } from "@/lib/sim/scenarios/fleet";
import { writerEvent } from "@/lib/planner/join";
import { keys } from "@/lib/schema/keys";
import { demandQuerySchema } from "@/lib/schema/api/demand";
import { historyQuerySchema, historyResponseSchema, type HistoryResponse } from "@/lib/schema/api/history";
import { clientFor, HOUR_MS, useConsoleEnv } from "./world";

const GiB = 1024 ** 3;
const EXECUTOR: SimExecutor = {
  id: "only-worker",
  kind: "worker",
  kinds: ["merge_wal"],
  slots_total: { merge_wal: 1 },
  bytes_total: 16 * GiB,
  draining: false,
};
const TABLES = ["contended/a", "contended/b", "contended/c", "contended/d", "contended/e"];
const STEPS = 4;

let client: Etcd3;
let t0: number;
const api = () => ({
  detail: import("@/lib/scheduler/demand-detail").then((m) => m.demandDetail),
  history: import("@/lib/time/history").then((m) => m.demandHistory),
});

beforeAll(async () => {
  const endpoints = sharedEtcd();
  const prefix = testPrefix("time-contention");
  useConsoleEnv(endpoints, prefix);
  client = clientFor(endpoints);
  t0 = Date.now() - 2 * HOUR_MS;
  await loadKvs(client, [heartbeatKv(prefix, EXECUTOR, t0), ...leaderKvs(prefix, t0).kvs], { leaseTtlSec: 4 * 3600 });
  // every table flushes every minute for a few minutes; backlogs of different sizes, so the line has an order
  for (let step = 0; step < STEPS; step++) {
    const at = t0 + step * 60_000;
    await client.put(keys.executor(prefix, EXECUTOR.id)).value(heartbeatValue(EXECUTOR, at));
    for (const [i, target] of TABLES.entries()) {
      const sealed = 40 + 30 * i + step * 5;
      await publishDemandEvent(
        client,
        prefix,
        target,
        writerEvent({ shard: "s1", sealed, bytes: sealed * 1_048_576, epoch: 1, flushedAtMs: at - 30 * 60_000 }),
      );
    }
  }
});

afterAll(() => client?.close());

type Point = HistoryResponse["points"][number];
const verdictOf = (p: Point) =>
  p.verdict === null ? null : p.verdict.state === "would_place" ? "placed" : p.verdict.code;

describe("history under contention: one merge slot, five tables", () => {
  it("plans each point's whole fleet, and every point is the table page pinned at that revision", async () => {
    const detail = await api().detail;
    const history = await api().history;
    const skippedForOthers = new Set<string>();
    let placed = 0;
    for (const target of TABLES) {
      const h = historyResponseSchema.parse(
        await history(historyQuerySchema.parse({ target, from_ms: String(t0 - HOUR_MS) })),
      );
      expect(h.verdict_basis, target).toBe("fleet_plan");
      expect(h.points.length, target).toBe(STEPS);
      for (const p of h.points) {
        const page = await detail({ ...demandQuerySchema.parse({ target, revision: String(p.revision) }), target });
        const v = page.table.verdict;
        expect(p.at_ms, `${target} @${p.revision}`).toBe(page.now_ms);
        expect([p.at_ms, p.error_ms]).toEqual([page.revision_time!.at_ms, page.revision_time!.error_ms]);
        // the point names the clock it was planned at and how (console-api.md "The decision journal")
        expect([p.now_ms, p.basis], `${target} @${p.revision}`).toEqual([page.now_ms, "fleet_plan"]);
        expect(
          { pending: p.pending_generations, wait_ms: p.wait_ms, class: p.class, score: p.score, verdict: p.verdict },
          `${target} @${p.revision}`,
        ).toEqual({
          pending: page.table.pending_generations,
          wait_ms: page.table.wait_ms,
          class: page.table.class,
          score: page.table.score,
          verdict: { state: v.state, code: v.state === "would_skip" ? v.code : null },
        });
        if (verdictOf(p) === "placed") placed++;
        else skippedForOthers.add(`${target}@${p.revision}:${verdictOf(p)}`);
      }
    }
    // one slot: at each of the last revisions exactly one table is placed; the rest wait for it
    expect(placed).toBeGreaterThan(0);
    expect(skippedForOthers.size).toBeGreaterThan(placed);
  });

  it("past the whole-fleet budget every point is the page's figures with no verdict (figures_only): never a verdict the page would not give", async () => {
    const detail = await api().detail;
    const history = await api().history;
    for (const target of TABLES) {
      const q = historyQuerySchema.parse({ target, from_ms: String(t0 - HOUR_MS) });
      const whole = historyResponseSchema.parse(await history(q));
      const figures = historyResponseSchema.parse(await history(q, { tablePlans: 0 }));
      expect(figures.verdict_basis).toBe("figures_only");
      expect(figures.fleet_plan_points).toBe(0);
      expect(figures.points.map((p) => p.revision)).toEqual(whole.points.map((p) => p.revision));
      for (const p of figures.points) {
        const page = await detail({ ...demandQuerySchema.parse({ target, revision: String(p.revision) }), target });
        // dated and planned at the clock the page uses, named by how; no verdict and no executor
        expect([p.at_ms, p.now_ms, p.basis, p.verdict, p.executor], `${target} @${p.revision}`).toEqual([
          page.now_ms,
          page.now_ms,
          "figures_only",
          null,
          null,
        ]);
        // demand, wait, class and score are the table's own: the page's
        expect([p.pending_generations, p.wait_ms, p.class, p.score], `${target} @${p.revision}`).toEqual([
          page.table.pending_generations,
          page.table.wait_ms,
          page.table.class,
          page.table.score,
        ]);
      }
      // no verdict re-planned: the time in state says so rather than guess
      expect(figures.time_in_state.map((t) => t.state)).not.toContain("would_place");
      expect(figures.time_in_state.map((t) => t.state)).not.toContain("would_skip");
    }
  });
});
