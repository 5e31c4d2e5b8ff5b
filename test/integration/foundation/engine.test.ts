// One engine per process (issue 46 "One engine per process"; lib/engine/index.ts): the
// console's stateful core is built apart from Next's route chunks and loaded once, through the
// `@scheduler-console/engine` package that Next leaves external. Checked on the real build and
// a real server: no route or page chunk carries the engine's code, the server process has the
// engine module exactly once after every kind of route and page has run, and no engine state
// sits on globalThis (the custom server's gzip counters are a module of their own too).
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedScenarios } from "@/lib/sim";
import type { Etcd3 } from "etcd3";
import { startApp, type RunningApp } from "../../support/app";
import { evaluateInServer } from "../../support/inspector";
import { fetchMetrics, metricSum } from "../../support/observe";
import { sharedEtcd } from "../../support/shared-etcd";
import { testPrefix } from "../../support/prefix";
import { clientFor } from "../time/world";

const ROOT = path.resolve(__dirname, "../../..");
const DIST = path.resolve(ROOT, process.env.NEXT_DIST_DIR || ".next");
/** strings only the engine's modules hold: a metric's name (lib/metrics), a route label (lib/offload/routes.ts) */
const ENGINE_MARKERS = ["console_request_duration_seconds", "console_offloaded_jobs_total"];

let app: RunningApp;
let client: Etcd3;

function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(".js"))
    .map((e) => path.join(e.parentPath, e.name));
}

beforeAll(async () => {
  const endpoints = sharedEtcd();
  const prefix = testPrefix("foundation-engine");
  client = clientFor(endpoints);
  await seedScenarios(client, ["incidents"], { prefix, now: Date.now(), leaseTtlSec: 3600 });
  app = await startApp(
    { ETCD_ENDPOINTS: endpoints, ETCD_PREFIX: prefix, CONSOLE_SHADOW_SAMPLER: "off" },
    { inspect: true },
  );
});

afterAll(async () => {
  await app?.stop();
  client?.close();
});

describe("one engine per process", () => {
  it("the build: the engine's code is in its own bundle, and in no route or page chunk", () => {
    const engine = fs.readFileSync(`${DIST}-engine/engine.cjs`, "utf8");
    for (const marker of ENGINE_MARKERS) expect(engine, marker).toContain(marker);
    const chunks = filesUnder(path.join(DIST, "server"));
    expect(chunks.length).toBeGreaterThan(20);
    const carrying = chunks.filter((f) => {
      const text = fs.readFileSync(f, "utf8");
      return ENGINE_MARKERS.some((m) => text.includes(m));
    });
    expect(carrying.map((f) => path.relative(DIST, f))).toEqual([]);
  });

  it("the server: one engine module after routes and pages of every kind ran, one state behind them all", async () => {
    const paths = [
      "/api/v1/health",
      "/api/v1/scheduler/demand?limit=3",
      "/api/v1/scheduler/executors",
      "/api/v1/scheduler/shadow",
      "/api/v1/policies",
      "/api/v1/session",
      "/api/v1/revisions/time?revision=2",
      "/api/v1/no-such-route",
      "/tables",
      "/policies",
      "/signin",
    ];
    for (const p of paths) {
      const res = await fetch(`${app.url}${p}`);
      expect(res.status, p).toBeLessThan(500);
      await res.arrayBuffer();
    }
    const loaded = (await evaluateInServer(
      app.inspectorUrl!,
      `Object.keys(require.cache).filter((f) => f.endsWith("engine.cjs"))`,
    )) as string[];
    expect(loaded).toEqual([`${DIST}-engine/engine.cjs`]);
    const slots = (await evaluateInServer(
      app.inspectorUrl!,
      `Object.getOwnPropertySymbols(globalThis).map((s) => s.description ?? "").filter((d) => d.startsWith("scheduler-console") || d.startsWith("console."))`,
    )) as string[];
    expect(slots).toEqual([]);
    // every route counted in the one registry /api/metrics reads (a second copy would count apart)
    const metrics = await fetchMetrics(app.url);
    for (const route of ["/api/v1/health", "/api/v1/scheduler/demand", "/api/v1/policies", "/api/v1/session"])
      expect(metricSum(metrics, "console_request_duration_seconds_count", { route }), route).toBeGreaterThan(0);
  });
});
