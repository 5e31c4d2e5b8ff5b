// `npm run bench:api`: a fresh etcd with the production scenario (§10 T23, 13,405
// tables) and a real `next start` of the production build ($NEXT_DIST_DIR, default .next).
// Prints, from one run:
// * the cold first response of `demand?limit=2000` against the `etcdctl get --prefix`
//   floor (median of 3) → ratio (target ≤ 1.5), with what bounds it on this machine: the
//   CPU the cold request costs (console + etcd, from /proc) ÷ CPUs, a cold bare paged read
//   in a fresh process (./cold-transport.ts), and the same path with the JIT warm;
// * warm p50/p95 of list and detail requests under 32 concurrent clients;
// * the cost of a refresh after one table changes (watch batch applied, touched key
//   re-parsed, touched table re-folded, snapshot handed out) relative to a full read of the
//   fleet, measured in-process on the same lib/live code (target < 5 %);
// and writes bench/results/api.json.
import "../lib/sim/node-entry";
import { execFile } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { createRawEtcdClient } from "../lib/etcd/raw";
import { seedScenarios } from "../lib/sim/seed";
import { PRODUCTION_SHARDS, PRODUCTION_TABLES, productionTarget } from "../lib/sim/scenarios/production";
import { keys } from "../lib/schema/keys";
import { readFolded } from "../lib/live/read";
import { plannerFleet } from "../lib/snapshot/planner-input";
import { planFleet } from "../lib/planner/plan";
import { tableSummary } from "../lib/scheduler/demand";
import { LiveStore } from "../lib/snapshot/store";
import { startEtcd } from "../test/support/etcd";
import { startApp } from "../test/support/app";
import { cpuMsOf } from "../test/support/observe";
import { etcdctlGet, median } from "./etcdctl-floor";
import { runBench, writeResult } from "./harness";

const PREFIX = "/bench-api/lance-context/master";
const CLIENTS = 32;
const WARM_SECONDS = 10;
const execFileAsync = promisify(execFile);

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];
const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;

async function timed(url: string): Promise<{ ms: number; status: number }> {
  const started = performance.now();
  const res = await fetch(url);
  await res.arrayBuffer();
  return { ms: performance.now() - started, status: res.status };
}

/** 32 clients, each alternating list and detail requests for WARM_SECONDS. */
async function warm(base: string) {
  const list: number[] = [];
  const detail: number[] = [];
  let errors = 0;
  const until = performance.now() + WARM_SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, c) => {
      for (let i = 0; performance.now() < until; i++) {
        const isList = (i + c) % 2 === 0;
        const url = isList
          ? `${base}/api/v1/scheduler/demand?limit=100`
          : `${base}/api/v1/scheduler/demand?target=${encodeURIComponent(productionTarget((c * 977 + i * 131) % PRODUCTION_TABLES))}`;
        const r = await timed(url);
        if (r.status !== 200) errors++;
        (isList ? list : detail).push(r.ms);
      }
    }),
  );
  const stats = (xs: number[]) => ({ requests: xs.length, p50_ms: round(pct(xs, 50)), p95_ms: round(pct(xs, 95)) });
  return { clients: CLIENTS, seconds: WARM_SECONDS, errors, list: stats(list), detail: stats(detail) };
}

/** ./cold-transport.ts in fresh processes: a cold bare paged read (no parsing), its CPU and etcd's. */
async function coldTransport(endpoints: string, etcdPid: number | undefined, runs = 3) {
  const wall: number[] = [];
  const cpu: number[] = [];
  const etcd: number[] = [];
  for (let i = 0; i < runs; i++) {
    const before = cpuMsOf(etcdPid);
    const child = await execFileAsync(process.execPath, [
      path.join(__dirname, "../node_modules/tsx/dist/cli.mjs"),
      path.join(__dirname, "cold-transport.ts"),
      endpoints,
      PREFIX,
    ]);
    const r = JSON.parse(child.stdout.trim().split("\n").pop()!) as { wall_ms: number; cpu_ms: number };
    wall.push(r.wall_ms);
    cpu.push(r.cpu_ms);
    etcd.push(cpuMsOf(etcdPid) - before); // includes the child's 1-key connect range
  }
  return { wall_ms: round(median(wall)), console_cpu_ms: round(median(cpu)), etcd_cpu_ms: median(etcd) };
}

