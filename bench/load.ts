// `npm run bench:load`: the production scenario (§10 T23: 13,405 tables × 2
// shards) in a fresh etcd, a real `next start` of the production build, lib/sim's live
// simulator writing (one tick a second: 20 writer flushes, the merges of 15 slots and the
// heartbeats, each flush and merge a CAS publish), and 64 concurrent clients on list,
// detail, executors and shadow for 60 s after a 30 s warm-up (the simulator writes through
// both). Prints and writes bench/results/load.json: errors, p50/p95 per endpoint, server
// RSS after the run vs after warm-up (each the median of the phase's last 3 s, sampled
// every 250 ms), the live heap after each (a full GC forced through the server's
// inspector, the bounded answer caches emptied first), and full etcd reads per
// simulator tick in the run (a revision-change burst; /api/metrics).
//
// Needs a production build (`npx next build`, or NEXT_DIST_DIR=<dir> for another one).
// Flags: --clients=64 --seconds=60 --warmup=30 --burst-ms=1000
import "../lib/sim/node-entry";
import fs from "node:fs";
import path from "node:path";
import { createRawEtcdClient } from "../lib/etcd/raw";
import { runLive } from "../lib/sim/live";
import { productionTarget, PRODUCTION_TABLES } from "../lib/sim/scenarios/production";
import { startApp } from "../test/support/app";
import { startEtcd } from "../test/support/etcd";
import { EtcdHttp } from "../test/support/etcd-http";
import { liveHeapWithoutAnswerCaches } from "../test/support/inspector";
import { runLoad, type LoadWriter } from "../test/support/load-driver";
import { seedProduction } from "../test/support/production-load";
import { runBench } from "./harness";

const P = "/lance-context/master";

function flag(name: string, fallback: number): number {
  const arg = process.argv.find((a) => a.startsWith(`--${name}=`));
  return arg ? Number(arg.slice(name.length + 3)) : fallback;
}

/** lib/sim's live simulator (writers flush, executors merge, heartbeats); one tick = one burst. */
function liveSimulator(endpoints: string, intervalMs: number, log: (s: string) => void): LoadWriter {
  const client = createRawEtcdClient({ endpoints: endpoints.split(",") });
  const abort = new AbortController();
  let run: Promise<{ ticks: number }> | null = null;
  let ticks = 0;
  let last = 0;
  return {
    everyMs: intervalMs,
    start() {
      run = runLive(client, {
        prefix: P,
        intervalMs,
        flushesPerTick: 20, // the writer load this benchmark has always measured (not the demo's steady world)
        signal: abort.signal,
        log: (l) => log(`sim ${l}`),
        onTick: (s) => (ticks = s.ticks),
      });
    },
    bursts: () => ticks,
    lastRevision: () => last,
    async stop() {
      abort.abort();
      const stats = await run!;
      // etcd's revision once the simulator stopped: everything it wrote is at or below it
      last = Number((await client.get(`${P}/leader`).exec()).header.revision);
      client.close();
      return stats.ticks;
    },
  };
}

async function main(): Promise<void> {
  const clients = flag("clients", 64);
  const seconds = flag("seconds", 60);
  const warmup = flag("warmup", 30);
  const burstMs = flag("burst-ms", 1000);
  const log = (s: string) => console.log(`[bench:load] ${s}`);
  const cluster = await startEtcd({ size: 1, extraArgs: ["--quota-backend-bytes=4294967296"] });
  let app: Awaited<ReturnType<typeof startApp>> | null = null;
  try {
    const etcd = new EtcdHttp(cluster.members[0].clientUrl);
    await seedProduction(etcd, P, log);
    app = await startApp({ ETCD_ENDPOINTS: cluster.endpoints, ETCD_PREFIX: P }, { inspect: true });
    const inspectorUrl = app.inspectorUrl!;
    const first = Date.now();
    const res = await fetch(`${app.url}/api/v1/scheduler/demand?limit=100`);
    log(`first request (cold full read): ${res.status} in ${Date.now() - first} ms`);
    const targets = Array.from({ length: 500 }, (_, k) => productionTarget((k * 7919) % PRODUCTION_TABLES));
    const result = await runLoad({
      baseUrl: app.url,
      serverPid: app.process.pid!,
      clients,
      warmupMs: warmup * 1000,
      durationMs: seconds * 1000,
      targets,
      writer: liveSimulator(cluster.endpoints, burstMs, log),
      liveHeap: () => liveHeapWithoutAnswerCaches(inspectorUrl),
      log,
    });
    const out = {
      benchmark: "load",
      scenario: "production (13,405 tables × 2 shards) + 6 executors",
      at: new Date().toISOString(),
      ...result,
    };
    const file = path.resolve(__dirname, "results/load.json");
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `${JSON.stringify(out, null, 2)}\n`);
    log(
      `errors ${result.all.errors} of ${result.all.requests}; p50 ${result.all.p50_ms} ms, p95 ${result.all.p95_ms} ms, ${result.all.requests_per_s} req/s`,
    );
    for (const [e, s] of Object.entries(result.by_endpoint))
      log(`  ${e.padEnd(9)} n=${s.requests} p50 ${s.p50_ms} ms p95 ${s.p95_ms} ms errors ${s.errors}`);
    log(
      `RSS after warm-up ${result.rss.warm_mib} MiB, after run ${result.rss.after_mib} MiB (ratio ${result.rss.rss_ratio}; target ≤ 1.10)`,
    );
    log(
      `live heap after warm-up ${result.heap?.warm_live_mib} MiB, after run ${result.heap?.after_live_mib} MiB (ratio ${result.heap?.live_ratio})`,
    );
    log(
      `bursts ${result.etcd.bursts}, full reads ${result.etcd.full_reads} (${result.etcd.full_reads_per_burst}/burst), watch events ${result.etcd.watch_events}, plans ${result.etcd.plans}`,
    );
    log(`wrote bench/results/load.json`);
    if (result.all.errors > 0) process.exitCode = 1;
  } finally {
    await app?.stop();
    await cluster.stop();
  }
}

runBench(main);
