// The CI smoke version of `npm run bench:load` (issue 7): 16 clients for 10 s on list,
// detail, executors and shadow, a slice of the production scenario (2,000 of its 13,405
// tables; the full run is the benchmark), a write burst every 500 ms. Zero errors; no
// more than one full etcd read per write burst (the watch-fed cache applies bursts
// incrementally); server RSS after the run close to after warm-up.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { productionTarget } from "@/lib/sim/scenarios/production";
import { startApp, type RunningApp } from "../../support/app";
import { startEtcd, type EtcdCluster } from "../../support/etcd";
import { EtcdHttp } from "../../support/etcd-http";
import { burstWriter, runLoad } from "../../support/load-driver";
import { productionBurst, seedProduction } from "../../support/production-load";

const P = "/rel-load/lance-context/master";
const TABLES = 2000;

let cluster: EtcdCluster;
let app: RunningApp;
let etcd: EtcdHttp;

beforeAll(async () => {
  cluster = await startEtcd({ size: 1 });
  etcd = new EtcdHttp(cluster.members[0].clientUrl);
  await seedProduction(etcd, P, (s) => console.log(`[load-smoke] ${s}`), TABLES);
  app = await startApp({ ETCD_ENDPOINTS: cluster.endpoints, ETCD_PREFIX: P });
});

afterAll(async () => {
  await app?.stop();
  await cluster?.stop();
});

describe("load smoke", () => {
  it("16 clients for 10 s with a writer: no errors, at most one full read per burst, flat RSS", async () => {
    const result = await runLoad({
      baseUrl: app.url,
      serverPid: app.process.pid!,
      clients: 16,
      warmupMs: 20_000,
      durationMs: 10_000,
      targets: Array.from({ length: 200 }, (_, k) => productionTarget((k * 7919) % TABLES)),
      writer: burstWriter(etcd, 500, (b) => productionBurst(P, b, 10, TABLES)),
      log: (s) => console.log(`[load-smoke] ${s}`),
    });
    console.log(`[load-smoke] ${JSON.stringify({ all: result.all, rss: result.rss, etcd: result.etcd })}`);
    expect(result.error_samples).toEqual([]);
    expect(result.all.errors).toBe(0);
    expect(result.all.requests).toBeGreaterThan(100);
    for (const e of Object.values(result.by_endpoint)) expect(e.requests).toBeGreaterThan(10);
    expect(result.etcd.bursts).toBeGreaterThanOrEqual(10);
    // every burst reached the cache through the watch (2 events per changed table)...
    expect(result.etcd.watch_events).toBeGreaterThanOrEqual(result.etcd.bursts * 20);
    expect(result.etcd.watch_restarts).toBe(0);
    // ...so concurrent requests never multiplied full reads: at most one per burst
    expect(result.etcd.full_reads).toBeLessThanOrEqual(result.etcd.bursts);
    // The heap needs a long warm-up under load to reach its steady size. After 20 s of it,
    // three CI runs of this window read 0.87, 1.02 and 1.16 (GC timing, no leak); the old
    // plan cache, which did leak, read 1.47 (8 s warm-up) and 2.0 over the 60 s benchmark, whose
    // target is 10 %. 1.3 separates the two.
    expect(result.rss.rss_ratio).toBeLessThanOrEqual(1.3);
  });
});
