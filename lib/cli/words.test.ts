// The command line says what the pages say (console-api.md fourth version, "One capacity, one
// write turn"): free capacity under that one name with its parts, the verdict and class in
// the pages' words, place in line and ETA, the write-turn holder, and the discovery misses by
// name.
import { describe, expect, it } from "vitest";
import type { DemandList, DemandOne, ExecutorsResponse, ShadowResponse } from "../client/api-types";
import { executorsText } from "./executors";
import { shadowText } from "./shadow";
import { tablesText } from "./tables";
import { whyText } from "./why";

const NOW = Date.UTC(2026, 11, 1, 3, 10);
const slot = (total: number, reserved: number, shadow: number, legacy: number) => ({
  total,
  reserved,
  shadow,
  free: Math.max(0, total - reserved),
  legacy_running: legacy,
});

const EXECUTORS = {
  revision: 7,
  read_at_ms: NOW,
  now_ms: NOW,
  executors: [
    {
      id: "worker-1",
      kind: "worker",
      draining: false,
      orphan: false,
      heartbeat_age_ms: 1000,
      executions: [],
      // the master's fold counts its shadow rows: 4/4 "used", 0 "free"; the verdict's headroom is 4 free
      slots_total: { merge_wal: 4 },
      slots_reserved: { merge_wal: 4 },
      slots_free: { merge_wal: 0 },
      bytes_total: 0,
      assignments: 4,
      slots: { merge_wal: slot(4, 0, 4, 6) },
      bytes: { total: 0, reserved: 0, shadow: 8 * 2 ** 30, free: 0 },
    },
  ],
  totals: {
    executors: 1,
    draining: 0,
    orphans: 0,
    slots_free: { merge_wal: 0 },
    slots: { merge_wal: slot(4, 0, 4, 6) },
    bytes: { total: 0, reserved: 0, shadow: 0, free: 0 },
  },
} as unknown as ExecutorsResponse;

describe("executors", () => {
  it("says free as the verdict uses it, the parts beside it, and the legacy note", () => {
    const text = executorsText(EXECUTORS);
    const lines = text.split("\n");
    const head = lines.findIndex((l) => l.startsWith("EXECUTOR"));
    expect(lines[head].split(/\s{2,}/)).toEqual([
      "EXECUTOR",
      "SLOT KIND",
      "FREE",
      "TOTAL",
      "RESERVED",
      "SHADOW ROWS",
      "LEGACY RUNNING",
    ]);
    expect(lines[head + 2].split(/\s{2,}/)).toEqual(["worker-1", "merge_wal", "4", "4", "0", "4", "6"]);
    expect(text).not.toMatch(/0 free/);
    expect(text).toContain(
      "worker-1: 6 legacy merge_wal executions run here outside any assignment, more than the 4 free merge_wal slots: P1's planner does not count them",
    );
  });
});

const TABLE = {
  target: "ingest/a",
  class: "commit_ready",
  class_rank: 2,
  reason: "prepared_commit_ready",
  score: 1,
  pending_generations: 20,
  pending_bytes: 2 * 2 ** 30,
  oldest_pending_ms: NOW - 60_000,
  age_bound: "exact",
  wait_ms: 60_000,
  shards: 1,
  backlog_class: "ok",
  verdict: { state: "would_skip", code: "already_running", message: "m" },
  execution: null,
  write_turn_holder: {
    type: "assignment",
    unit_id: "u-1",
    kind: "merge_wal",
    executor: "worker-gone",
    state: "assigned",
    orphaned: true,
    bind_deadline_ms: NOW - 441_000,
  },
  position: { kind: "compact", rank: 1, of: 3 },
  clock_skew_ms: null,
};

describe("tables and why", () => {
  it("tables: the class, place in line with its kind and the verdict in the pages' words", () => {
    const list = {
      revision: 7,
      total_tables: 1,
      tables_with_pending: 1,
      matched: 1,
      tables: [TABLE, { ...TABLE, target: "ingest/b", verdict: { state: "would_place", executor: "worker-2" } }],
      next_cursor: null,
    } as unknown as DemandList;
    const rows = tablesText(list).split("\n");
    expect(rows[1].split(/\s{2,}/)).toEqual([
      "TARGET",
      "CLASS",
      "IN LINE",
      "PENDING",
      "TO MERGE",
      "WAIT",
      "SCORE",
      "BACKLOG",
      "VERDICT",
    ]);
    expect(rows[2]).toMatch(/^ingest\/a\s+commit ready\s+1 · compact\s.*skip: already running$/);
    expect(rows[3]).toMatch(/place → worker-2$/);
  });

  it("why: the write-turn holder with its overdue deadline; place and ETA only per world (./forecasts.test.ts)", () => {
    const answer = {
      revision: 7,
      now_ms: NOW,
      table: {
        ...TABLE,
        shards: [],
        score_breakdown: null,
        units: [{ kind: "compact" }],
        why_not: [],
        eta: { low_ms: 60_000, high_ms: 180_000, basis: "2 compact units waiting ahead of it" },
        forecasts: [],
      },
    } as unknown as DemandOne;
    const lines = whyText(answer).split("\n");
    // one place and one ETA per world, never a second unnamed one beside them
    expect(lines.filter((l) => l.startsWith("Place in line") || l.startsWith("ETA"))).toEqual([]);
    expect(lines).toContain(
      "Write turn held by assignment u-1 (merge_wal) on worker-gone (assigned, orphaned: no live heartbeat); bind deadline 2026-12-01 03:02:39Z passed: overdue by 7m 21s",
    );
  });
});

describe("shadow", () => {
  it("names the discovery misses, each with the holder its table page names", () => {
    const r = {
      revision: 7,
      now_ms: NOW,
      outcomes: { discovery_miss: 2, queued_only: 0, running: 0, placement_gap: 0, phantom_task: 0 },
      disagreements: 2,
      tables: { discovery_miss: ["t/a", "t/b"], queued_only: [], running: [], placement_gap: [], phantom_task: [] },
      miss_beside_execution: [],
      write_turn_holders: [{ target: "t/b", holder: TABLE.write_turn_holder }],
      placements: {
        console: [],
        master: [],
        agree: true,
        only_console: [],
        only_master: [],
        executor_differs: [],
        executor_mismatch: [],
        verdict_mismatch: [],
      },
    } as unknown as ShadowResponse;
    const lines = shadowText(r).split("\n");
    const at = lines.indexOf("Discovery misses (2), with the write-turn holder their table page names:");
    expect(lines.slice(at + 1, at + 3)).toEqual([
      "  t/a",
      "  t/b: write turn held by assignment u-1 (merge_wal) on worker-gone (assigned, orphaned: no live heartbeat)",
    ]);
  });
});
