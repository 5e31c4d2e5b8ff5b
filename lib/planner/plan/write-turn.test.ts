// The write turn in the verdict (console-api.md "One answer on every page"): exact codes,
// retryable flags and detail; progress only from sequence increases, dated from etcd's
// history (exact, or at most the compaction's time); the master's §6.2 rule keeps ignoring locks.
import { describe, expect, it } from "vitest";
import type { Execution } from "@/lib/schema/executions";
import { shadowPass } from "../shadow";
import type { PlannerFence } from "./input";
import { planFleet } from "./full-plan";
import { progressState, writeTurnOf } from "./write-turn";
import { NOW, demand, fleet } from "./__fixtures__/fleet";

const execution = (extra: Partial<Execution> = {}): Execution => ({
  id: "exec-1",
  target: "t",
  endpoint: "http://worker-1:8080",
  instance: "worker-1",
  timeout_secs: 1800,
  queue_timeout_secs: 600,
  idle_timeout_secs: 600,
  phase: "running",
  reclaimed: false,
  error: null,
  protocol: 2,
  ...extra,
});

function planWith(fence: PlannerFence, tableDemand = demand(40, NOW - 60_000)) {
  return planFleet(fleet({ tables: { t: tableDemand }, fences: { t: fence } }), NOW).byTarget.get("t")!;
}

/** Progress whose last increase (or start) is at `ms`, exact unless said. */
const at = (sequence: number | null, ms: number | null, bound: "exact" | "at_most" = "exact") => ({
  sequence,
  last_progress_revision: ms === null ? null : 7,
  last_progress_ms: ms,
  last_progress_bound: bound,
});

const held = (progress: PlannerFence["progress"], extra: Partial<Execution> = {}): PlannerFence => ({
  execution: execution(extra),
  targetLock: "merge-execution:exec-1",
  progress,
});

