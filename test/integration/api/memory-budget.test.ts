// The memory budget (console-api.md "Additions (fourth version)", Overload and memory):
// against a real `next start` on the production fleet (13,405 tables × 2 shards, each
// pinned view estimated at ~66 MB, lib/live/memory-budget.ts) with CONSOLE_MEMORY_MIB=768
// (96 MiB for pinned views, an eighth: room for one), eight revisions before the console started are
// pinned in turn. Health's `memory` keeps reporting at most one pinned view, the least
// recently used going first, and every answer, kept or read again after its view was
// dropped, is byte-identical to the first answer at its revision (but for `read_at_ms`,
// when its view was read).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedEtcd } from "../../support/shared-etcd";
import type { Etcd3 } from "etcd3";
import { seedScenarios } from "@/lib/sim/seed";
import { heartbeatPut } from "../../support/fleet-records";
import { healthResponseSchema } from "@/lib/schema/api/health";
import { startApp, type RunningApp } from "../../support/app";
import { testPrefix } from "../../support/prefix";
import { clientFor, metricSum, okBody } from "./helpers";

const P = testPrefix("memory-budget");
const BUDGET_MIB = 768;
const PINS = 8;
let client: Etcd3;
let app: RunningApp;
/** revisions before the console started, each a different fleet */
const past: number[] = [];

beforeAll(async () => {
  client = clientFor(sharedEtcd());
  await seedScenarios(client, ["production"], { prefix: P, leaseTtlSec: 3600 });
  for (let i = 0; i < PINS; i++) {
    const executor = heartbeatPut(P, `budget-${i}`, 1);
    const put = await client.put(executor.key).value(executor.value).exec();
    past.push(Number(put.header.revision));
  }
  // one more change: the console starts at a revision after every pinned one
  const live = heartbeatPut(P, "budget-live", 1);
  await client.put(live.key).value(live.value).exec();
  app = await startApp({
    ETCD_ENDPOINTS: sharedEtcd(),
    ETCD_PREFIX: P,
    CONSOLE_MEMORY_MIB: String(BUDGET_MIB),
    NEXT_TELEMETRY_DISABLED: "1",
  });
}, 240_000);

afterAll(async () => {
  await app?.stop();
  await client?.delete().prefix(P).exec();
  client?.close();
});

async function pinned(revision: number): Promise<string> {
  const res = await fetch(`${app.url}/api/v1/scheduler/demand?revision=${revision}&limit=500`, {
    signal: AbortSignal.timeout(120_000),
  });
  const text = await res.text();
  expect(res.status, text.slice(0, 300)).toBe(200);
  // when the view was read is the one field a fresh read changes; every other byte is the revision's
  expect(text).toMatch(/^\{"revision":\d+,"read_at_ms":\d+,/);
  return text.replace(/"read_at_ms":\d+,/, "");
}

const memory = async () => (await okBody(app.url, "/api/v1/health", healthResponseSchema)).memory;

describe("the memory budget", () => {
  it("keeps the pinned views within CONSOLE_MEMORY_MIB, least recently used first, and answers the same bytes", async () => {
    const before = await memory();
    expect(before.budget_mib).toBe(BUDGET_MIB);
    expect(before.rss_mib).toBeGreaterThan(0);
    expect(before.pinned_views).toBe(0);
    const readsBefore = await metricSum(app.url, "console_pinned_views_total", { path: "read" });
    const first = new Map<number, string>();
    const counts: number[] = [];
    for (const revision of past) {
      first.set(revision, await pinned(revision));
      counts.push((await memory()).pinned_views);
    }
    // every pin was a full read, and past the first the budget held one view at most
    expect(await metricSum(app.url, "console_pinned_views_total", { path: "read" })).toBe(readsBefore + PINS);
    expect(counts[0]).toBe(1);
    expect(Math.max(...counts)).toBe(1);
    // the newest is kept (no read), the others were dropped and are read again: same bytes
    const newest = past.at(-1)!;
    expect(await pinned(newest)).toBe(first.get(newest));
    expect(await metricSum(app.url, "console_pinned_views_total", { path: "read" })).toBe(readsBefore + PINS);
    for (const revision of past.slice(0, -1)) expect(await pinned(revision)).toBe(first.get(revision));
    expect(await metricSum(app.url, "console_pinned_views_total", { path: "read" })).toBe(
      readsBefore + PINS + PINS - 1,
    );
    expect((await memory()).pinned_views).toBe(1);
  }, 600_000);
});
