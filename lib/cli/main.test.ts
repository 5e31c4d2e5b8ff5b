// The command line's wiring to the HTTP contract (console-api.md): which request each
// command line makes, and its exit code. The answers themselves are checked against a
// real console in test/integration/ops/cli.test.ts.
import { describe, expect, it } from "vitest";
import { run } from "./main";
import { diffText, type FleetDiff } from "./diff";
import { historyText } from "./history";
import type { HistoryResponse } from "../schema/api/history";

function harness(answer: (url: URL) => { status: number; body: unknown }) {
  const urls: URL[] = [];
  let out = "";
  let err = "";
  const fetch = (async (input: string | URL) => {
    const url = new URL(String(input));
    urls.push(url);
    const { status, body } = answer(url);
    return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
  }) as typeof globalThis.fetch;
  const io = {
    out: (t: string) => (out += t),
    err: (t: string) => (err += t),
    env: { SCHEDULER_CONSOLE_URL: "http://console.test" },
    fetch,
  };
  return { io, urls, output: () => ({ out, err }) };
}

const DIFF: FleetDiff = {
  from: { revision: 100, at_ms: Date.UTC(2026, 11, 1, 3, 10) },
  to: { revision: 180, at_ms: Date.UTC(2026, 11, 1, 3, 40) },
  verdict_basis: "journal",
  tables: {
    class_changed: [
      { target: "ingest/a", before: "normal", after: "critical" },
      { target: "ingest/b", before: "commit_ready", after: "tail" },
    ],
    verdict_changed: [
      {
        target: "ingest/a",
        before: { state: "would_skip", code: "cycle_limit" },
        after: { state: "would_skip", code: "no_free_slot" },
      },
      {
        target: "ingest/b",
        before: { state: "would_place", code: null },
        after: { state: "would_skip", code: "write_turn_held" },
      },
    ],
    appeared: ["ingest/new"],
    cleared: [],
  },
  executors: {
    added: ["worker-3"],
    removed: [],
    changed: [
      {
        id: "worker-1",
        before: { draining: false, slots_total: { merge_wal: 1 }, bytes_total: 10 },
        after: { draining: true, slots_total: { merge_wal: 2 }, bytes_total: 10 },
      },
    ],
  },
  policies: { changed: ["_default"] },
  leader: { before: { instance: "master-a", token: "t1" }, after: { instance: "master-b", token: "t2" } },
  shadow: { before: { discovery_miss: 2, running: 1 }, after: { discovery_miss: 5, running: 1 } },
};

describe("diff", () => {
  it("asks GET /api/v1/scheduler/diff with from/to for revisions and from_ms/to_ms for times", async () => {
    const h = harness(() => ({ status: 200, body: DIFF }));
    expect(await run(["diff", "--from", "100", "--to", "2026-12-01T03:40:00Z"], h.io)).toBe(0);
    expect(await run(["diff", "--from", "2026-12-01T03:10:00Z"], h.io)).toBe(0); // to: the API's default, now
    expect(h.urls.map((u) => `${u.pathname}${u.search}`)).toEqual([
      `/api/v1/scheduler/diff?from=100&to_ms=${Date.UTC(2026, 11, 1, 3, 40)}`,
      `/api/v1/scheduler/diff?from_ms=${Date.UTC(2026, 11, 1, 3, 10)}`,
    ]);
  });

  it("says every change in words, the largest change first", () => {
    expect(diffText(DIFF).split("\n")).toEqual([
      "From revision 100 (2026-12-01 03:10:00Z) to revision 180 (2026-12-01 03:40:00Z)",
      "Verdicts: both sides read from the decision journal",
      "Class changed (2):",
      "  ingest/b: commit ready → tail", // three classes down
      "  ingest/a: normal → critical", // two up
      "Verdict changed (2):",
      "  ingest/b: placed → write turn held", // placed no more
      "  ingest/a: next cycle → no free slot", // one skip reason for another
      "Appeared (1):",
      "  ingest/new",
      "Cleared: none",
      "Executors added (1):",
      "  worker-3",
      "Executors removed: none",
      "Executors changed (1):",
      "  worker-1: accepting → draining; merge wal slots 1 → 2",
      "Policies changed (1):",
      "  the fleet default",
      "Leader: master-a → master-b",
      "Shadow outcomes changed (1):",
      "  discovery misses 2 → 5",
    ]);
  });
});

