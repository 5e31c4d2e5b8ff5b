// `npm run bench:read`: the production scenario (§10 T23) in a fresh etcd; the median of 5
// full readFleet() calls against the median of 5 `etcdctl get --prefix` of the same
// prefix (the physical floor: one unpaged range, printed to /dev/null). Runs alternate so
// both see the same machine load. Prints the ratio (target ≤ 1.5) and page figures, and
// writes bench/results/read.json with the load average before and after (the machine is
// shared). A timed readFleet is complete: every family read, parsed, validated and typed
// (every demand event's `sealed_times` built into its compact form), every skip counted;
// the report counts the time entries of the last snapshot to show it.
import "../lib/sim/node-entry";
import os from "node:os";
import path from "node:path";
import { createRawEtcdClient } from "../lib/etcd/raw";
import { PAGE_MAX_KEYS } from "../lib/etcd/paged-read";
import { seedScenarios } from "../lib/sim/seed";
import { createFleetReader } from "../lib/snapshot/read";
import type { FleetSnapshot } from "../lib/snapshot/types";
import { startEtcd } from "../test/support/etcd";
import { etcdctlGet, median } from "./etcdctl-floor";
import { runBench, writeResult } from "./harness";

const RUNS = 5;
const PREFIX = "/bench/lance-context/master";

/** Σ entries of every demand event's `sealed_times`. */
function countTimeEntries(snapshot: FleetSnapshot): number {
  let n = 0;
  for (const { event } of snapshot.demandEvents) n += event.sealed_times?.size ?? 0;
  return n;
}

async function main() {
  const cluster = await startEtcd();
  const client = createRawEtcdClient({ endpoints: cluster.endpoints.split(","), callTimeoutMs: 30_000 });
  try {
    const seedStarted = performance.now();
    await seedScenarios(client, ["production"], { prefix: PREFIX, progress: (l) => process.stderr.write(`\r${l}`) });
    process.stderr.write("\n");
    const seedMs = performance.now() - seedStarted;
    const reader = createFleetReader({ client, prefix: PREFIX, cacheSize: 0 });

    // one warm-up of each (JIT, connections, etcd page cache), not counted
    await reader.readFleet();
    await etcdctlGet(cluster.endpoints, `${PREFIX}/`);

    const loadBefore = os.loadavg();
    const readMs: number[] = [];
    const floorMs: number[] = [];
    let last: FleetSnapshot | null = null;
    for (let i = 0; i < RUNS; i++) {
      const started = performance.now();
      last = await reader.readFleet();
      readMs.push(performance.now() - started);
      floorMs.push(await etcdctlGet(cluster.endpoints, `${PREFIX}/`));
    }
    const loadAfter = os.loadavg();
    const snap = last!;
    const result = {
      scenario: "production",
      at: new Date().toISOString(),
      runs: RUNS,
      keys: snap.stats.keys,
      demand_events: snap.demandEvents.length,
      skipped: snap.skipped.length,
      read_fleet_ms: { median: Math.round(median(readMs)), all: readMs.map(Math.round) },
      etcdctl_ms: { median: Math.round(median(floorMs)), all: floorMs.map(Math.round) },
      ratio: Number((median(readMs) / median(floorMs)).toFixed(2)),
      target_ratio: 1.5,
      sealed_time_entries: countTimeEntries(snap),
      pages: snap.stats.pages,
      shrinks: snap.stats.shrinks,
      bytes: snap.stats.bytes,
      page_max_keys: PAGE_MAX_KEYS,
      seed_ms: Math.round(seedMs),
      cpus: os.cpus().length,
      load_average_1m: Number(loadBefore[0].toFixed(2)),
      load_average: {
        before: loadBefore.map((l) => Number(l.toFixed(2))),
        after: loadAfter.map((l) => Number(l.toFixed(2))),
      },
      node: process.version,
    };
    const out = writeResult("read", result);
    console.log(
      `readFleet median ${result.read_fleet_ms.median} ms vs etcdctl get --prefix median ${result.etcdctl_ms.median} ms → ratio ${result.ratio} (target ≤ ${result.target_ratio}); ` +
        `${result.keys} keys, ${result.pages} pages, ${result.shrinks} shrinks, ${result.bytes} bytes → ${path.relative(process.cwd(), out)}`,
    );
    console.log(
      `${result.sealed_time_entries} sealed_times entries built; ` +
        `load average ${result.load_average.before.join(" ")} → ${result.load_average.after.join(" ")} on ${result.cpus} CPUs`,
    );
  } finally {
    client.close();
    await cluster.stop();
  }
}

runBench(main);
