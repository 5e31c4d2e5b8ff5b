// What the HTTP benchmarks share: a real etcd sized for the 8× fleet, the production shape
// (scheduler-model.md §10 T23) seeded at any table count through etcd's JSON gateway in
// large parallel txns, distinct past revisions for pinned reads, a real `next start`, and
// the small measuring helpers (CPU of a process tree, medians, the load average).
import os from "node:os";
import fs from "node:fs";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { stringifyDemandEvent } from "../lib/schema/demand";
import { keys } from "../lib/schema/keys";
import { PRODUCTION_SHARDS, PRODUCTION_TABLES, productionTarget } from "../lib/sim/scenarios/production";
import { startApp, type RunningApp } from "../test/support/app";
import { startEtcd, type EtcdCluster } from "../test/support/etcd";
import { EtcdHttp, type Put } from "../test/support/etcd-http";
import { heartbeatPut } from "../test/support/fleet-records";
import { cpuMsOf } from "../test/support/observe";

export const PREFIX = "/lance-context/master";
const BASE_MS = 1_700_000_000_000;
const BYTES = 64 * 1024 * 1024;
/** ops per seeding txn (etcd's --max-txn-ops is raised to allow it) and txns in flight */
const SEED_OPS = 2000;
const SEED_PARALLEL = 4;

export const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;
export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
export const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((xs.length * p) / 100) - 1)];
export const loadAverage = () => os.loadavg().map((l) => round(l, 2));
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One etcd member with room for the 8× fleet and its history, and large seeding txns. */
export function startBenchEtcd(): Promise<EtcdCluster> {
  return startEtcd({
    extraArgs: ["--quota-backend-bytes=8589934592", "--max-txn-ops=10000", "--max-request-bytes=33554432"],
  });
}

/** The T23 demand event of production table `i` on `shard` (pending p = i % 50). */
export function productionEvent(prefix: string, i: number, shard: string, sealedBump = 0): Put {
  const p = i % 50;
  const sealed = 1000 + p + sealedBump;
  const times: Record<string, number> = {};
  for (let g = 1001; g <= sealed; g++) times[String(g)] = BASE_MS + g;
  return {
    key: keys.demandEvent(prefix, productionTarget(i), shard),
    value: stringifyDemandEvent({
      v: 1,
      shard,
      sealed_through: sealed,
      sealed_bytes_through: BYTES,
      merged_through: 1000,
      flushed_at_ms: BASE_MS + sealed,
      writer_epoch: 3,
      source: "scan",
      sealed_times: times,
    }),
  };
}

/** Seeds production tables [from, to) × 2 shards (plus six executors when from = 0); returns the revision. */
export async function seedTables(etcd: EtcdHttp, prefix: string, from: number, to: number): Promise<number> {
  const puts: Put[] = [];
  for (let i = from; i < to; i++) for (const shard of PRODUCTION_SHARDS) puts.push(productionEvent(prefix, i, shard));
  if (from === 0) for (let e = 0; e < 6; e++) puts.push(heartbeatPut(prefix, `executor-${e}`, 2 + (e % 3), Date.now()));
  let revision = 0;
  let next = 0;
  await Promise.all(
    Array.from({ length: SEED_PARALLEL }, async () => {
      while (next < puts.length) {
        const chunk = puts.slice(next, (next += SEED_OPS));
        revision = Math.max(revision, await etcd.putMany(chunk, SEED_OPS, 32 * 1024 * 1024));
      }
    }),
  );
  return revision;
}

/**
 * `n` new revisions, each one table's demand event advanced by one generation, so every
 * one is a different fleet and none is the revision a console started later holds.
 */
export async function pastRevisions(etcd: EtcdHttp, prefix: string, n: number, tables: number): Promise<number[]> {
  const out: number[] = [];
  for (let k = 0; k < n; k++) {
    const i = (k * 7919 + 17) % tables;
    out.push(await etcd.put(...putArgs(productionEvent(prefix, i, PRODUCTION_SHARDS[0], 1 + k))));
  }
  return out;
}

const putArgs = (p: Put): [string | Buffer, string | Buffer] => [p.key, p.value];

/** A `next start` on the bench etcd (`env`: settings besides), returned once health says ready. */
export function startConsole(
  cluster: EtcdCluster,
  opts: { inspect?: boolean; ready?: boolean; env?: Record<string, string> } = {},
): Promise<RunningApp> {
  const { env, ...start } = opts;
  return startApp(
    { ETCD_ENDPOINTS: cluster.endpoints, ETCD_PREFIX: PREFIX, NEXT_TELEMETRY_DISABLED: "1", ...env },
    start,
  );
}