describe("--at", () => {
  it("resolves the time through GET /api/v1/revisions/time?at_ms= and pins the answer to its revision", async () => {
    const at = Date.UTC(2026, 11, 1, 3, 10);
    const h = harness((url) =>
      url.pathname === "/api/v1/revisions/time"
        ? { status: 200, body: { revision: 4242, at_ms: at - 1500, basis: "console_clock", error_ms: 2500 } }
        : {
            status: 200,
            body: {
              revision: 4242,
              read_at_ms: at,
              now_ms: at,
              snapshot: {},
              executors: [],
              totals: {
                executors: 0,
                draining: 0,
                orphans: 0,
                slots_free: {},
                bytes_free: 0,
                slots: {},
                bytes: { total: 0, reserved: 0, shadow: 0, free: 0 },
              },
            },
          },
    );
    expect(await run(["executors", "--at", "2026-12-01T03:10:00Z"], h.io)).toBe(0);
    expect(h.urls.map((u) => `${u.pathname}${u.search}`)).toEqual([
      `/api/v1/revisions/time?at_ms=${at}`,
      "/api/v1/scheduler/executors?revision=4242",
    ]);
    expect(h.output().out.split("\n")[0]).toBe(
      "At 2026-12-01 03:10:00Z: revision 4242, written 2026-12-01 03:09:58Z ± 3s (console clock)",
    );
  });
});

describe("exit codes", () => {
  it("1 with the API's code and message; 2 for a usage error, with no request", async () => {
    const h = harness(() => ({
      status: 410,
      body: { error: { code: "revision_compacted", message: "revision 5 is compacted", compact_revision: 9 } },
    }));
    expect(await run(["shadow", "--revision", "5"], h.io)).toBe(1);
    expect(h.output().err).toBe("error: revision_compacted: revision 5 is compacted (HTTP 410)\n");
    const u = harness(() => ({ status: 200, body: {} }));
    for (const args of [
      [],
      ["frobnicate"],
      ["why"],
      ["tables", "--limit", "zero"],
      ["tables", "--limit", "0"],
      ["tables", "--limit", "2001"],
      ["tables", "--class", "urgent"],
      ["tables", "--backlog", "high"],
      ["why", "t", "--at", "yesterday-ish"],
      ["why", "t", "--revision", "-3"],
      ["why", "t", "--at", "2026-12-01T03:10:00Z", "--revision", "5"],
      ["diff", "--to", "5"],
      ["diff", "--from", "5", "--to", "soon"],
      ["diff", "--from", "5", "--to", "6", "--revision", "5"],
    ]) {
      expect(await run(args, u.io), args.join(" ")).toBe(2);
    }
    expect(u.urls).toEqual([]);
  });
});

