// `npx tsx bench/history.ts`: GET /api/v1/scheduler/demand/history's work for 6 h of demo
// history, in-process against a fresh etcd. The live simulator (lib/sim/live.ts) flushes or
// merges a backlog table about once every 12 s, so 6 h is ~1,800 changes of one table's
// keys; the bench writes that many (4 shards, flush and merge events), with the fleet's
// heartbeats and the revision clock's samples between them on a compressed 6 h clock, then
// times demandHistory() (median of 5) and prints it beside the 1 s target. No pass/fail.
import "../lib/sim/node-entry";
import os from "node:os";
import { createEtcdClient } from "../lib/etcd/client";
import { executorMergedEvent, writerEvent } from "../lib/planner/join";
import { clockKey } from "../lib/live/sampler";
import { keys } from "../lib/schema/keys";
import { publishDemandEvent } from "../lib/sim/publish";
import { fleetExecutors, heartbeatValue } from "../lib/sim/scenarios/fleet";
import { startEtcd } from "../test/support/etcd";
import { median } from "./etcdctl-floor";
import { runBench, writeResult } from "./harness";

const PREFIX = "/bench-history/lance-context/master";
const TARGET = "ingest/clickstream";
const CHANGES = 1800;
const SHARDS = 4;
const WINDOW_MS = 6 * 3600_000;
const RUNS = 5;

async function main() {
  const cluster = await startEtcd();
  const client = createEtcdClient({ endpoints: cluster.endpoints.split(","), callTimeoutMs: 30_000 });
  try {
    const end = Date.now();
    const start = end - WINDOW_MS;
    const sealed = new Array<number>(SHARDS).fill(1000);
    const merged = new Array<number>(SHARDS).fill(1000);
    const executors = fleetExecutors(start);
    for (let i = 0; i < CHANGES; i++) {
      const at = start + Math.floor((i / CHANGES) * WINDOW_MS);
      const s = i % SHARDS;
      if (i % 3 === 2 && merged[s] < sealed[s]) {
        merged[s] = Math.min(sealed[s], merged[s] + 20);
        await publishDemandEvent(client, PREFIX, TARGET, executorMergedEvent(`shard-${s}`, merged[s], at));
      } else {
        sealed[s] += 3;
        await publishDemandEvent(client, PREFIX, TARGET, writerEvent({ shard: `shard-${s}`, sealed: sealed[s], bytes: sealed[s] * 1_048_576, epoch: 1, flushedAtMs: at }));
      }
      if (i % 5 === 0) {
        for (const e of executors) await client.put(keys.executor(PREFIX, e.id)).value(heartbeatValue(e, at));
        const revision = Number((await client.get(keys.leader(PREFIX)).exec()).header.revision);
        await client.put(clockKey(PREFIX, at + 1)).value(JSON.stringify({ at_ms: at + 1, revision }));
      }
      if (i % 200 === 0) process.stderr.write(`\rwriting history: ${i}/${CHANGES}`);
    }
    process.stderr.write("\n");
    process.env.ETCD_ENDPOINTS = cluster.endpoints;
    process.env.ETCD_PREFIX = PREFIX;
    const { demandHistory } = await import("../lib/api/history");
    const { historyQuery } = await import("../lib/schema/api/history");
    const query = historyQuery.parse({ target: TARGET });
    const times: number[] = [];
    const cpus: number[] = [];
    let points = 0;
    const loadBefore = os.loadavg();
    for (let run = 0; run < RUNS; run++) {
      const started = performance.now();
      const cpu = process.cpuUsage();
      const h = await demandHistory(query);
      const used = process.cpuUsage(cpu);
      times.push(performance.now() - started);
      cpus.push((used.user + used.system) / 1000);
      points = h.points.length;
    }
    const ms = median(times);
    const cpuMs = median(cpus);
    const result = {
      target: TARGET,
      changes: CHANGES,
      points,
      runs_ms: times.map((t) => Math.round(t)),
      median_ms: Math.round(ms),
      median_console_cpu_ms: Math.round(cpuMs),
      target_ms: 1000,
      ratio_to_target: +(ms / 1000).toFixed(2),
      load_before: loadBefore,
      load_after: os.loadavg(),
      cpus: os.cpus().length,
    };
    console.log(
      `demand history, 6 h of demo history (${points} points): median ${Math.round(ms)} ms (console CPU ${Math.round(cpuMs)} ms) over ${RUNS} runs = ${result.ratio_to_target}× the 1 s target; load ${loadBefore[0].toFixed(1)} on ${result.cpus} CPUs`,
    );
    writeResult("history", result);
  } finally {
    client.close();
    await cluster.stop();
  }
}

runBench(main);