/** `measure` summed over `pid` and all its descendants (next start may run its server in a child). */
function overTree(pid: number, measure: (pid: number) => number): number {
  let total = 0;
  const stack = [pid];
  while (stack.length > 0) {
    const p = stack.pop()!;
    try {
      total += measure(p);
      for (const task of fs.readdirSync(`/proc/${p}/task`)) {
        const children = fs.readFileSync(`/proc/${p}/task/${task}/children`, "utf8").trim();
        if (children) for (const c of children.split(/\s+/)) stack.push(Number(c));
      }
    } catch {
      continue; // exited
    }
  }
  return total;
}

/** CPU time (ms) of `pid` and all its descendants. */
export const treeCpuMs = (pid: number): number => overTree(pid, cpuMsOf);

/** Resident memory (bytes, VmRSS) of `pid` and all its descendants. */
export const treeRssBytes = (pid: number): number =>
  overTree(pid, (p) => Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${p}/status`, "utf8"))?.[1] ?? 0) * 1024);

/** etcd's backend file (`dbSize`, what the quota counts) and the part of it in use (`dbSizeInUse`), in bytes. */
export function etcdDbStatus(endpoints: string): { dbSize: number; dbSizeInUse: number } {
  const out = execFileSync("etcdctl", ["--endpoints", endpoints, "endpoint", "status", "-w", "json"], {
    env: { ...process.env, ETCDCTL_API: "3" },
  }).toString();
  const status = JSON.parse(out) as { Status: { dbSize: number; dbSizeInUse?: number } }[];
  return { dbSize: status[0].Status.dbSize, dbSizeInUse: status[0].Status.dbSizeInUse ?? status[0].Status.dbSize };
}

/** etcd's backend size (`etcdctl endpoint status -w json`, dbSize) in bytes. */
export const etcdDbBytes = (endpoints: string): number => etcdDbStatus(endpoints).dbSize;

/** The demo's etcd flags (scripts/demo-etcd.flags: compaction, quota, snapshot count), as `npm run demo` starts it. */
export function demoEtcdFlags(): string[] {
  return fs
    .readFileSync(path.join(__dirname, "../scripts/demo-etcd.flags"), "utf8")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "" && !l.startsWith("#"));
}

export interface Timed {
  ms: number;
  status: number;
  body: string;
}

/** One GET, body read to the end; `ms` from the call to the last byte. */
export async function timedGet(url: string, headers: Record<string, string> = {}): Promise<Timed> {
  const started = performance.now();
  const res = await fetch(url, { headers });
  const body = await res.text();
  return { ms: performance.now() - started, status: res.status, body };
}

/** A failure with the server's last words, for a benchmark that cannot go on. */
export function fail(what: string, app?: RunningApp): never {
  throw new Error(`${what}${app ? `\n--- server log (tail) ---\n${app.logs().slice(-2000)}` : ""}`);
}

export { EtcdHttp };

export interface BenchStack {
  cluster: EtcdCluster;
  etcd: EtcdHttp;
  /** the console; a benchmark that restarts it puts the new one here */
  app: RunningApp;
  /** tables seeded (× 2 shards) */
  tables: number;
  /** past revisions, each a different fleet, none held by the console at start */
  past: number[];
  log: (line: string) => void;
}

/**
 * The production fleet (`tables` tables) in a fresh etcd, `pastCount` past revisions
 * and a ready console on it; `use` runs against it, then everything is stopped.
 */
export async function withProductionStack<T>(
  opts: {
    name: string;
    tables?: number;
    pastCount?: number;
    inspect?: boolean;
    beforeStart?: (etcd: EtcdHttp, endpoints: string, log: (line: string) => void) => Promise<void>;
  },
  use: (stack: BenchStack) => Promise<T>,
): Promise<T> {
  const log = (line: string) => console.log(`[bench:${opts.name}] ${line}`);
  const tables = opts.tables ?? PRODUCTION_TABLES;
  const cluster = await startBenchEtcd();
  let stack: BenchStack | null = null;
  try {
    const etcd = new EtcdHttp(cluster.members[0].clientUrl);
    const started = performance.now();
    const seeded = await seedTables(etcd, PREFIX, 0, tables);
    log(
      `seeded ${tables.toLocaleString("en-US")} tables × 2 shards in ${round((performance.now() - started) / 1000)} s (revision ${seeded})`,
    );
    await opts.beforeStart?.(etcd, cluster.endpoints, log);
    const past = await pastRevisions(etcd, PREFIX, opts.pastCount ?? 0, tables);
    const app = await startConsole(cluster, { inspect: opts.inspect });
    log(`console ready on ${app.url}; load average ${loadAverage().join(" ")}`);
    stack = { cluster, etcd, app, tables, past, log };
    return await use(stack);
  } finally {
    await stack?.app.stop();
    await cluster.stop();
  }
}
