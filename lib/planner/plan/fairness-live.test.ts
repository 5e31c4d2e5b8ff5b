// Fairness is live (console-api.md): `max_consecutive_turns` from the table's recent task
// records (write turns started in the last 24 h, oldest first), the seed design's
// starvation case (a continuous merger against a prepared compaction), and the place in
// line with its ETA from the kind's completions in the last hour.
import { describe, expect, it } from "vitest";
import type { TaskRecord } from "@/lib/schema/tasks";
import type { PlannerFence } from "./input";
import { planFleet } from "./full-plan";
import { previewPolicy } from "./preview";
import { NOW, demand, fleet, heartbeat } from "./__fixtures__/fleet";

let ids = 0;
function task(
  kind: TaskRecord["kind"],
  target: string,
  startedAt: number | null,
  extra: Partial<TaskRecord> = {},
): TaskRecord {
  ids++;
  return {
    id: `0192-${String(ids).padStart(6, "0")}`,
    kind,
    target,
    state: "done",
    enqueued_at: (startedAt ?? NOW) - 1000,
    started_at: startedAt,
    finished_at: startedAt === null ? null : startedAt + 500,
    depends_on: [],
    ...extra,
  };
}

const hotMerger = () => demand(500, NOW - 10_000, { fragment_count: 40 }); // critical merge + class-4 compaction

describe("max_consecutive_turns from task history", () => {
  it("after 2 merge turns in the last 24 h the compaction goes first; the merge unit carries turn_limit", () => {
    const history = [task("merge_wal", "t", NOW - 7_200_000), task("merge_wal", "t", NOW - 3_600_000)];
    const t = planFleet(fleet({ tables: { t: hotMerger() } }, { history }), NOW).byTarget.get("t")!;
    expect(t.verdict).toMatchObject({ state: "would_place", kind: "compact" });
    expect(t.why_not).toEqual([]);
    expect(t.passed_over).toEqual([
      {
        code: "turn_limit",
        retryable: true,
        message: "merge_wal took 2 consecutive write turns (max_consecutive_turns 2): compact goes first.",
        detail: { kind: "merge_wal", count: 2, limit: 2, to: "compact" },
      },
    ]);
    expect(t.units.map((u) => u.kind)).toEqual(["compact", "merge_wal"]);
  });

  it("only turns started in (now − 24 h, now] count, oldest first; another kind breaks the run", () => {
    const plan = (history: TaskRecord[]) =>
      planFleet(fleet({ tables: { t: hotMerger() } }, { history }), NOW).byTarget.get("t")!.verdict;
    expect(plan([task("merge_wal", "t", NOW - 86_400_000), task("merge_wal", "t", NOW - 1000)])).toMatchObject({
      kind: "merge_wal",
    });
    expect(plan([task("merge_wal", "t", NOW - 86_399_999), task("merge_wal", "t", NOW - 1000)])).toMatchObject({
      kind: "compact",
    });
    expect(plan([task("merge_wal", "t", NOW - 5000), task("merge_wal", "t", NOW + 60_000)])).toMatchObject({
      kind: "merge_wal",
    }); // a start in the future is not a turn yet
    expect(
      plan([task("merge_wal", "t", NOW - 3000), task("merge_wal", "t", NOW - 2000), task("compact", "t", NOW - 1000)]),
    ).toMatchObject({ kind: "merge_wal" });
    expect(plan([task("merge_wal", "u", NOW - 3000), task("merge_wal", "u", NOW - 2000)])).toMatchObject({
      kind: "merge_wal",
    }); // another table's turns
    expect(plan([task("merge_wal", "t", NOW - 3000), task("merge_wal", "t", null, { state: "queued" })])).toMatchObject(
      { kind: "merge_wal" },
    );
  });

  it("the policy preview sees the same history: raising the limit gives the turn back to the merge", () => {
    const history = [task("merge_wal", "t", NOW - 3000), task("merge_wal", "t", NOW - 2000)];
    const preview = previewPolicy(
      fleet({ tables: { t: hotMerger() } }, { history }),
      "t",
      { max_consecutive_turns: { merge_wal: 3 } },
      NOW,
    );
    expect(preview.changed).toHaveLength(1);
    expect(preview.changed[0]).toMatchObject({
      target: "t",
      before: { verdict: { kind: "compact" } },
      after: { verdict: { kind: "merge_wal" } },
    });
  });

  it("an edited max_consecutive_turns changes the plan", () => {
    const history = [task("merge_wal", "t", NOW - 3000), task("merge_wal", "t", NOW - 2000)];
    const at = (limit: number) =>
      planFleet(
        fleet(
          { tables: { t: hotMerger() }, policies: { t: { max_consecutive_turns: { merge_wal: limit } } } },
          { history },
        ),
        NOW,
      ).byTarget.get("t")!;
    expect(at(3).verdict).toMatchObject({ kind: "merge_wal" });
    expect(at(1)).toMatchObject({
      verdict: { kind: "compact" },
      passed_over: [{ code: "turn_limit", detail: { kind: "merge_wal", count: 2, limit: 1, to: "compact" } }],
    });
  });
});

