// Heavy work past its queue is refused at once with a typed answer (console-api.md
// "Additions (fourth version)", Overload and memory): against a real `next start` on the
// realistic fleet, one client asks for 24 reads pinned at revisions before the console
// started (each a full read and a plan of 13,405 tables) all at once. Two run, its share of
// the queue waits, and the rest answer `503 overloaded` with Retry-After within a second,
// never a 504; meanwhile a second client's live reads answer 200.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedEtcd } from "../../support/shared-etcd";
import type { Etcd3 } from "etcd3";
import { seedScenarios } from "@/lib/sim/seed";
import { keys } from "@/lib/schema/keys";
import { HEAVY_WORK } from "@/lib/live/admission";
import { startApp, type RunningApp } from "../../support/app";
import { testPrefix } from "../../support/prefix";
import { clientFor, metricSum } from "./helpers";

const P = testPrefix("overload");
const VIEWERS = { a: "viewer-a-0123456789", b: "viewer-b-0123456789" };
let client: Etcd3;
let app: RunningApp;
/** revisions before the console started, each a different fleet */
const past: number[] = [];

beforeAll(async () => {
  client = clientFor(sharedEtcd());
  await seedScenarios(client, ["realistic"], { prefix: P, leaseTtlSec: 3600 });
  for (let i = 0; i < 24; i++) {
    const put = await client
      .put(keys.executor(P, `overload-${i}`))
      .value(
        JSON.stringify({
          v: 1,
          kind: "worker",
          instance: `overload-${i}`,
          version: "0.43.0",
          kinds: ["merge_wal"],
          slots_total: { merge_wal: 1 },
          bytes_total: 0,
          bytes_free_sample: 0,
          draining: false,
          heartbeat_ms: Date.now(),
        }),
      )
      .exec();
    past.push(Number(put.header.revision));
  }
  app = await startApp({
    ETCD_ENDPOINTS: sharedEtcd(),
    ETCD_PREFIX: P,
    CONSOLE_VIEWER_TOKENS: `a:${VIEWERS.a},b:${VIEWERS.b}`,
    NEXT_TELEMETRY_DISABLED: "1",
  });
}, 180_000);

afterAll(async () => {
  await app?.stop();
  await client?.delete().prefix(P).exec();
  client?.close();
});

async function get(path: string, token: string) {
  const started = performance.now();
  const res = await fetch(`${app.url}${path}`, {
    headers: { authorization: `Bearer ${token}` },
    signal: AbortSignal.timeout(120_000),
  });
  const body = (await res.json()) as { error?: { code: string; retry_after_ms?: number } };
  return { status: res.status, ms: performance.now() - started, retryAfter: res.headers.get("retry-after"), body };
}

describe("heavy requests past the queue", () => {
  it("are refused at once with 503 overloaded and Retry-After; the queue's share runs; other clients' live reads answer", async () => {
    const refusedBefore = await metricSum(app.url, "console_heavy_requests_total", { outcome: "refused" });
    const heavy = past.map((r) => get(`/api/v1/scheduler/demand?revision=${r}&limit=1`, VIEWERS.a));
    const live = await Promise.all(Array.from({ length: 3 }, () => get("/api/v1/scheduler/demand?limit=1", VIEWERS.b)));
    const answers = await Promise.all(heavy);
    expect(live.map((r) => r.status)).toEqual([200, 200, 200]);
    const refused = answers.filter((a) => a.status !== 200);
    // refused at once: without waiting in line, so faster than the slowest served (which waited
    // for the reads ahead of it), and within a second on a machine that is not overloaded itself
    const slowestServed = Math.max(...answers.filter((a) => a.status === 200).map((a) => a.ms));
    for (const a of refused) {
      expect([a.status, a.body.error?.code]).toEqual([503, "overloaded"]);
      expect(Number(a.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(a.body.error?.retry_after_ms).toBeGreaterThanOrEqual(1000);
      expect(a.ms).toBeLessThan(Math.max(1000, slowestServed));
    }
    // alone, client a holds the whole queue: at least `concurrency` run and the rest past the queue are
    // refused. (The exact bound, `concurrency` + `maxQueued` at once, is the admission's unit test:
    // here a read that ends before the last request arrives frees its place, so the count varies.)
    expect(answers.length - refused.length).toBeGreaterThanOrEqual(HEAVY_WORK.concurrency);
    expect(refused.length).toBeGreaterThan(0);
    const refusedAfter = await metricSum(app.url, "console_heavy_requests_total", { outcome: "refused" });
    expect(refusedAfter - refusedBefore).toBe(refused.length);
    // and once the queue has drained, a pinned read is admitted again
    expect((await get(`/api/v1/scheduler/demand?revision=${past[0]}&limit=1`, VIEWERS.a)).status).toBe(200);
  }, 180_000);
});
