// The load run of issue 7, shared by bench/load.ts (64 clients, 60 s) and the CI smoke
// test (16 clients, ~10 s): concurrent clients on list, detail, executors and shadow while
// a writer changes demand in bursts (one etcd txn per burst, like a writer's flush), then
// latency percentiles, errors, the server's RSS after the run against after warm-up, and
// the etcd read counters per burst from /api/metrics.
import os from "node:os";
import { EtcdHttp, type Put } from "./etcd-http";
import { fetchMetrics, getJson, metricSum, percentile, rssBytes, sleep } from "./observe";

export const LOAD_ENDPOINTS = ["list", "detail", "executors", "shadow"] as const;
export type LoadEndpoint = (typeof LOAD_ENDPOINTS)[number];

/** A writer started with the measured run; `stop()` resolves with the bursts it wrote. */
export interface LoadWriter {
  /** how often it writes a burst, for the report */
  everyMs: number;
  start(): void;
  stop(): Promise<number>;
}

/** One etcd txn (`burstOf(n)`) every `everyMs`, through the JSON gateway. */
export function burstWriter(etcd: EtcdHttp, everyMs: number, burstOf: (burst: number) => Put[]): LoadWriter {
  let bursts = 0;
  let writing = false;
  let loop: Promise<void> = Promise.resolve();
  return {
    everyMs,
    start() {
      writing = true;
      loop = (async () => {
        while (writing) {
          const started = Date.now();
          await etcd.putMany(burstOf(bursts), 100_000, 64 * 1024 * 1024);
          bursts += 1;
          await sleep(Math.max(0, everyMs - (Date.now() - started)));
        }
      })();
    },
    async stop() {
      writing = false;
      await loop;
      return bursts;
    },
  };
}

export interface LoadOptions {
  baseUrl: string;
  /** the `next start` process (its RSS, children included, is measured) */
  serverPid: number;
  clients: number;
  warmupMs: number;
  durationMs: number;
  /** targets for the detail endpoint */
  targets: string[];
  /** what writes to etcd during the measured run (bursts = revision-change bursts) */
  writer: LoadWriter | null;
  log?: (line: string) => void;
}

interface EndpointStats {
  requests: number;
  errors: number;
  p50_ms: number;
  p95_ms: number;
  p99_ms: number;
  max_ms: number;
}

export interface LoadResult {
  config: { clients: number; warmup_s: number; duration_s: number; detail_targets: number; burst_every_ms: number | null };
  machine: { cpus: number; node: string; platform: string };
  all: EndpointStats & { requests_per_s: number };
  by_endpoint: Record<LoadEndpoint, EndpointStats>;
  error_samples: string[];
  rss: { warm_mib: number; after_mib: number; rss_ratio: number };
  etcd: {
    bursts: number;
    full_reads: number;
    full_reads_per_burst: number;
    full_reads_by_reason: Record<string, number>;
    watch_events: number;
    watch_restarts: number;
    table_refolds: number;
    plans: number;
    plans_per_burst: number;
  };
}

function pathOf(endpoint: LoadEndpoint, targets: string[], n: number): string {
  switch (endpoint) {
    case "list":
      return "/api/v1/scheduler/demand?limit=100";
    case "detail":
      return `/api/v1/scheduler/demand?target=${encodeURIComponent(targets[n % targets.length])}`;
    case "executors":
      return "/api/v1/scheduler/executors";
    case "shadow":
      return "/api/v1/scheduler/shadow";
  }
}

function stats(samples: number[], errors: number): EndpointStats {
  const sorted = [...samples].sort((a, b) => a - b);
  const round = (x: number) => Math.round(x * 10) / 10;
  return {
    requests: samples.length,
    errors,
    p50_ms: round(percentile(sorted, 50)),
    p95_ms: round(percentile(sorted, 95)),
    p99_ms: round(percentile(sorted, 99)),
    max_ms: round(sorted[sorted.length - 1] ?? Number.NaN),
  };
}