/**
 * The seed design's starvation case: a writer keeps the merge critical, and a compaction
 * is prepared over and over. Each cycle the placed kind takes the turn (a done task) and a
 * compaction's commit clears its fence until the next one is prepared two cycles later.
 */
function serve(cycles: number, prepared: (cycle: number) => boolean) {
  const history: TaskRecord[] = [];
  const served: string[] = [];
  for (let i = 0; i < cycles; i++) {
    const now = NOW + i * 600_000;
    const fences = new Map<string, PlannerFence>(
      prepared(i) ? [["t", { preparation: `p${i}`, commitReady: `p${i}` }]] : [],
    );
    const f = fleet({ tables: { t: demand(500, now - 10_000, { fragment_count: 40 }) } }, { history, fences });
    const t = planFleet(f, now).byTarget.get("t")!;
    const kind = t.verdict.state === "would_place" ? t.verdict.kind : "none";
    served.push(kind);
    if (kind !== "none") history.push(task(kind as TaskRecord["kind"], "t", now));
  }
  return served;
}

describe("continuous merger against a prepared compaction", () => {
  it("a prepared commit is served the cycle it is ready (the merge yields), and between preparations merges are capped at 2", () => {
    const served = serve(9, (i) => i % 3 === 2);
    expect(served).toEqual([
      "merge_wal",
      "merge_wal",
      "compact",
      "merge_wal",
      "merge_wal",
      "compact",
      "merge_wal",
      "merge_wal",
      "compact",
    ]);
  });
  it("with no preparation at all, the compaction still gets every third turn", () => {
    expect(serve(7, () => false)).toEqual([
      "merge_wal",
      "merge_wal",
      "compact",
      "merge_wal",
      "merge_wal",
      "compact",
      "merge_wal",
    ]);
  });
});

