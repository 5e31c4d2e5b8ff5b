// Fairness is live, the place in line and the clock-skew flag, against a real etcd and
// `next start` (console-api.md Additions): `max_consecutive_turns` from the `tasks/`
// records of the last 24 h (the seed design's continuous merger against a prepared
// compaction), `position` / `sort=position` and the planner world's forecast from the
// finished tasks of the last hour (console-api.md "Forecasts …"), and a table whose flushes
// are stamped in the future.
import { demandDetailSchema, demandListSchema } from "@/lib/schema/api/demand";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedEtcd } from "../../support/shared-etcd";
import type { Etcd3 } from "etcd3";
import { startApp, type RunningApp } from "../../support/app";
import { testPrefix } from "../../support/prefix";
import { hex, keys } from "@/lib/schema/keys";
import { clientFor, q, okBody } from "../api/helpers";
import { demandTable, heartbeat, put, task } from "./records";

let client: Etcd3;
let app: RunningApp;
let prefix: string;
let NOW: number;
let seededRevision: number;
const MIN = 60_000;

const done = (target: string, startedAt: number, finishedAt: number) =>
  task(client, prefix, {
    kind: "merge_wal",
    target,
    state: "done",
    enqueued_at: startedAt - 1000,
    started_at: startedAt,
    finished_at: finishedAt,
  });

beforeAll(async () => {
  const endpoints = sharedEtcd();
  client = clientFor(endpoints);
  prefix = testPrefix("answer-fairness");
  NOW = Date.now();
  await put(client, keys.executor(prefix, "w1"), heartbeat("w1", { slots_total: { merge_wal: 1, compact: 2 } }));
  // a continuous merger (critical: 300 pending) beside a prepared compaction whose commit is ready
  for (const target of ["fair/prepared", "fair/yield"]) {
    await demandTable(client, prefix, target, 300, NOW - 90 * MIN);
    await put(client, `${prefix}/compact-preparations/${hex(target)}`, `prep-${target}`);
    await put(client, `${prefix}/compact-commit-ready/${hex(target)}`, `prep-${target}`);
  }
  await done("fair/prepared", NOW - 120 * MIN, NOW - 110 * MIN); // a turn, finished outside the last hour
  await done("fair/prepared", NOW - 59 * MIN, NOW - 50 * MIN);
  await done("fair/yield", NOW - 30 * MIN, NOW - 20 * MIN);
  await done("other/x", NOW - 10 * MIN, NOW - 5 * MIN);
  await done("other/x", NOW - 9 * MIN, NOW - 5 * MIN);
  await done("other/y", NOW - 45 * MIN, NOW - 40 * MIN);
  // three normal merges in line for one merge slot, and one whose flushes are stamped 2 minutes ahead
  await demandTable(client, prefix, "line/a", 40, NOW - 10 * MIN);
  await demandTable(client, prefix, "line/b", 30, NOW - 10 * MIN);
  await demandTable(client, prefix, "line/c", 20, NOW - 10 * MIN);
  await demandTable(client, prefix, "tail/x", 2, NOW - MIN); // a tail: never a candidate, no place in line
  seededRevision = await demandTable(client, prefix, "skew/ahead", 10, NOW + 2 * MIN);
  app = await startApp({ ETCD_ENDPOINTS: endpoints, ETCD_PREFIX: prefix, CONSOLE_SHADOW_SAMPLER: "off" });
});

afterAll(async () => {
  await app?.stop();
  client?.close();
});

const detail = async (target: string, extra: Record<string, number> = {}) =>
  (await okBody(app.url, `/api/v1/scheduler/demand${q({ target, now_ms: NOW, ...extra })}`, demandDetailSchema)).table;

describe("max_consecutive_turns from the tasks/ records of the last 24 h", () => {
  it("after two merge turns the prepared compaction goes first, and the merge unit says turn_limit", async () => {
    const t = await detail("fair/prepared");
    expect(t.verdict).toEqual({ state: "would_place", executor: "w1", reserved_bytes: 1_073_741_824, kind: "compact" });
    expect(t.why_not).toEqual([]);
    expect(t.units.map((u: any) => [u.kind, u.class])).toEqual([
      ["compact", "commit_ready"],
      ["merge_wal", "critical"],
    ]);
    expect(t.units[1].why_not).toEqual([
      {
        code: "turn_limit",
        message: "merge_wal took 2 consecutive write turns (max_consecutive_turns 2): compact goes first.",
        retryable: true,
        detail: { kind: "merge_wal", count: 2, limit: 2, to: "compact" },
      },
    ]);
    expect(t.units[0].why_not).toEqual([]);
  });

  it("with one merge turn the merge still leads and yields to the prepared commit (§5.6a)", async () => {
    const t = await detail("fair/yield");
    expect(t.verdict).toMatchObject({ state: "would_place", executor: "w1", kind: "compact" });
    expect(t.units.map((u: any) => u.kind)).toEqual(["merge_wal", "compact"]);
    expect(t.units[0].why_not).toEqual([
      {
        code: "yield_to_prepared_commit",
        message: "merge yields one write turn to the prepared compaction/index commit",
        retryable: true,
        detail: { kind: "merge_wal", eligibility: "yield_to_prepared_commit" },
      },
    ]);
  });

  it("a pinned revision (read again from etcd) plans with the same history", async () => {
    const res = await okBody(
      app.url,
      `/api/v1/scheduler/demand${q({ target: "fair/prepared", now_ms: NOW, revision: seededRevision - 1 })}`,
      demandDetailSchema,
    );
    expect(res.snapshot).toMatchObject({ pinned: true, revision: seededRevision - 1 });
    expect(res.table.verdict).toMatchObject({ state: "would_place", kind: "compact" });
    expect(res.table.units[1].why_not.map((w: any) => w.code)).toEqual(["turn_limit"]);
  });
});