/** Runs clients for `ms`; returns latencies and errors per endpoint. */
async function drive(opts: LoadOptions, ms: number, counter: { n: number }) {
  const latencies = new Map<LoadEndpoint, number[]>(LOAD_ENDPOINTS.map((e) => [e, []]));
  const errors = new Map<LoadEndpoint, number>(LOAD_ENDPOINTS.map((e) => [e, 0]));
  const samples: string[] = [];
  const until = Date.now() + ms;
  await Promise.all(
    Array.from({ length: opts.clients }, async (_, client) => {
      for (let i = client; Date.now() < until; i++) {
        const endpoint = LOAD_ENDPOINTS[i % LOAD_ENDPOINTS.length];
        const n = counter.n++;
        const res = await getJson(`${opts.baseUrl}${pathOf(endpoint, opts.targets, n * 7919)}`, { timeoutMs: 30_000 });
        latencies.get(endpoint)!.push(res.ms);
        if (res.status !== 200) {
          errors.set(endpoint, errors.get(endpoint)! + 1);
          if (samples.length < 10) samples.push(`${endpoint} → ${res.status} ${res.networkError ?? JSON.stringify(res.body).slice(0, 200)}`);
        }
      }
    }),
  );
  return { latencies, errors, samples };
}

const counters = (m: Map<string, number>) => ({
  fullReads: metricSum(m, "console_snapshot_full_reads_total"),
  watchEvents: metricSum(m, "console_watch_events_total"),
  watchRestarts: metricSum(m, "console_watch_restarts_total"),
  refolds: metricSum(m, "console_table_refolds_total"),
  plans: metricSum(m, "console_plans_total"),
});

function byReason(before: Map<string, number>, after: Map<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [series, v] of after) {
    const m = /^console_snapshot_full_reads_total\{.*reason="([^"]+)".*\}$/.exec(series);
    if (!m) continue;
    const d = v - (before.get(series) ?? 0);
    if (d > 0) out[m[1]] = d;
  }
  return out;
}

export async function runLoad(opts: LoadOptions): Promise<LoadResult> {
  const log = opts.log ?? (() => undefined);
  const counter = { n: 0 };
  log(`warm-up: ${opts.clients} clients for ${opts.warmupMs / 1000} s`);
  const warm = await drive(opts, opts.warmupMs, counter);
  const warmErrors = [...warm.errors.values()].reduce((a, b) => a + b, 0);
  if (warmErrors > 0) log(`warm-up had ${warmErrors} errors: ${warm.samples.join(" | ")}`);
  await sleep(500);
  const rssWarm = rssBytes(opts.serverPid);
  const before = await fetchMetrics(opts.baseUrl);

  opts.writer?.start();
  log(`run: ${opts.clients} clients for ${opts.durationMs / 1000} s${opts.writer ? `, a write burst every ${opts.writer.everyMs} ms` : ""}`);
  const started = Date.now();
  const run = await drive(opts, opts.durationMs, counter);
  const elapsedS = (Date.now() - started) / 1000;
  const bursts = (await opts.writer?.stop()) ?? 0;
  await sleep(1000); // let the last burst's watch events land
  const after = await fetchMetrics(opts.baseUrl);
  const rssAfter = rssBytes(opts.serverPid);

  const all = [...run.latencies.values()].flat();
  const errors = [...run.errors.values()].reduce((a, b) => a + b, 0);
  const c0 = counters(before);
  const c1 = counters(after);
  const mib = (b: number) => Math.round((b / 1048576) * 10) / 10;
  const fullReads = c1.fullReads - c0.fullReads;
  const plans = c1.plans - c0.plans;
  return {
    config: {
      clients: opts.clients,
      warmup_s: opts.warmupMs / 1000,
      duration_s: opts.durationMs / 1000,
      detail_targets: opts.targets.length,
      burst_every_ms: opts.writer?.everyMs ?? null,
    },
    machine: { cpus: os.cpus().length, node: process.version, platform: `${os.platform()} ${os.release()}` },
    all: { ...stats(all, errors), requests_per_s: Math.round(all.length / elapsedS) },
    by_endpoint: Object.fromEntries(LOAD_ENDPOINTS.map((e) => [e, stats(run.latencies.get(e)!, run.errors.get(e)!)])) as Record<LoadEndpoint, EndpointStats>,
    error_samples: run.samples,
    rss: { warm_mib: mib(rssWarm), after_mib: mib(rssAfter), rss_ratio: Math.round((rssAfter / rssWarm) * 1000) / 1000 },
    etcd: {
      bursts,
      full_reads: fullReads,
      full_reads_per_burst: bursts > 0 ? Math.round((fullReads / bursts) * 1000) / 1000 : 0,
      full_reads_by_reason: byReason(before, after),
      watch_events: c1.watchEvents - c0.watchEvents,
      watch_restarts: c1.watchRestarts - c0.watchRestarts,
      table_refolds: c1.refolds - c0.refolds,
      plans,
      plans_per_burst: bursts > 0 ? Math.round((plans / bursts) * 1000) / 1000 : 0,
    },
  };
}
