// The command line's wiring to the HTTP contract (console-api.md): which request each
// command line makes, and its exit code. The answers themselves are checked against a
// real console in test/integration/ops/cli.test.ts.
import { describe, expect, it } from "vitest";
import { run } from "./main";
import { diffText, type FleetDiff } from "./diff";

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
  const io = { out: (t: string) => (out += t), err: (t: string) => (err += t), env: { SCHEDULER_CONSOLE_URL: "http://console.test" }, fetch };
  return { io, urls, output: () => ({ out, err }) };
}

const DIFF: FleetDiff = {
  from: { revision: 100, at_ms: Date.UTC(2026, 11, 1, 3, 10) },
  to: { revision: 180, at_ms: Date.UTC(2026, 11, 1, 3, 40) },
  tables: {
    class_changed: [{ target: "ingest/a", before: "normal", after: "critical" }],
    verdict_changed: [{ target: "ingest/a", before: { state: "would_place", code: null }, after: { state: "would_skip", code: "no_free_slot" } }],
    appeared: ["ingest/new"],
    cleared: [],
  },
  executors: { added: ["worker-3"], removed: [], changed: [{ id: "worker-1", before: { draining: false, bytes_free: 10 }, after: { draining: true, bytes_free: 10 } }] },
  policies: { changed: ["_default"] },
  leader: { before: { instance: "master-a", token: "t1" }, after: { instance: "master-b", token: "t2" } },
  shadow: { before: { discovery_miss: 2, running: 1 }, after: { discovery_miss: 5, running: 1 } },
};

describe("diff", () => {
  it("asks GET /api/v1/scheduler/diff with from/to for revisions and from_ms/to_ms for times", async () => {
    const h = harness(() => ({ status: 200, body: DIFF }));
    expect(await run(["diff", "--from", "100", "--to", "2026-12-01T03:40:00Z"], h.io)).toBe(0);
    expect(await run(["diff", "--from", "2026-12-01T03:10:00Z"], h.io)).toBe(0); // to: the API's default, now
    expect(h.urls.map((u) => `${u.pathname}${u.search}`)).toEqual([`/api/v1/scheduler/diff?from=100&to_ms=${Date.UTC(2026, 11, 1, 3, 40)}`, `/api/v1/scheduler/diff?from_ms=${Date.UTC(2026, 11, 1, 3, 10)}`]);
  });

  it("says every change in words", () => {
    expect(diffText(DIFF).split("\n")).toEqual([
      "From revision 100 (2026-12-01 03:10:00Z) to revision 180 (2026-12-01 03:40:00Z)",
      "Class changed (1):",
      "  ingest/a: normal → critical",
      "Verdict changed (1):",
      "  ingest/a: would place → would skip (no_free_slot)",
      "Appeared (1):",
      "  ingest/new",
      "Cleared: none",
      "Executors added (1):",
      "  worker-3",
      "Executors removed: none",
      "Executors changed (1):",
      "  worker-1: draining false → true",
      "Policies changed (1):",
      "  _default",
      "Leader: master-a → master-b",
      "Shadow outcomes changed (1):",
      "  discovery_miss 2 → 5",
    ]);
  });
});

describe("--at", () => {
  it("resolves the time through GET /api/v1/revisions/time?at_ms= and pins the answer to its revision", async () => {
    const at = Date.UTC(2026, 11, 1, 3, 10);
    const h = harness((url) =>
      url.pathname === "/api/v1/revisions/time"
        ? { status: 200, body: { revision: 4242, at_ms: at - 1500, basis: "console_clock", error_ms: 2500 } }
        : { status: 200, body: { revision: 4242, read_at_ms: at, snapshot: {}, executors: [], totals: { executors: 0, draining: 0, orphans: 0, slots_free: {}, bytes_free: 0 } } },
    );
    expect(await run(["executors", "--at", "2026-12-01T03:10:00Z"], h.io)).toBe(0);
    expect(h.urls.map((u) => `${u.pathname}${u.search}`)).toEqual([`/api/v1/revisions/time?at_ms=${at}`, "/api/v1/scheduler/executors?revision=4242"]);
    expect(h.output().out.split("\n")[0]).toBe("At 2026-12-01 03:10:00Z: revision 4242, written 2026-12-01 03:09:58Z ± 3s (console clock)");
  });
});

describe("exit codes", () => {
  it("1 with the API's code and message; 2 for a usage error, with no request", async () => {
    const h = harness(() => ({ status: 410, body: { error: { code: "revision_compacted", message: "revision 5 is compacted", compact_revision: 9 } } }));
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