describe("place in line and ETA", () => {
  const tables = {
    a: demand(30, NOW - 1000),
    b: demand(20, NOW - 1000),
    c: demand(10, NOW - 1000),
    tail: demand(2, NOW - 1000),
  };
  const oneSlot = { e1: heartbeat({ slots_total: { merge_wal: 1 } }) };
  const done = (n: number, finishedAgoMs: number) =>
    Array.from({ length: n }, () => task("merge_wal", "other", NOW - finishedAgoMs - 500));

  it("ranks candidates of one kind in planner order; ETA from the units waiting ahead and completions in the last hour", () => {
    const plan = planFleet(fleet({ tables, heartbeats: oneSlot }, { history: done(4, 60_000) }), NOW);
    const at = (t: string) => {
      const row = plan.byTarget.get(t)!;
      return { position: plan.line.positionOf(row), eta: plan.line.etaOf(row) };
    };
    expect([at("a").position, at("b").position, at("c").position, at("tail").position]).toEqual([
      { kind: "merge_wal", rank: 1, of: 3 },
      { kind: "merge_wal", rank: 2, of: 3 },
      { kind: "merge_wal", rank: 3, of: 3 },
      null,
    ]);
    expect(at("a").eta).toEqual({ low_ms: 0, high_ms: 0, basis: "It would be placed now." });
    expect(at("b").eta).toEqual({
      low_ms: 0,
      high_ms: 900_000,
      basis: "0 merge_wal units waiting ahead of it; 4 merge_wal tasks finished in the last hour.",
    });
    expect(at("c").eta).toEqual({
      low_ms: 900_000,
      high_ms: 1_800_000,
      basis: "1 merge_wal unit waiting ahead of it; 4 merge_wal tasks finished in the last hour.",
    });
  });

  it("no completion in the last hour (or only in the future): ETA unknown", () => {
    for (const history of [[], done(4, 3_600_000), done(2, -120_000)]) {
      const plan = planFleet(fleet({ tables, heartbeats: oneSlot }, { history }), NOW);
      const b = plan.byTarget.get("b")!;
      expect(plan.line.etaOf(b)).toBeNull();
      expect(plan.line.positionOf(b)).toEqual({ kind: "merge_wal", rank: 2, of: 3 });
    }
  });
});

describe("clock skew", () => {
  it("a record stamped more than 2 s after now is flagged and counted; the clamped wait is said", () => {
    const running = (target: string, startedAt: number) => ({
      id: `r-${target}`,
      kind: "compact" as const,
      target,
      state: "running" as const,
      enqueued_at: NOW - 1000,
      started_at: startedAt,
      depends_on: [],
    });
    const failure = (target: string, lastMs: number) => ({
      target,
      endpoint: "http://w",
      consecutive_attempts: 1,
      class: "retryable" as const,
      last_error: "x",
      last_failure_ms: lastMs,
      next_retry_ms: lastMs + 2000,
      needs_attention: false,
    });
    const tables = {
      ahead: demand(10, NOW + 90_000),
      fine: demand(10, NOW - 1000),
      partly: demand(10, NOW - 5),
      edge: demand(10, NOW + 1991),
      task: demand(10, NOW - 60_000),
      failed: demand(10, NOW - 60_000),
    };
    const plan = planFleet(
      fleet(
        { tables },
        { tasks: { queued: [], running: [running("task", NOW + 5000)] }, failures: [failure("failed", NOW + 3000)] },
      ),
      NOW,
    );
    const ahead = plan.byTarget.get("ahead")!;
    expect(ahead.wait_ms).toBe(0); // §4.1 clamps the wait; the flag says why
    expect(ahead.clock_skew).toEqual({
      ahead_ms: 90_009,
      newest_ms: NOW + 90_009,
      record: "flush",
      wait_clamped: true,
      message:
        "A flush of this table is timestamped 1m 30s after now: the writer's clock and the console's disagree; its oldest pending flush is in the future too, so its wait reads 0 s instead of a real wait.",
    });
    expect(plan.byTarget.get("fine")!.clock_skew).toBeNull();
    expect(plan.byTarget.get("partly")!.clock_skew).toBeNull(); // 4 ms ahead: within the 2 s of a rounded now
    expect(plan.byTarget.get("edge")!.clock_skew).toBeNull(); // 2,000 ms ahead exactly
    expect(plan.byTarget.get("task")!.clock_skew).toMatchObject({
      ahead_ms: 5000,
      record: "task",
      wait_clamped: false,
      message:
        "A task record of this table is timestamped 5s after now: the writer's clock and the console's disagree.",
    });
    expect(plan.byTarget.get("failed")!.clock_skew).toMatchObject({ ahead_ms: 3000, record: "failure" });
    expect(plan.clock_skew_tables).toBe(3);
  });
});
