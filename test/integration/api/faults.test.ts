// etcd stopped under a running console: requests fail fast with 503 etcd_unavailable (never
// hang), health says down, and once etcd is back the console resumes without a restart.
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Etcd3 } from "etcd3";
import { startApp, type RunningApp } from "../../support/app";
import { startEtcd, type EtcdCluster } from "../../support/etcd";
import { testPrefix } from "../../support/prefix";
import { seedScenarios, INCIDENT_PENDING } from "@/lib/sim";
import { keys } from "@/lib/schema/keys";
import { api, clientFor, metricSum, q } from "./helpers";

let etcd: EtcdCluster;
let client: Etcd3;
let app: RunningApp;
let prefix: string;

beforeAll(async () => {
  etcd = await startEtcd();
  client = clientFor(etcd.endpoints);
  prefix = testPrefix("api-faults");
  await seedScenarios(client, ["incidents"], { prefix, leaseTtlSec: 3600 });
  app = await startApp({ ETCD_ENDPOINTS: etcd.endpoints, ETCD_PREFIX: prefix, CONSOLE_SHADOW_SAMPLER: "off" });
});

afterAll(async () => {
  await app?.stop();
  client?.close();
  await etcd?.stop();
});

it("answers 503 within 2 s while etcd is down and recovers when it returns", async () => {
  const warm = await api(app.url, "/api/v1/scheduler/demand");
  expect(warm.status).toBe(200);
  expect(warm.body.tables_with_pending).toBe(Object.keys(INCIDENT_PENDING).length);

  await etcd.members[0].kill();
  await new Promise((r) => setTimeout(r, 300));
  // a revision already in memory is immutable: it is still served, from memory
  const pinned = await api(app.url, `/api/v1/scheduler/demand${q({ revision: warm.body.revision })}`, 10_000);
  expect(pinned.status).toBe(200);
  expect(pinned.body.snapshot).toMatchObject({ pinned: true, live: false });
  for (const path of ["/api/v1/scheduler/demand", "/api/v1/scheduler/executors", `/api/v1/scheduler/demand${q({ revision: warm.body.revision - 1 })}`, "/api/v1/scheduler/shadow/history"]) {
    const res = await api(app.url, path, 10_000);
    expect(res.status, path).toBe(503);
    expect(res.body.error.code).toBe("etcd_unavailable");
    expect(res.body.error.retry_after_ms).toBeGreaterThan(0);
    expect(res.ms, path).toBeLessThan(2000);
  }
  const health = await api(app.url, "/api/v1/health", 10_000);
  expect(health.status).toBe(503);
  expect(health.body.status).toBe("down");
  expect(health.body.endpoints[0]).toMatchObject({ ok: false, latency_ms: null });
  expect(health.body.snapshot.live).toBe(false);
  expect(health.ms).toBeLessThan(2000);

  await etcd.members[0].start();
  const back = Date.now();
  let res = await api(app.url, "/api/v1/scheduler/demand", 10_000).catch(() => null);
  while ((res?.status !== 200 || !res.body.snapshot.live) && Date.now() - back < 15_000) {
    await new Promise((r) => setTimeout(r, 200));
    res = await api(app.url, "/api/v1/scheduler/demand", 10_000).catch(() => null);
  }
  expect(res?.status).toBe(200);
  expect(res!.body.snapshot.live).toBe(true);
  expect(await metricSum(app.url, "console_watch_restarts_total")).toBeGreaterThanOrEqual(1);

  // the resumed watch delivers new writes again
  await client.put(keys.executor(prefix, "after-restart")).value(JSON.stringify({ v: 1, kind: "worker", instance: "after-restart", kinds: [], slots_total: {}, bytes_total: 0, draining: false, heartbeat_ms: 1 }));
  let seen = false;
  for (let i = 0; i < 50 && !seen; i++) {
    const ex = await api(app.url, "/api/v1/scheduler/executors");
    seen = ex.body.executors.some((e: any) => e.id === "after-restart");
    if (!seen) await new Promise((r) => setTimeout(r, 20));
  }
  expect(seen).toBe(true);
});