describe("place in line and ETA", () => {
  it("ranks candidates per head-unit kind in planner order; the ETA comes from done merges of the last hour", async () => {
    const list = await okBody(app.url, `/api/v1/scheduler/demand${q({ now_ms: NOW })}`, demandListSchema);
    const pos = Object.fromEntries(list.tables.map((t: any) => [t.target, t.position]));
    expect(pos).toEqual({
      "fair/prepared": { kind: "compact", rank: 1, of: 2 },
      "fair/yield": { kind: "compact", rank: 2, of: 2 },
      "line/a": { kind: "merge_wal", rank: 1, of: 4 },
      "line/b": { kind: "merge_wal", rank: 2, of: 4 },
      "line/c": { kind: "merge_wal", rank: 3, of: 4 },
      "skew/ahead": { kind: "merge_wal", rank: 4, of: 4 },
      "tail/x": null,
    });
    // none is queued in the legacy queue, which acts on them (mode legacy): no legacy ETA, and
    // the top level is the acting world's
    const a = await detail("line/a");
    expect(a.forecasts.map((f: any) => [f.world, f.acting, f.basis_code])).toEqual([
      ["legacy", true, "not_queued"],
      ["planner", false, "placed_now"],
    ]);
    expect([a.position, a.eta]).toEqual([null, null]);
    expect(a.forecasts[1].eta).toEqual({ low_ms: 0, high_ms: 0, level: 0.8, basis: "The plan places it now." });
    // 5 merge_wal tasks finished in the last hour, 45 min from the first to the last: one every
    // 11m 15s. The planner places b once the one table ahead of it (a, placed) leaves: one
    // finish; c once two have. No forecast resolved yet: the interval is the rate's own spread,
    // k finishes ± 1.28155 √k (0.8), and the basis says so
    const uncalibrated =
      "Not calibrated yet: 0 of the 30 resolved forecasts of this world and kind it needs; the interval is the rate's own spread, not yet checked against outcomes.";
    expect((await detail("line/b")).forecasts[1]).toMatchObject({
      world: "planner",
      position: { kind: "merge_wal", rank: 2, of: 4 },
      point_ms: 675_000,
      eta: {
        low_ms: 0,
        high_ms: 1_540_047,
        level: 0.8,
        basis: `Rank 2 of 4 in the planner's merge_wal line, 0 units waiting ahead of it not placed now; 5 merge_wal tasks finished in the last hour, one every 11m 15s. If it stays in line (the legacy queue may run it first). ${uncalibrated}`,
      },
    });
    expect((await detail("line/c")).forecasts[1]).toMatchObject({
      point_ms: 1_350_000,
      eta: { low_ms: 126_638, high_ms: 2_573_362, level: 0.8 },
    });
    // an hour later none of those finishes count: no rate, no ETA, and the reason
    const later = (await detail("line/c", { now_ms: NOW + 61 * MIN })).forecasts[1];
    expect(later).toMatchObject({ eta: null, basis_code: "no_throughput" });
    expect(later.basis).toBe(
      "No basis: no merge_wal task finished in the last hour (tasks/ records with a finished_at), so there is no rate to go on.",
    );
  });

  it("sort=position lists by rank, ties in planner order", async () => {
    const list = await okBody(
      app.url,
      `/api/v1/scheduler/demand${q({ now_ms: NOW, sort: "position" })}`,
      demandListSchema,
    );
    expect(list.tables.map((t: any) => t.target)).toEqual([
      "fair/prepared",
      "line/a",
      "fair/yield",
      "line/b",
      "line/c",
      "skew/ahead",
      "tail/x",
    ]);
    // descending: highest rank first; tables not in line still come last
    const desc = await okBody(
      app.url,
      `/api/v1/scheduler/demand${q({ now_ms: NOW, sort: "position", order: "desc" })}`,
      demandListSchema,
    );
    expect(desc.tables.map((t: any) => t.target)).toEqual([
      "skew/ahead",
      "line/c",
      "fair/yield",
      "line/b",
      "fair/prepared",
      "line/a",
      "tail/x",
    ]);
  });
});

describe("clock skew", () => {
  it("a table whose flushes are stamped in the future is flagged, counted, and its 0 s wait explained", async () => {
    const list = await okBody(app.url, `/api/v1/scheduler/demand${q({ now_ms: NOW })}`, demandListSchema);
    expect(list.clock_skew_tables).toBe(1);
    const row = list.tables.find((t: any) => t.target === "skew/ahead");
    expect(row).toMatchObject({ wait_ms: 0, clock_skew_ms: 129_000 });
    expect(list.tables.filter((t: any) => t.clock_skew_ms !== null).map((t: any) => t.target)).toEqual(["skew/ahead"]);
    const t = await detail("skew/ahead");
    expect(t.clock_skew).toEqual({
      ahead_ms: 129_000,
      newest_ms: NOW + 129_000,
      record: "flush",
      wait_clamped: true,
      message:
        "A flush of this table is timestamped 2m 09s after now: the writer's clock and the console's disagree; its oldest pending flush is in the future too, so its wait reads 0 s instead of a real wait.",
    });
    expect((await detail("skew/ahead", { now_ms: NOW + 127_000 })).clock_skew).toBeNull(); // within 2 s
    expect((await detail("skew/ahead", { now_ms: NOW + 126_999 })).clock_skew).toMatchObject({ ahead_ms: 2001 });
  });
});