/** In-process: full read vs applying a one-table watch batch and handing out the new state. */
async function refreshCost(endpoints: string) {
  const client = createRawEtcdClient({ endpoints: endpoints.split(","), callTimeoutMs: 30_000 });
  try {
    const fullMs: number[] = [];
    const refreshMs: number[] = [];
    /** the cold request's whole path (read, fold, plan, 2,000 rows as JSON) with the JIT warm */
    const warmPathMs: number[] = [];
    await readFolded(client, PREFIX); // warm-up
    for (let run = 0; run < 5; run++) {
      const started = performance.now();
      const { snapshot, demand } = await readFolded(client, PREFIX);
      const store = new LiveStore(snapshot);
      const tables = demand.tables(store.snapshot());
      fullMs.push(performance.now() - started);
      const plan = planFleet(plannerFleet({ snapshot: store.snapshot(), tables }), Date.now());
      JSON.stringify(plan.tables.slice(0, 2000).map((t) => tableSummary(t, plan.line)));
      warmPathMs.push(performance.now() - started);

      const target = productionTarget(4242 + run);
      const value = JSON.stringify({
        v: 1,
        shard: PRODUCTION_SHARDS[0],
        sealed_through: 5000 + run,
        sealed_bytes_through: 67_108_864,
        merged_through: 1000,
        flushed_at_ms: 1_700_000_005_000,
        writer_epoch: 3,
        source: "scan",
      });
      const kv = {
        key: keys.demandEvent(PREFIX, target, PRODUCTION_SHARDS[0]),
        value: Buffer.from(value),
        modRevision: snapshot.revision + 1,
        lease: "0",
      };
      const t0 = performance.now();
      store.apply({ revision: snapshot.revision + 1, changes: [{ type: "put", kv }] }, (family) => {
        if (family === "demand-events") demand.touch(target);
      });
      demand.tables(store.snapshot());
      refreshMs.push(performance.now() - t0);
    }
    return {
      warm_full_path_ms: round(median(warmPathMs)),
      full_read_and_index_ms: round(median(fullMs)),
      refresh_ms: round(median(refreshMs), 3),
      refresh_ratio: Number((median(refreshMs) / median(fullMs)).toFixed(4)),
    };
  } finally {
    client.close();
  }
}