const HISTORY: HistoryResponse = {
  target: "ingest/a",
  from_ms: Date.UTC(2026, 11, 1, 0, 0),
  to_ms: Date.UTC(2026, 11, 1, 6, 0),
  from_revision: 10,
  to_revision: 90,
  points: [
    {
      revision: 20,
      at_ms: Date.UTC(2026, 11, 1, 1, 0),
      error_ms: 0,
      pending_generations: null,
      wait_ms: null,
      class: "normal",
      score: null,
      verdict: { state: "would_skip", code: "cycle_limit" },
      executor: null,
      now_ms: Date.UTC(2026, 11, 1, 1, 0),
      basis: "journal",
      journal: { write_turn: null, shadow_outcome: null, gone: false },
      moved_by: [{ cause: "table_ahead", executor: null, target: "ingest/b", clock: null }],
    },
    {
      revision: 40,
      at_ms: Date.UTC(2026, 11, 1, 5, 30),
      error_ms: 0,
      pending_generations: null,
      wait_ms: null,
      class: "normal",
      score: null,
      verdict: { state: "would_place", code: null },
      executor: "worker-1",
      now_ms: Date.UTC(2026, 11, 1, 5, 30),
      basis: "journal",
      journal: { write_turn: null, shadow_outcome: "running", gone: false },
      moved_by: [
        { cause: "demand", executor: null, target: null, clock: null },
        { cause: "capacity", executor: "worker-1", target: null, clock: null },
      ],
    },
  ],
  compacted_before: null,
  history_starts: null,
  verdict_basis: "journal",
  fleet_plan_points: 40,
  time_in_state: [
    { state: "would_skip", code: "cycle_limit", ms: 4.5 * 3600_000 },
    { state: "unknown", code: null, ms: 3600_000 },
    { state: "would_place", code: null, ms: 1800_000 },
  ],
};

describe("history", () => {
  it("asks GET /api/v1/scheduler/demand/history for the table and window, and says the transitions and time in state", async () => {
    const h = harness(() => ({ status: 200, body: HISTORY }));
    expect(
      await run(["history", "ingest/a", "--from", "2026-12-01T00:00:00Z", "--to", String(HISTORY.to_ms)], h.io),
    ).toBe(0);
    expect(h.urls.map((u) => `${u.pathname}?${u.searchParams}`)).toEqual([
      `/api/v1/scheduler/demand/history?target=ingest%2Fa&from_ms=${HISTORY.from_ms}&to_ms=${HISTORY.to_ms}`,
    ]);
    expect(h.output().out).toBe(`${historyText(HISTORY)}\n`);
    expect(historyText(HISTORY).split("\n").at(-1)).toBe(
      "Time in state: 4h 30m next cycle, 1h 00m not known (a journal gap or before the first change), 30m 00s placed",
    );
    expect(historyText(HISTORY)).toContain("placed on worker-1");
    // each transition says what moved its inputs
    expect(historyText(HISTORY)).toContain("ingest/b went ahead");
    expect(historyText(HISTORY)).toContain("its own demand, capacity on worker-1");
  });
  it("--json prints the API's answer; --revision and --at end the window there; with --to they are a usage error", async () => {
    const h = harness(() => ({ status: 200, body: HISTORY }));
    expect(await run(["--json", "history", "ingest/a"], h.io)).toBe(0);
    expect(JSON.parse(h.output().out)).toEqual(HISTORY);
    const written = Date.UTC(2026, 11, 1, 5, 0);
    const pinned = harness((url) =>
      url.pathname === "/api/v1/revisions/time"
        ? { status: 200, body: { revision: 5, at_ms: written, basis: "console_clock", error_ms: 1000 } }
        : { status: 200, body: HISTORY },
    );
    expect(await run(["--revision", "5", "history", "ingest/a"], pinned.io)).toBe(0);
    expect(await run(["--at", "2026-12-01T04:00:00Z", "history", "ingest/a"], pinned.io)).toBe(0);
    expect(pinned.urls.map((u) => `${u.pathname}?${u.searchParams}`)).toEqual([
      "/api/v1/revisions/time?revision=5",
      `/api/v1/scheduler/demand/history?target=ingest%2Fa&to_ms=${written}`,
      `/api/v1/scheduler/demand/history?target=ingest%2Fa&to_ms=${Date.UTC(2026, 11, 1, 4, 0)}`,
    ]);
    expect(pinned.output().out.split("\n")[0]).toBe(
      "Revision 5: written 2026-12-01 05:00:00Z (console clock); the window ends there",
    );
    const bad = harness(() => ({ status: 200, body: HISTORY }));
    expect(await run(["--revision", "5", "history", "ingest/a", "--to", "2026-12-01T04:00:00Z"], bad.io)).toBe(2);
    expect(bad.urls).toEqual([]);
  });
});