describe("write turn", () => {
  it("an advancing execution holds the turn: write_turn_held, retryable, with the contract's detail", () => {
    const t = planWith(held(at(12, NOW - 12_000)));
    expect(t.verdict).toEqual({ state: "would_skip", code: "write_turn_held", message: t.why_not[0].message });
    expect(t.why_not).toEqual([
      {
        code: "write_turn_held",
        retryable: true,
        message:
          "The write turn is held by execution exec-1 (running on worker-1 (http://worker-1:8080)): merge-progress sequence 12, advanced 12s ago. A new merge_wal waits until it finishes.",
        detail: {
          kind: "merge_wal",
          execution_id: "exec-1",
          endpoint: "http://worker-1:8080",
          instance: "worker-1",
          phase: "running",
          sequence: 12,
          progress: "advancing",
          last_progress_ms: NOW - 12_000,
          last_progress_bound: "exact",
          idle_timeout_secs: 600,
        },
      },
    ]);
    expect(t.execution).toEqual({
      id: "exec-1",
      phase: "running",
      endpoint: "http://worker-1:8080",
      progress: "advancing",
      sequence: 12,
    });
    // not a candidate: not in line
    expect(t.line_kind).toBeNull();
  });

  it("advancing until the idle timeout after its last increase, then write_turn_stalled, not retryable", () => {
    const justUnder = planWith(held(at(3, NOW - 599_999)));
    expect(justUnder.verdict).toMatchObject({ code: "write_turn_held" });
    expect(justUnder.why_not[0].detail).toMatchObject({ progress: "advancing", sequence: 3 });
    const stalled = planWith(held(at(3, NOW - 2_460_000)));
    expect(stalled.verdict).toMatchObject({ state: "would_skip", code: "write_turn_stalled" });
    expect(stalled.why_not[0]).toMatchObject({
      retryable: false,
      detail: { progress: "stalled", last_progress_ms: NOW - 2_460_000, idle_timeout_secs: 600 },
    });
    expect(stalled.why_not[0].message).toContain(
      "merge-progress sequence 3, not advanced for 41m 00s (idle timeout 10m 00s)",
    );
    expect(stalled.execution?.progress).toBe("stalled");
    expect(planWith(held(at(3, NOW - 600_000))).verdict).toMatchObject({ code: "write_turn_stalled" });
  });

  it("an increase older than etcd's compaction is at most the compaction's time: unknown, then stalled", () => {
    const recent = planWith(held(at(3, NOW - 60_000, "at_most")));
    expect(recent.why_not[0]).toMatchObject({
      code: "write_turn_held",
      detail: { progress: "unknown", last_progress_bound: "at_most" },
    });
    const old = planWith(held(at(3, NOW - 660_000, "at_most")));
    expect(old.verdict).toMatchObject({ code: "write_turn_stalled" });
    expect(old.why_not[0].message).toContain("merge-progress sequence 3, not advanced for at least 11m 00s");
  });

  it("uses the execution's own idle_timeout_secs (0 means the default 600 s)", () => {
    expect(planWith(held(at(1, NOW - 61_000), { idle_timeout_secs: 60 })).verdict).toMatchObject({
      code: "write_turn_stalled",
    });
    expect(planWith(held(at(1, NOW - 61_000), { idle_timeout_secs: 0 })).why_not[0].detail).toMatchObject({
      idle_timeout_secs: 600,
      progress: "advancing",
    });
  });

  it("no progress record: unknown (held), never progress, until the idle timeout after the start", () => {
    const t = planWith(held(undefined));
    expect(t.why_not[0]).toMatchObject({
      code: "write_turn_held",
      detail: { sequence: null, progress: "unknown", last_progress_ms: null },
    });
    expect(t.why_not[0].message).toContain(
      "no merge-progress sequence reported yet, at a revision whose time is not known",
    );
    const started = planWith(held(at(null, NOW - 400)));
    expect(started.why_not[0]).toMatchObject({ detail: { progress: "unknown", last_progress_ms: NOW - 400 } });
    expect(started.why_not[0].message).toContain(
      "no merge-progress sequence reported yet, 0s since the execution started (idle timeout 10m 00s)",
    );
    expect(progressState(null, 600, NOW)).toBe("unknown");
    expect(progressState(at(null, NOW - 600_000), 600, NOW)).toBe("stalled");
  });

  it("only an unfinished execution that the lock names holds the turn", () => {
    for (const phase of ["recovered", "finished"] as const)
      expect(planWith(held(undefined, { phase })).verdict.state).toBe("would_place");
    for (const phase of ["reserved", "running", "uncertain", "recovering"] as const)
      expect(planWith(held(undefined, { phase })).verdict).toMatchObject({ code: "write_turn_held" });
    expect(writeTurnOf({ execution: execution(), targetLock: "merge-execution:other" }, NOW)).toBeNull();
    expect(writeTurnOf({ execution: execution(), targetLock: "claim-token" }, NOW)).toBeNull();
    expect(writeTurnOf({ execution: execution(), targetLock: null }, NOW)).toBeNull();
  });

  it("every write-turn kind waits; recovering that very maintenance execution does not", () => {
    const t = planWith(held(undefined), demand(40, NOW - 60_000, { fragment_count: 40 }));
    // the legacy admission adds its own reason for a compaction beside a worker merge (§5.6a)
    expect(t.why_not.map((w) => [w.code, w.detail.kind])).toEqual([
      ["write_turn_held", "merge_wal"],
      ["write_turn_held", "compact"],
      ["ownership_blocked", "compact"],
    ]);
    const recovery = planWith(
      held(undefined, { maintenance: "compact", phase: "uncertain" }),
      demand(40, NOW - 60_000),
    );
    expect(recovery.verdict).toMatchObject({ state: "would_place", kind: "compact" });
  });

  it("the master's §6.2 shadow rule still places the locked table (only the design verdict changes)", () => {
    const f = fleet({ tables: { t: demand(40, NOW - 60_000) }, fences: { t: held(undefined) } });
    const plan = planFleet(f, NOW);
    const pass = shadowPass({
      scored: plan.scored,
      ordered: plan.merge_order,
      heartbeats: [...f.heartbeats].map(([id, heartbeat]) => ({ id, heartbeat })),
      assignments: [],
      now: NOW,
      plannerToken: "x",
    });
    expect(plan.byTarget.get("t")!.verdict.state).toBe("would_skip");
    expect(pass.placements.map((p) => [p.unit.target, p.executor])).toEqual([["t", "e1"]]);
  });
});