async function main() {
  const cluster = await startEtcd();
  const client = createRawEtcdClient({ endpoints: cluster.endpoints.split(","), callTimeoutMs: 30_000 });
  let app: Awaited<ReturnType<typeof startApp>> | null = null;
  try {
    await seedScenarios(client, ["production"], { prefix: PREFIX, progress: (l) => process.stderr.write(`\r${l}`) });
    process.stderr.write("\n");
    await etcdctlGet(cluster.endpoints, `${PREFIX}/`); // warm etcd's page cache like the app's read will be
    app = await startApp({ ETCD_ENDPOINTS: cluster.endpoints, ETCD_PREFIX: PREFIX, CONSOLE_SHADOW_SAMPLER: "off" });
    const etcdPid = cluster.members[0].process?.pid;
    const cpuBefore = { console: cpuMsOf(app.process.pid), etcd: cpuMsOf(etcdPid) };
    const cold = await timed(`${app.url}/api/v1/scheduler/demand?limit=2000`);
    if (cold.status !== 200) throw new Error(`cold request answered ${cold.status}`);
    const coldCpu = { console: cpuMsOf(app.process.pid) - cpuBefore.console, etcd: cpuMsOf(etcdPid) - cpuBefore.etcd };
    const floors: number[] = [];
    const floorEtcdCpu: number[] = [];
    for (let i = 0; i < 3; i++) {
      const before = cpuMsOf(etcdPid);
      floors.push(await etcdctlGet(cluster.endpoints, `${PREFIX}/`));
      floorEtcdCpu.push(cpuMsOf(etcdPid) - before);
    }
    const transport = await coldTransport(cluster.endpoints, etcdPid);
    const secondList = await timed(`${app.url}/api/v1/scheduler/demand?limit=2000`);
    const sequential = { list: [] as number[], detail: [] as number[] };
    for (let i = 0; i < 20; i++) {
      sequential.list.push((await timed(`${app.url}/api/v1/scheduler/demand?limit=100`)).ms);
      sequential.detail.push(
        (await timed(`${app.url}/api/v1/scheduler/demand?target=${encodeURIComponent(productionTarget(i * 577))}`)).ms,
      );
    }
    const metricsText = await (await fetch(`${app.url}/api/metrics`)).text();
    const readSeconds = Number(/console_snapshot_read_seconds_sum\{mode="full"\} (\S+)/.exec(metricsText)?.[1] ?? NaN);
    const warmStats = await warm(app.url);
    await app.stop();
    app = null;
    const refresh = await refreshCost(cluster.endpoints);
    const result = {
      scenario: "production",
      at: new Date().toISOString(),
      tables: PRODUCTION_TABLES,
      cold_first_list_ms: round(cold.ms),
      etcdctl_floor_ms: { median: round(median(floors)), all: floors.map((f) => round(f)) },
      cold_over_floor_ratio: Number((cold.ms / median(floors)).toFixed(2)),
      cold_target_ratio: 1.5,
      cold_full_read_and_fold_ms: round(readSeconds * 1000),
      // The CPU the cold request cost (the console's process and etcd's), and the least
      // wall time that much work needs on this machine's CPUs even if perfectly parallel.
      cold_cpu_ms: coldCpu,
      floor_etcd_cpu_ms: median(floorEtcdCpu),
      cold_capacity_bound_ms: round((coldCpu.console + coldCpu.etcd) / os.cpus().length),
      cold_capacity_bound_ratio: Number(
        ((coldCpu.console + coldCpu.etcd) / os.cpus().length / median(floors)).toFixed(2),
      ),
      cold_bare_read: { ...transport, ratio: Number((transport.wall_ms / median(floors)).toFixed(2)) },
      warm_full_path_ratio: Number((refresh.warm_full_path_ms / median(floors)).toFixed(2)),
      second_list_ms: round(secondList.ms),
      sequential_p50_ms: { list: round(median(sequential.list)), detail: round(median(sequential.detail)) },
      load_average: os.loadavg().map((l) => round(l, 2)),
      warm: warmStats,
      refresh,
      refresh_target_ratio: 0.05,
      cpus: os.cpus().length,
    };
    const out = writeResult("api", result);
    console.log(
      `cold demand?limit=2000 ${result.cold_first_list_ms} ms (of which full read + parse + fold ${result.cold_full_read_and_fold_ms} ms) vs etcdctl floor ${result.etcdctl_floor_ms.median} ms → ratio ${result.cold_over_floor_ratio} (target ≤ 1.5)\n` +
        `  cold request CPU: console ${coldCpu.console} ms + etcd ${coldCpu.etcd} ms (etcd ${result.floor_etcd_cpu_ms} ms for the floor) → at least ${result.cold_capacity_bound_ms} ms on ${os.cpus().length} CPUs even if perfectly parallel (${result.cold_capacity_bound_ratio}× the floor)\n` +
        `  a cold bare paged read alone (fresh process, no parsing): ${transport.wall_ms} ms (${result.cold_bare_read.ratio}× the floor), CPU ${transport.console_cpu_ms} ms + etcd ${transport.etcd_cpu_ms} ms\n` +
        `  the same path with the JIT warm (in-process, median of 5): ${refresh.warm_full_path_ms} ms (${result.warm_full_path_ratio}× the floor)\n` +
        `sequential p50: list ${result.sequential_p50_ms.list} ms, detail ${result.sequential_p50_ms.detail} ms; load average ${result.load_average.join(" ")} on ${result.cpus} CPUs\n` +
        `warm (${CLIENTS} clients, ${WARM_SECONDS} s): list p50 ${warmStats.list.p50_ms} ms p95 ${warmStats.list.p95_ms} ms (${warmStats.list.requests} req); ` +
        `detail p50 ${warmStats.detail.p50_ms} ms p95 ${warmStats.detail.p95_ms} ms (${warmStats.detail.requests} req); errors ${warmStats.errors}\n` +
        `refresh after one table change ${refresh.refresh_ms} ms vs full read + index ${refresh.full_read_and_index_ms} ms → ${(refresh.refresh_ratio * 100).toFixed(2)} % (target < 5 %)\n` +
        `→ ${path.relative(process.cwd(), out)}`,
    );
  } finally {
    await app?.stop();
    client.close();
    await cluster.stop();
  }
}

runBench(main);
