// The tab's one outage record (the header's live mark and the banner both read it): the
// server's own "down" counts at once, and a health answer asked before a data answer found
// etcd unavailable does not clear that finding (console-api.md fourth version; issue 44).
import { afterEach, describe, expect, it, vi } from "vitest";
import type { HealthResponse } from "../api-types";
import { fetchHealth, noteEtcdUnavailable, outageNow } from "./health";

const body = (status: HealthResponse["status"], revision: number, ageMs = 500): HealthResponse =>
  ({
    status,
    ready: true,
    revision: status === "down" ? null : revision,
    endpoints: [{ url: "http://etcd", ok: status !== "down", latency_ms: status === "down" ? null : 2 }],
    leader: null,
    snapshot: { revision, age_ms: ageMs, live: status !== "down" },
  }) as HealthResponse;

/** fetch answering each call with the next body, when `release` lets it (a slow answer). */
function answers(...bodies: { body: HealthResponse; release?: Promise<void> }[]) {
  let i = 0;
  vi.stubGlobal("fetch", async () => {
    const next = bodies[i++];
    await next.release;
    return new Response(JSON.stringify(next.body), { status: next.body.status === "down" ? 503 : 200 });
  });
}

afterEach(() => vi.unstubAllGlobals());

describe("the outage record", () => {
  it("a health answer that says down makes the header stale at once, not a poll later", async () => {
    answers({ body: body("ok", 10) }, { body: body("down", 10) }, { body: body("ok", 12) });
    await fetchHealth();
    expect(outageNow().down).toBe(false);
    await fetchHealth();
    expect(outageNow()).toMatchObject({ down: true, cause: "etcd", snapshotRevision: 10, snapshotAgeMs: 500 });
    await fetchHealth();
    expect(outageNow().down).toBe(false);
  });

  it("an ok answer asked before a data answer found etcd unavailable does not clear it; one asked after does", async () => {
    let release = () => {};
    const slow = new Promise<void>((r) => (release = r));
    answers({ body: body("ok", 20), release: slow }, { body: body("ok", 21) });
    const asked = fetchHealth(); // asked now, answered after the data answer below
    noteEtcdUnavailable();
    release();
    await asked;
    expect(outageNow().down).toBe(true);
    await fetchHealth(); // asked after it: etcd answers again
    expect(outageNow().down).toBe(false);
  });

  it("of two answers about one snapshot the age counts on from the nearer: a slower answer never sets it back", async () => {
    const clock = vi.spyOn(performance, "now");
    const at = (ms: number) => clock.mockReturnValue(ms);
    try {
      at(1_000);
      answers(
        { body: body("ok", 30, 0) },
        { body: body("down", 30, 4_000) }, // seen at 2,000: the age counts 4,000 from there
        { body: body("down", 30, 5_500) }, // seen at 4,000, where the count says 6,000: 500 ms slower, kept
        { body: body("down", 30, 8_300) }, // seen at 6,000, where the count says 8,000: nearer, taken
        { body: body("down", 30, 200) }, // seen at 8,000: far below the count, a new snapshot
      );
      await fetchHealth();
      at(2_000);
      await fetchHealth();
      expect(outageNow()).toMatchObject({ snapshotAgeMs: 4_000, snapshotSeenAt: 2_000 });
      at(4_000);
      await fetchHealth();
      expect(outageNow()).toMatchObject({ snapshotAgeMs: 4_000, snapshotSeenAt: 2_000 });
      at(6_000);
      await fetchHealth();
      expect(outageNow()).toMatchObject({ snapshotAgeMs: 8_300, snapshotSeenAt: 6_000 });
      at(8_000);
      await fetchHealth();
      expect(outageNow()).toMatchObject({ snapshotAgeMs: 200, snapshotSeenAt: 8_000 });
    } finally {
      clock.mockRestore();
    }
  });

  it("a down answer whose members answer with no leader says etcd lost quorum, of how many; the next ok answer clears it", async () => {
    const members = ["http://etcd-a", "http://etcd-b", "http://etcd-c"];
    const down = {
      ...body("down", 40),
      endpoints: members.map((url, i) =>
        i === 1
          ? {
              url,
              ok: false,
              latency_ms: null,
              error: "the member answers but has no leader (no quorum)",
              no_leader: true,
            }
          : { url, ok: false, latency_ms: null, error: "connect ECONNREFUSED" },
      ),
    } as HealthResponse;
    const refused = { ...body("down", 40), endpoints: [down.endpoints[0]] } as HealthResponse;
    answers({ body: down }, { body: refused }, { body: body("ok", 41) });
    await fetchHealth();
    expect(outageNow()).toMatchObject({ down: true, cause: "etcd", noQuorum: { leaderless: 1, members: 3 } });
    await fetchHealth(); // no member answers at all: unreachable, not a lost quorum
    expect(outageNow()).toMatchObject({ down: true, noQuorum: null });
    await fetchHealth();
    expect(outageNow()).toMatchObject({ down: false, noQuorum: null });
  });
});
