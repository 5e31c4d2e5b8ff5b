// The CI smoke version of `npm run bench:load`: 16 clients for 15 s on list,
// detail, executors and shadow, a slice of the production scenario (2,000 of its 13,405
// tables; the full run is the benchmark), a write burst every 500 ms. Zero errors; no
// more than one full etcd read per write burst (the watch-fed cache applies bursts
// incrementally); the server's live heap and RSS after the run close to after warm-up.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { productionTarget } from "@/lib/sim/scenarios/production";
import { startApp, type RunningApp } from "../../support/app";
import { startEtcd, type EtcdCluster } from "../../support/etcd";
import { EtcdHttp } from "../../support/etcd-http";
import { liveHeapWithoutAnswerCaches } from "../../support/inspector";
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
  app = await startApp({ ETCD_ENDPOINTS: cluster.endpoints, ETCD_PREFIX: P }, { inspect: true });
});

afterAll(async () => {
  await app?.stop();
  await cluster?.stop();
});

describe("load smoke", () => {
  it("16 clients for 15 s with a writer: no errors, at most one full read per burst, flat live heap and RSS", async () => {
    const result = await runLoad({
      baseUrl: app.url,
      serverPid: app.process.pid!,
      clients: 16,
      warmupMs: 20_000,
      durationMs: 15_000,
      targets: Array.from({ length: 200 }, (_, k) => productionTarget((k * 7919) % TABLES)),
      writer: burstWriter(etcd, 500, (b) => productionBurst(P, b, 10, TABLES)),
      liveHeap: () => liveHeapWithoutAnswerCaches(app.inspectorUrl!),
      log: (s) => console.log(`[load-smoke] ${s}`),
    });
    console.log(
      `[load-smoke] ${JSON.stringify({ all: result.all, rss: result.rss, heap: result.heap, etcd: result.etcd })}`,
    );
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
    // Memory. The precise check is the live heap: in use after a full GC forced through
    // the server's inspector, at the end of the warm-up and after the run, with the caches
    // that fill with use emptied (test/support/inspector.ts). Through Next's routing two runs
    // read 0.988× and 1.021× (~53 MiB, ~17,000 requests in the run); with a deliberate leak of
    // one 1 KiB string per request it read 1.096×, and the old plan cache kept ~1 MiB per plan.
    // With the direct reads (lib/engine/direct.ts: ~20,000 requests here) six runs read
    // 1.053× to 1.065×, and a heap snapshot diff put the rise in the live view's state at the
    // moment of each reading (its demand-event list, made when first read: 0 → 1.5 MiB) and
    // compiled code, not in anything per request: 30,000 direct reads with no writer left the
    // live heap at 85.5 → 85.1 MiB. 8 % (4 MiB) holds that, and a leak of 1 KiB per request
    // (+20 MiB) or of one plan per burst (+30 MiB) still fails it many times over.
    const heap = result.heap!;
    expect(heap.live_ratio).toBeLessThanOrEqual(1.08);
    // the server's own gauge saw that GC (docs/operations.md alerts on it)
    expect(Math.abs(heap.gauge_after_mib - heap.after_live_mib)).toBeLessThanOrEqual(heap.after_live_mib * 0.1);
    // RSS, the benchmark's figure, is coarse: it climbs through the warm-up as V8 grows its
    // heap (~150 → ~315 MiB) and can step up tens of MiB more in the run while the live
    // heap stays flat (tail medians 1.04–1.16× here; one CI run's single samples read
    // 1.33×). The benchmark holds it to 10 % over 60 s; here it only bounds gross growth.
    expect(result.rss.rss_ratio).toBeLessThanOrEqual(1.5);
  });
});
