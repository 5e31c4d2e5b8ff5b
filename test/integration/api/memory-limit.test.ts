// The soft memory limit (lib/live/memory-limit.ts) in a real `next start`: with
// CONSOLE_MEMORY_MIB at its floor (64 MiB, far under what any Next.js server holds) the
// console counts itself over the budget as soon as it looks, says so in health, and keeps
// answering the same bytes as a console within its budget (pinned answers: the live one moves
// with the elected sampler's writes). And the server does not carry SWC's native binding,
// which a TypeScript next.config would have `next start` load for good (~29 MiB resident).
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Etcd3 } from "etcd3";
import { sharedEtcd } from "../../support/shared-etcd";
import { seedScenarios } from "@/lib/sim/seed";
import { healthResponseSchema } from "@/lib/schema/api/health";
import { heartbeatPut } from "../../support/fleet-records";
import { startApp, type RunningApp } from "../../support/app";
import { testPrefix } from "../../support/prefix";
import { clientFor, okBody, sameness } from "./helpers";

const P = testPrefix("memory-limit");
let client: Etcd3;
let tight: RunningApp;
let roomy: RunningApp;
let past = 0;

beforeAll(async () => {
  client = clientFor(sharedEtcd());
  await seedScenarios(client, ["incidents"], { prefix: P, leaseTtlSec: 3600 });
  const executor = heartbeatPut(P, "limit-past", 2);
  past = Number((await client.put(executor.key).value(executor.value).exec()).header.revision);
  const live = heartbeatPut(P, "limit-live", 1);
  await client.put(live.key).value(live.value).exec();
  const env = { ETCD_ENDPOINTS: sharedEtcd(), ETCD_PREFIX: P, NEXT_TELEMETRY_DISABLED: "1" };
  [tight, roomy] = await Promise.all([startApp({ ...env, CONSOLE_MEMORY_MIB: "64" }), startApp(env)]);
}, 240_000);

afterAll(async () => {
  await Promise.all([tight?.stop(), roomy?.stop()]);
  await client?.delete().prefix(P).exec();
  client?.close();
});

const memory = async (app: RunningApp) => (await okBody(app.url, "/api/v1/health", healthResponseSchema)).memory;

async function answer(app: RunningApp, path: string) {
  const res = await fetch(`${app.url}${path}`);
  const text = await res.text();
  expect(res.status, text.slice(0, 300)).toBe(200);
  return sameness({ status: res.status, text });
}

describe("the soft memory limit", () => {
  it("counts a console past CONSOLE_MEMORY_MIB as over it, in health, and its answers do not change", async () => {
    const deadline = Date.now() + 10_000;
    let m = await memory(tight);
    while (!m.over_budget && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      m = await memory(tight);
    }
    expect(m).toMatchObject({ budget_mib: 64, over_budget: true });
    expect(m.rss_mib).toBeGreaterThan(64);
    const roomyMemory = await memory(roomy);
    expect(roomyMemory).toMatchObject({ budget_mib: 1024, over_budget: false });
    expect(roomyMemory.rss_mib).toBeLessThan(0.8 * 1024);
    for (const path of [
      `/api/v1/scheduler/demand?revision=${past}&limit=50`,
      `/api/v1/scheduler/executors?revision=${past}`,
    ])
      expect(await answer(tight, path)).toEqual(await answer(roomy, path));
  }, 60_000);

  it("keeps SWC out of the server process (next.config.mjs is not transpiled at start)", async () => {
    // the binding is mapped as a file: its path names it (next-swc.<platform>.node)
    const maps = fs.readFileSync(`/proc/${roomy.process.pid}/maps`, "utf8").split("\n");
    expect(maps.length).toBeGreaterThan(100);
    expect(maps.filter((line) => line.includes("/libc.so"))).not.toEqual([]);
    expect(maps.filter((line) => line.includes("next-swc"))).toEqual([]);
  });

  it("starts each server with the young generation of its budget (a 32nd of it, 16 to 64 MiB)", () => {
    const flags = (app: RunningApp) =>
      fs
        .readFileSync(`/proc/${app.process.pid}/cmdline`, "utf8")
        .split("\0")
        .filter((a) => a.startsWith("--max-semi-space-size="));
    expect(flags(tight)).toEqual(["--max-semi-space-size=16"]);
    expect(flags(roomy)).toEqual(["--max-semi-space-size=32"]);
  });
});
