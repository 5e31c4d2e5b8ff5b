// The tab's one outage record (the header's live mark and the banner both read it): the
// server's own "down" counts at once, and a health answer asked before a data answer found
// etcd unavailable does not clear that finding (console-api.md fourth version; issue 44).
import { afterEach, describe, expect, it, vi } from "vitest";
import type { HealthResponse } from "../api-types";
import { fetchHealth, noteEtcdUnavailable, outageNow } from "./health";

const body = (status: HealthResponse["status"], revision: number): HealthResponse =>
  ({
    status,
    ready: true,
    revision: status === "down" ? null : revision,
    endpoints: [{ url: "http://etcd", ok: status !== "down", latency_ms: status === "down" ? null : 2 }],
    leader: null,
    snapshot: { revision, age_ms: 500, live: status !== "down" },
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
});
