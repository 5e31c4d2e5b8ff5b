import { describe, expect, it } from "vitest";
import { planFleet } from "./full-plan";
import { NOW, GiB, assignment, demand, fleet, heartbeat } from "./__fixtures__/fleet";
import type { PlannerFleet } from "./input";
import type { TablePlan } from "./types";
import { formatBytes, formatDurationFromZero } from "./why-not";

const hot = () => demand(16, NOW - 1000); // normal merge, score ≥ 2
const critical = () => demand(300, NOW - 1000);

function table(f: PlannerFleet, target = "t"): TablePlan {
  const plan = planFleet(f, NOW).byTarget.get(target);
  if (!plan) throw new Error(`no plan for ${target}`);
  return plan;
}
const codes = (t: TablePlan) => t.why_not.map((w) => w.code);

describe("verdicts: each why-not code from a minimal case", () => {
  it("would_place with an empty why_not", () => {
    const t = table(fleet({ tables: { t: hot() } }));
    expect(t.verdict).toEqual({ state: "would_place", executor: "e1", reserved_bytes: 2 * GiB, kind: "merge_wal" });
    expect(t.why_not).toEqual([]);
    expect(t).toMatchObject({
      class: "normal",
      class_rank: 3,
      reason: "merge_score_due",
      backlog_class: "ok",
      age_bound: "exact",
    });
  });

  it("no_demand", () => {
    const t = table(fleet({ tables: { t: demand(0, 0) } }));
    expect(t).toMatchObject({ class: "idle", class_rank: 6, verdict: { state: "would_skip", code: "no_demand" } });
  });

  it("tail_below_threshold", () => {
    const t = table(fleet({ tables: { t: demand(3, NOW - 1000) } }));
    expect(t.verdict).toMatchObject({ state: "would_skip", code: "tail_below_threshold" });
    expect(t.why_not[0].message).toBe(
      "merge_wal is a tail (score 0.38, below 1): tails are not placed; it is promoted after waiting 1h 00m and it has waited 1s.",
    );
    expect(t.why_not[0].retryable).toBe(true);
  });

  it("no_executors", () => {
    const t = table(fleet({ tables: { t: hot() }, heartbeats: {} }));
    expect(t.verdict).toEqual({
      state: "would_skip",
      code: "no_executors",
      message: "0/0 executors fit: no executor has a live heartbeat.",
    });
  });

  it("all_draining (draining and orphan rows take nothing)", () => {
    const f = fleet({
      tables: { t: hot() },
      heartbeats: { e1: heartbeat({ draining: true }) },
      assignments: [assignment("x", "gone")],
    });
    const t = table(f);
    expect(t.verdict).toMatchObject({
      code: "all_draining",
      message: "0/2 executors fit, none accepting work: 1 draining, 1 without a live heartbeat.",
    });
    expect(t.why_not[0].detail.counts).toEqual({ orphan: 1, draining: 1 });
  });

  it("no_free_slot", () => {
    const f = fleet({
      tables: { t: hot() },
      heartbeats: { e1: heartbeat({ slots_total: { merge_wal: 1 } }) },
      assignments: [assignment("x", "e1")],
    });
    expect(table(f).verdict).toMatchObject({
      code: "no_free_slot",
      message: "0/1 executors fit: 1 no free merge_wal slot.",
    });
  });

  it("insufficient_bytes", () => {
    const f = fleet({
      tables: { t: hot() },
      heartbeats: { e1: heartbeat({ bytes_total: GiB, bytes_free_sample: 4 * GiB }) },
    });
    expect(table(f).verdict).toMatchObject({
      code: "insufficient_bytes",
      message: "0/1 executors fit: 1 with too few bytes free (needs 2.0 GiB, has 1.0 GiB).",
    });
  });

  it("rate_limited: 6 placements on the executor within the last minute", () => {
    const recent = Array.from({ length: 6 }, (_, i) =>
      assignment(`x${i}`, "e1", { state: "released", created_ms: NOW - 59_000, unit_id: `r${i}` }),
    );
    const t = table(fleet({ tables: { t: hot() }, assignments: recent }));
    expect(t.verdict).toMatchObject({
      code: "rate_limited",
      message: "0/1 executors fit: 1 rate limited at 6 placements per minute.",
    });
    const older = recent.map((a) => ({ ...a, created_ms: NOW - 60_000 }));
    expect(table(fleet({ tables: { t: hot() }, assignments: older })).verdict.state).toBe("would_place");
    const shadows = recent.map((a) => ({ ...a, state: "shadow" as const }));
    expect(table(fleet({ tables: { t: hot() }, assignments: shadows })).verdict.state).toBe("would_place");
  });

  it("executor_not_allowed", () => {
    const f = fleet({ tables: { t: hot() }, policies: { t: { executors_allowed: ["worker"] } } });
    expect(table(f).verdict).toMatchObject({
      code: "executor_not_allowed",
      message: "0/1 executors fit: 1 executor kind not in executors_allowed.",
    });
  });

  it("cooldown (compaction)", () => {
    const f = fleet(
      { tables: { t: demand(0, 0, { fragment_count: 64 }) } },
      { cooldowns: [{ kind: "compact", target: "t", failures: 4, until_ms: NOW + 1_200_000, last_error: "boom" }] },
    );
    const t = table(f);
    expect(t).toMatchObject({ class: "maintenance", reason: "compact_score_due", score: 4 });
    expect(t.verdict).toEqual({
      state: "would_skip",
      code: "cooldown",
      message: "compact is cooling down after 4 failures: 20m 00s left.",
    });
  });

  it("failure_backoff and needs_attention from the merge failure ledger", () => {
    const rec = {
      target: "t",
      endpoint: "http://w1",
      consecutive_attempts: 3,
      class: "retryable" as const,
      last_error: "temporary storage failure",
      last_failure_ms: NOW - 5000,
      next_retry_ms: NOW + 25_000,
      needs_attention: false,
    };
    expect(table(fleet({ tables: { t: hot() } }, { failures: [rec] })).verdict).toEqual({
      state: "would_skip",
      code: "failure_backoff",
      message: "merge_wal failed 3 times in a row on http://w1 (retryable); backing off, next retry in 25s.",
    });
    const bad = {
      ...rec,
      class: "data_or_configuration" as const,
      last_error: "Not found: /data/1.lance",
      needs_attention: true,
      next_retry_ms: NOW + 3_595_000,
    };
    const t = table(fleet({ tables: { t: hot() } }, { failures: [rec, bad] }));
    expect(t.verdict).toMatchObject({ code: "needs_attention" });
    expect(t.why_not[0].retryable).toBe(false);
    // a master:compact record does not hold back a merge
    expect(
      table(fleet({ tables: { t: hot() } }, { failures: [{ ...bad, endpoint: "master:compact" }] })).verdict.state,
    ).toBe("would_place");
    // read-time correction: a stale data_or_configuration reprepare record is retryable now
    const stale = {
      ...bad,
      last_error: "invalid user input: index metadata changed; reprepare",
      consecutive_attempts: 1,
      last_failure_ms: NOW - 10_000,
    };
    expect(table(fleet({ tables: { t: hot() } }, { failures: [stale] })).verdict.state).toBe("would_place");
  });

  it("ownership_blocked", () => {
    const t = table(fleet({ tables: { t: hot() }, fences: { t: { mergeClaim: "reconciler-1" } } }));
    expect(t.verdict).toMatchObject({ code: "ownership_blocked" });
    expect(t.eligibility.code).toBe("ownership_blocked");
  });

  it("yield_to_prepared_commit: a critical merge yields its turn to the prepared compaction", () => {
    const fences = { t: { preparation: "tok", commitReady: "tok" } };
    const placed = table(fleet({ tables: { t: critical() }, fences }));
    expect(placed.verdict).toMatchObject({ state: "would_place", kind: "compact", reserved_bytes: GiB });
    expect(placed.units.map((u) => [u.kind, u.class])).toEqual([
      ["merge_wal", "critical"],
      ["compact", "commit_ready"],
    ]);
    expect(placed.eligibility.code).toBe("yield_to_prepared_commit");
    const noCompactSlot = { e1: heartbeat({ slots_total: { merge_wal: 4 } }) };
    const t = table(fleet({ tables: { t: critical() }, fences, heartbeats: noCompactSlot }));
    expect(codes(t)).toEqual(["yield_to_prepared_commit", "no_free_slot"]);
    expect(t.verdict).toMatchObject({ code: "no_free_slot", message: "0/1 executors fit: 1 no free compact slot." });
  });

  it("policy_frozen and policy_draining", () => {
    expect(table(fleet({ tables: { t: hot() }, policies: { t: { mode: "frozen" } } })).verdict).toMatchObject({
      code: "policy_frozen",
    });
    expect(table(fleet({ tables: { t: hot() }, defaultPolicy: { mode: "drain" } })).verdict).toMatchObject({
      code: "policy_draining",
    });
  });

  it("kind_not_allowed", () => {
    const t = table(fleet({ tables: { t: hot() }, policies: { t: { kinds_allowed: ["Compact", "IndexId"] } } }));
    expect(t.verdict).toEqual({
      state: "would_skip",
      code: "kind_not_allowed",
      message: "MergeWal is not in this table's policy kinds_allowed (Compact, IndexId).",
    });
  });

  it("already_running: a legacy running task or a live bound assignment", () => {
    const running = {
      id: "task-9",
      kind: "merge_wal" as const,
      target: "t",
      state: "running" as const,
      enqueued_at: NOW - 10,
      depends_on: [],
    };
    expect(table(fleet({ tables: { t: hot() } }, { tasks: { queued: [], running: [running] } })).verdict).toEqual({
      state: "would_skip",
      code: "already_running",
      message: "A legacy merge_wal task (task-9) is already running on this table.",
    });
    expect(table(fleet({ tables: { t: hot() }, assignments: [assignment("t", "e1")] })).verdict).toMatchObject({
      code: "already_running",
    });
  });

  it("cycle_limit after 8 placements", () => {
    const tables = Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`t${i}`, demand(16 + i, NOW - 1000)]));
    const heartbeats = { e1: heartbeat(), e2: heartbeat(), e3: heartbeat() };
    const plan = planFleet(fleet({ tables, heartbeats }), NOW);
    expect(plan.placements).toHaveLength(8);
    expect(plan.byTarget.get("t0")!.verdict).toMatchObject({ code: "cycle_limit" });
    expect(plan.placements.map((p) => p.target)).toEqual(["t8", "t7", "t6", "t5", "t4", "t3", "t2", "t1"]);
    expect(plan.byTarget.get("t0")!.verdict).toMatchObject({
      message:
        "8 units were already placed this cycle (max_placements_per_cycle 8); it is considered again next cycle.",
    });
    // past the limit, a unit no executor could take at all says so instead
    const noCompact = {
      e1: heartbeat({ slots_total: { merge_wal: 5 } }),
      e2: heartbeat({ slots_total: { merge_wal: 5 } }),
    };
    const withCompaction = { ...tables, z: demand(0, 0, { fragment_count: 64 }) };
    const later = planFleet(fleet({ tables: withCompaction, heartbeats: noCompact }), NOW);
    expect(later.byTarget.get("z")!.verdict).toMatchObject({
      code: "no_free_slot",
      message: "0/2 executors fit: 2 no free compact slot.",
    });
    expect(later.byTarget.get("t0")!.verdict).toMatchObject({ code: "cycle_limit" });
    // with every merge slot taken by the 8 placements, the 9th is honest about it
    const eight = {
      e1: heartbeat({ slots_total: { merge_wal: 4 } }),
      e2: heartbeat({ slots_total: { merge_wal: 4 } }),
    };
    expect(planFleet(fleet({ tables, heartbeats: eight }), NOW).byTarget.get("t0")!.verdict).toMatchObject({
      code: "no_free_slot",
    });
  });

  it("turn_limit: after 2 merge turns a maintenance compaction goes first", () => {
    const f = fleet(
      { tables: { t: demand(300, NOW - 1000, { fragment_count: 32 }) } },
      {
        turns: new Map([
          [
            "t",
            {
              turns: [
                { kind: "merge_wal", at_ms: 1 },
                { kind: "merge_wal", at_ms: 2 },
              ],
            },
          ],
        ]),
      },
    );
    const t = table(f);
    expect(t.verdict).toMatchObject({ state: "would_place", kind: "compact" });
    expect(t.units.map((u) => u.kind)).toEqual(["compact", "merge_wal"]);
  });

  it("the Kubernetes-style count over six executors", () => {
    const full = heartbeat({ slots_total: { merge_wal: 1 } });
    const f = fleet({
      tables: { t: hot() },
      heartbeats: {
        e1: full,
        e2: full,
        e3: full,
        e4: heartbeat({ draining: true }),
        e5: heartbeat({ draining: true }),
        e6: heartbeat({ bytes_total: 1_288_490_189 }),
      },
      assignments: [assignment("a", "e1"), assignment("b", "e2"), assignment("c", "e3")],
    });
    const t = table(f);
    expect(t.verdict).toEqual({
      state: "would_skip",
      code: "insufficient_bytes",
      message:
        "0/6 executors fit: 3 no free merge_wal slot, 2 draining, 1 with too few bytes free (needs 2.0 GiB, has 1.2 GiB).",
    });
    expect(t.why_not[0].detail).toMatchObject({
      considered: 6,
      counts: { no_free_slot: 3, draining: 2, insufficient_bytes: 1 },
    });
  });
});

describe("formatting", () => {
  it("bytes and durations with units spelled out", () => {
    expect([formatBytes(512), formatBytes(1536), formatBytes(2 * GiB), formatBytes(67_108_864)]).toEqual([
      "512 B",
      "1.5 KiB",
      "2.0 GiB",
      "64.0 MiB",
    ]);
    expect([
      formatDurationFromZero(0),
      formatDurationFromZero(1000),
      formatDurationFromZero(90_000),
      formatDurationFromZero(7_500_000),
      formatDurationFromZero(90_061_000),
    ]).toEqual(["0s", "1s", "1m 30s", "2h 05m", "1d 01h"]);
  });
});
