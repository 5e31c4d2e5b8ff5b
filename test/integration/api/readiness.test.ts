// Ready before traffic (console-api.md Additions "Readiness"): the console reads and plans
// the fleet when the process starts. Health answers 503 "starting" until then and 200
// `ready` after, with no other request made, and the first demand request is served from
// that read (no full read of its own).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRawEtcdClient } from "@/lib/etcd/raw";
import { keys } from "@/lib/schema/keys";
import { demandListSchema } from "@/lib/schema/api/demand";
import { healthResponseSchema } from "@/lib/schema/api/health";
import { startApp, type RunningApp } from "../../support/app";
import { startEtcd, type EtcdCluster } from "../../support/etcd";
import { fetchMetrics, metricSum, until } from "../../support/observe";

const P = "/readiness";
let etcd: EtcdCluster;
let app: RunningApp | undefined;

async function health() {
  const res = await fetch(`${app!.url}/api/v1/health`, { signal: AbortSignal.timeout(10_000) });
  return { status: res.status, body: healthResponseSchema.parse(await res.json()) };
}

beforeAll(async () => {
  etcd = await startEtcd();
  const client = createRawEtcdClient({ endpoints: etcd.endpoints.split(","), callTimeoutMs: 10_000 });
  for (const [target, sealed] of [
    ["alpha", 20],
    ["beta", 3],
  ] as const) {
    await client.put(keys.demandEvent(P, target, "s1")).value(
      JSON.stringify({
        v: 1,
        shard: "s1",
        sealed_through: sealed,
        merged_through: 0,
        flushed_at_ms: 1000,
        writer_epoch: 1,
        source: "writer",
      }),
    );
  }
  client.close();
});

afterAll(async () => {
  await app?.stop();
  await etcd?.stop();
});

describe("readiness", () => {
  it("503 starting until the first read and plan, then 200 ready unprompted; the first demand request reads nothing", async () => {
    const member = etcd.members[0];
    // etcd frozen: the start-up read cannot finish, so the console is seen starting
    member.process!.kill("SIGSTOP");
    try {
      app = await startApp(
        { ETCD_ENDPOINTS: etcd.endpoints, ETCD_PREFIX: P, CONSOLE_SHADOW_SAMPLER: "off" },
        { ready: false },
      );
      const starting = await health();
      expect(starting.status).toBe(503);
      expect(starting.body).toMatchObject({ status: "starting", ready: false });
    } finally {
      member.process!.kill("SIGCONT");
    }

    // from here only health and metrics are asked: neither reads the fleet
    const ready = await until(async () => {
      const h = await health();
      // ready, and its watch connected (a watch opened just as etcd thawed may need one retry)
      return h.status === 200 && h.body.ready && h.body.snapshot.live ? h.body : undefined;
    }, 60_000);
    expect(ready?.value).toMatchObject({ status: "ok", ready: true, snapshot: { live: true } });
    const before = await fetchMetrics(app!.url);
    const readsBefore = metricSum(before, "console_snapshot_full_reads_total");
    expect(metricSum(before, "console_snapshot_full_reads_total", { reason: "initial" })).toBe(1);
    expect(metricSum(before, "console_plans_total")).toBeGreaterThanOrEqual(1);

    const res = await fetch(`${app!.url}/api/v1/scheduler/demand?limit=10`);
    expect(res.status).toBe(200);
    const list = demandListSchema.parse(await res.json());
    expect(list.tables.map((t) => t.target)).toEqual(["alpha", "beta"]);
    const after = await fetchMetrics(app!.url);
    // served from the ready cache: the request itself read nothing
    expect(metricSum(after, "console_snapshot_full_reads_total")).toBe(readsBefore);
  });
});
