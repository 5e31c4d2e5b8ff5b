// `npx tsx bench/diff.ts`: GET /api/v1/scheduler/diff across the production fleet (§10 T23,
// 13,405 tables) against two pinned fleet reads of the same revisions (the floor the
// contract compares it with: "about the time of two pinned reads"). In-process against a
// fresh etcd; the diff's caches are emptied between runs (a new process module state per
// run is too slow here), so every run reads both sides. Prints the ratio; no pass/fail.
import "../lib/sim/node-entry";
import os from "node:os";
import { createRawEtcdClient } from "../lib/etcd/raw";
import { writerEvent } from "../lib/planner/join";
import { publishDemandEvent } from "../lib/sim/publish";
import { seedScenarios } from "../lib/sim/seed";
import { createFleetReader } from "../lib/snapshot/read";
import { startEtcd } from "../test/support/etcd";
import { median } from "./etcdctl-floor";
import { runBench, writeResult } from "./harness";

const PREFIX = "/bench-diff/lance-context/master";
const RUNS = 5;

async function main() {
  const cluster = await startEtcd();
  const client = createRawEtcdClient({ endpoints: cluster.endpoints.split(","), callTimeoutMs: 30_000 });
  try {
    await seedScenarios(client, ["production"], { prefix: PREFIX, progress: (l) => process.stderr.write(`\r${l}`) });
    process.stderr.write("\n");
    const from = Number((await client.get(`${PREFIX}/leader`).exec()).header.revision);
    for (let i = 0; i < 50; i++)
      await publishDemandEvent(
        client,
        PREFIX,
        `exp-${String(i * 7).padStart(5, "0")}`,
        writerEvent({
          shard: "aaaaaaaa-0000-0000-0000-000000000001",
          sealed: 5000 + i,
          bytes: 1,
          epoch: 3,
          flushedAtMs: Date.now(),
        }),
      );
    const to = Number((await client.get(`${PREFIX}/leader`).exec()).header.revision);
    process.env.ETCD_ENDPOINTS = cluster.endpoints;
    process.env.ETCD_PREFIX = PREFIX;
    const { fleetDiff } = await import("../lib/time/diff");
    const { diffQuerySchema: diffQuery } = await import("../lib/schema/api/diff");
    const { forgetExactPlans } = await import("../lib/live/plan");
    const { dropLiveCache } = await import("../lib/live/cache");
    const { dropRevisionClock } = await import("../lib/live/revision-clock");
    const reader = createFleetReader({ client, prefix: PREFIX, cacheSize: 0 });
    const reads: number[] = [];
    const diffs: number[] = [];
    let changed = 0;
    for (let run = 0; run < RUNS; run++) {
      let started = performance.now();
      await reader.readFleet({ revision: from });
      await reader.readFleet({ revision: to });
      reads.push(performance.now() - started);
      // fresh plan and view caches: every run reads and plans both sides
      forgetExactPlans();
      await dropLiveCache();
      dropRevisionClock();
      started = performance.now();
      const d = await fleetDiff(diffQuery.parse({ from: String(from), to: String(to) }));
      diffs.push(performance.now() - started);
      changed = d.counts.class_changed + d.counts.verdict_changed + d.counts.appeared;
    }
    const result = {
      tables: 13_405,
      changed,
      two_pinned_reads_ms: Math.round(median(reads)),
      diff_ms: Math.round(median(diffs)),
      ratio: +(median(diffs) / median(reads)).toFixed(2),
      runs: { reads: reads.map(Math.round), diffs: diffs.map(Math.round) },
      load: os.loadavg(),
      cpus: os.cpus().length,
    };
    console.log(
      `diff across 13,405 tables: ${result.diff_ms} ms vs two pinned reads ${result.two_pinned_reads_ms} ms = ${result.ratio}× (load ${result.load[0].toFixed(1)} on ${result.cpus} CPUs)`,
    );
    writeResult("diff", result);
  } finally {
    client.close();
    await cluster.stop();
  }
}

runBench(main);
