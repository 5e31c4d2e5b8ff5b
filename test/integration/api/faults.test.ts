// etcd stopped under a running console: requests fail with a typed 503 etcd_unavailable
// (never hang: each request has a deadline far above the console's 1.5 s etcd ping), health
// says down, and once etcd is back the console resumes without a restart. Waits are on
// conditions, never on the clock.
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Etcd3 } from "etcd3";
import { startApp, type RunningApp } from "../../support/app";
import { startEtcd, type EtcdCluster } from "../../support/etcd";
import { testPrefix } from "../../support/prefix";
import { seedScenarios, INCIDENT, INCIDENT_PENDING } from "@/lib/sim";
import { keys } from "@/lib/schema/keys";
import { until } from "../../support/observe";
import { api, clientFor, metricSum, q } from "./helpers";
import { demandListSchema } from "@/lib/schema/api/demand";
import { executorsResponseSchema } from "@/lib/schema/api/executors";
import { errorBodySchema } from "@/lib/schema/api/common";
import { healthResponseSchema } from "@/lib/schema/api/health";

let etcd: EtcdCluster;
let client: Etcd3;
let app: RunningApp;
let prefix: string;
/** the revision the seed ended at, before the console started (what it reads first) */
let seeded: number;

beforeAll(async () => {
  etcd = await startEtcd();
  client = clientFor(etcd.endpoints);
  prefix = testPrefix("api-faults");
  await seedScenarios(client, ["incidents"], { prefix, leaseTtlSec: 3600 });
  seeded = Number((await client.get(`${prefix}/`).exec()).header.revision);
  app = await startApp({ ETCD_ENDPOINTS: etcd.endpoints, ETCD_PREFIX: prefix, CONSOLE_SHADOW_SAMPLER: "off" });
});

afterAll(async () => {
  await app?.stop();
  client?.close();
  await etcd?.stop();
});

/** A request that must answer (not hang) well within its deadline. */
const DEADLINE_MS = 10_000;

it("answers a typed 503 while etcd is down and recovers when it returns", async () => {
  // the running merge makes progress: its answer rests on the version before the increase,
  // which the console re-checks against compaction every second while etcd answers
  const put = await client
    .put(keys.mergeProgress(prefix, INCIDENT.mergingExecutionId))
    .value(JSON.stringify({ sequence: INCIDENT.mergingSequence + 1 }));
  // the live view holds the increase (min_revision) before it is answered, and so resolved
  const warm = await api(app.url, `/api/v1/scheduler/demand${q({ min_revision: Number(put.header.revision) })}`);
  expect(warm.status).toBe(200);
  const warmBody = demandListSchema.parse(warm.body);
  expect(warmBody.tables_with_pending).toBe(Object.keys(INCIDENT_PENDING).length);

  await etcd.members[0].kill();
  // the console has seen its watch break (health asks etcd, reads no fleet)
  const noticed = await until(
    async () => {
      const h = healthResponseSchema.parse((await api(app.url, "/api/v1/health", DEADLINE_MS)).body);
      return h.snapshot.live === false ? h.snapshot.revision : undefined;
    },
    30_000,
    100,
  );
  expect(noticed, "the watch break is noticed").not.toBeNull();
  // a revision already in memory is immutable: it is still served, from memory; the last good
  // one (health's snapshot revision) is what a page opened during the outage asks for
  const lastGood = noticed!.value!;
  expect(lastGood).toBeGreaterThanOrEqual(warmBody.revision);
  const pinned = await api(app.url, `/api/v1/scheduler/demand${q({ revision: lastGood })}`, DEADLINE_MS);
  expect(pinned.status, JSON.stringify(pinned.body).slice(0, 300)).toBe(200);
  expect(demandListSchema.parse(pinned.body).snapshot).toMatchObject({ pinned: true, live: false });
  // and still when the page is opened later in the outage, past the second in which the
  // running merges' progress was last looked up in etcd (lib/live/progress-history.ts
  // COMPACTION_RECHECK_MS): the progress found for these same records answers
  const later = await until(
    async () => {
      const h = healthResponseSchema.parse((await api(app.url, "/api/v1/health", DEADLINE_MS)).body);
      return (h.snapshot.age_ms ?? 0) >= 3000 ? true : undefined;
    },
    30_000,
    200,
  );
  expect(later, "the snapshot is 3 s old").not.toBeNull();
  const pinnedLater = await api(app.url, `/api/v1/scheduler/demand${q({ revision: lastGood })}`, DEADLINE_MS);
  expect(pinnedLater.status, JSON.stringify(pinnedLater.body).slice(0, 300)).toBe(200);
  expect(demandListSchema.parse(pinnedLater.body).tables).toEqual(demandListSchema.parse(pinned.body).tables);
  const latencies: string[] = [];
  for (const path of [
    "/api/v1/scheduler/demand",
    "/api/v1/scheduler/executors",
    // from before the console's first read: neither held nor put back from the live view
    `/api/v1/scheduler/demand${q({ revision: seeded - 1 })}`,
    "/api/v1/scheduler/shadow/history",
  ]) {
    const res = await api(app.url, path, DEADLINE_MS);
    expect(res.status, path).toBe(503);
    const error = errorBodySchema.parse(res.body).error;
    expect(error.code).toBe("etcd_unavailable");
    expect(error.retry_after_ms).toBeGreaterThan(0);
    latencies.push(`${path} ${res.ms.toFixed(0)} ms`);
  }
  // health shares one probe round per second (lib/process/health.ts), but never a round from
  // before a data answer found etcd unavailable: the very next health answer says down
  const health = await api(app.url, "/api/v1/health", DEADLINE_MS);
  expect(health.status).toBe(503);
  const down = healthResponseSchema.parse(health.body);
  expect(down.status).toBe("down");
  expect(down.endpoints[0]).toMatchObject({ ok: false, latency_ms: null });
  // no endpoint answers: the cache is not live, whatever its watch has not noticed yet
  expect(down.snapshot.live).toBe(false);
  console.log(`[faults] 503 answers while etcd is down: ${latencies.join(", ")}; health ${health.ms.toFixed(0)} ms`);

  await etcd.members[0].start();
  const resumed = await until(
    async () => {
      const res = await api(app.url, "/api/v1/scheduler/demand", DEADLINE_MS);
      return res.status === 200 && demandListSchema.parse(res.body).snapshot.live ? true : undefined;
    },
    60_000,
    200,
  );
  expect(resumed, "live data again after etcd returns").not.toBeNull();
  expect(await metricSum(app.url, "console_watch_restarts_total")).toBeGreaterThanOrEqual(1);

  // the resumed watch delivers new writes again
  await client.put(keys.executor(prefix, "after-restart")).value(
    JSON.stringify({
      v: 1,
      kind: "worker",
      instance: "after-restart",
      kinds: [],
      slots_total: {},
      bytes_total: 0,
      draining: false,
      heartbeat_ms: 1,
    }),
  );
  const seen = await until(
    async () => {
      const ex = await api(app.url, "/api/v1/scheduler/executors");
      return executorsResponseSchema.parse(ex.body).executors.some((e) => e.id === "after-restart") ? true : undefined;
    },
    30_000,
    20,
  );
  expect(seen, "the new executor is served").not.toBeNull();
});
