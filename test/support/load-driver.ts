// The load run, shared by bench/load.ts (64 clients, 60 s) and the CI smoke
// test (16 clients, 15 s): concurrent clients on list, detail, executors and shadow while
// a writer changes demand in bursts (one etcd txn per burst, like a writer's flush), then
// latency percentiles, errors, the server's RSS and live heap after the run against after
// warm-up (the writer runs through both), and the etcd read counters per burst from
// /api/metrics.
import os from "node:os";
import { EtcdHttp, type Put } from "./etcd-http";
import { loadClient, type LoadClient, type LoadClientKind } from "./load-client";
import { fetchMetrics, metricSum, percentile, rssBytes, sleep } from "./observe";

const LOAD_ENDPOINTS = ["list", "detail", "executors", "shadow"] as const;
type LoadEndpoint = (typeof LOAD_ENDPOINTS)[number];

/**
 * What writes to etcd while the clients run. It starts with the warm-up (so the heap
 * warms up on the same workload the run measures); `bursts()` is how many it has
 * written so far, and `stop()` resolves with the total.
 */
export interface LoadWriter {
  /** how often it writes a burst, for the report */
  everyMs: number;
  start(): void;
  bursts(): number;
  /** the etcd revision of the last burst written (0 before the first) */
  lastRevision(): number;
  /** how many bursts were written at a revision in (after, upTo], where the writer knows each burst's revision */
  burstsBetween?(after: number, upTo: number): number;
  stop(): Promise<number>;
}

/** One etcd txn (`burstOf(n)`) every `everyMs`, through the JSON gateway. */
export function burstWriter(etcd: EtcdHttp, everyMs: number, burstOf: (burst: number) => Put[]): LoadWriter {
  let bursts = 0;
  let last = 0;
  const written: number[] = [];
  let writing = false;
  let loop: Promise<void> = Promise.resolve();
  return {
    everyMs,
    start() {
      writing = true;
      loop = (async () => {
        while (writing) {
          const started = Date.now();
          last = await etcd.putMany(burstOf(bursts), 100_000, 64 * 1024 * 1024);
          written.push(last);
          bursts += 1;
          await sleep(Math.max(0, everyMs - (Date.now() - started)));
        }
      })();
    },
    bursts: () => bursts,
    lastRevision: () => last,
    burstsBetween: (after, upTo) => written.filter((r) => r > after && r <= upTo).length,
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
  /** what writes to etcd during warm-up and run (bursts = revision-change bursts) */
  writer: LoadWriter | null;
  /** the server's live heap in bytes (e.g. liveHeapBytes of test/support/inspector.ts) */
  liveHeap?: () => Promise<number>;
  log?: (line: string) => void;
  /** how the clients ask and time (./load-client.ts); "bytes" unless told */
  client?: LoadClientKind;
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
  config: {
    clients: number;
    warmup_s: number;
    duration_s: number;
    detail_targets: number;
    burst_every_ms: number | null;
    client: LoadClientKind;
  };
  /** the CPU of the process that runs the clients, over the run: what it takes from the machine the server runs on */
  driver: { cpu_pct_of_a_core: number };
  machine: { cpus: number; node: string; platform: string };
  all: EndpointStats & { requests_per_s: number };
  by_endpoint: Record<LoadEndpoint, EndpointStats>;
  error_samples: string[];
  /**
   * The server's RSS, sampled every 250 ms: the median of the samples in the last 3 s of
   * the warm-up and in the last 3 s of the run (one GC's sawtooth moves a single sample
   * by tens of MiB; a leak moves them all), and the highest sample of each phase.
   */
  rss: { warm_mib: number; after_mib: number; rss_ratio: number; warm_peak_mib: number; run_peak_mib: number };
  /**
   * The server's live heap (in use after a forced full GC, no request in flight) after the
   * warm-up and after the run, when `liveHeap` is given; and the server's own
   * `console_heap_live_bytes` gauge right after the second measurement.
   */
  heap: { warm_live_mib: number; after_live_mib: number; live_ratio: number; gauge_after_mib: number } | null;
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
async function drive(opts: LoadOptions, client: LoadClient, ms: number, counter: { n: number }) {
  const latencies = new Map<LoadEndpoint, number[]>(LOAD_ENDPOINTS.map((e) => [e, []]));
  const errors = new Map<LoadEndpoint, number>(LOAD_ENDPOINTS.map((e) => [e, 0]));
  const samples: string[] = [];
  const until = Date.now() + ms;
  await Promise.all(
    Array.from({ length: opts.clients }, async (_, k) => {
      for (let i = k; Date.now() < until; i++) {
        const endpoint = LOAD_ENDPOINTS[i % LOAD_ENDPOINTS.length];
        const n = counter.n++;
        const res = await client.get(`${opts.baseUrl}${pathOf(endpoint, opts.targets, n * 7919)}`);
        latencies.get(endpoint)!.push(res.ms);
        if (res.status !== 200) {
          errors.set(endpoint, errors.get(endpoint)! + 1);
          if (samples.length < 10) samples.push(`${endpoint} → ${res.status} ${res.problem ?? ""}`);
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

type Phase = "warm-up" | "run";

/** The server's RSS every `everyMs` until stopped, each sample tagged with its phase. */
function rssSampler(pid: number, everyMs: number) {
  const samples: { phase: Phase; at: number; bytes: number }[] = [];
  let phase: Phase = "warm-up";
  const sample = () => samples.push({ phase, at: Date.now(), bytes: rssBytes(pid) });
  const timer = setInterval(sample, everyMs);
  return {
    samples,
    sample,
    enter(next: Phase) {
      phase = next;
    },
    stop() {
      clearInterval(timer);
    },
    /** median of `phase`'s samples in its last `ms` */
    tailMedian(of: Phase, ms: number): number {
      const own = samples.filter((x) => x.phase === of);
      const end = own[own.length - 1].at;
      const tail = own
        .filter((x) => x.at >= end - ms)
        .map((x) => x.bytes)
        .sort((a, b) => a - b);
      return tail[Math.floor(tail.length / 2)];
    },
    peak: (of: Phase) => Math.max(...samples.filter((x) => x.phase === of).map((x) => x.bytes)),
  };
}

const RSS_TAIL_MS = 3000;

/** Waits (polling /api/metrics) until the console's live snapshot is at `revision` or later; says so when it is not within 20 s. */
async function liveRevisionAtLeast(baseUrl: string, revision: number, log: (line: string) => void): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const at = metricSum(await fetchMetrics(baseUrl), "console_snapshot_revision");
    if (at >= revision) return;
    if (Date.now() > deadline)
      return log(`the live snapshot is at revision ${at}, not yet at the last burst's ${revision}, after 20 s`);
    await sleep(100);
  }
}

export async function runLoad(opts: LoadOptions): Promise<LoadResult> {
  const log = opts.log ?? (() => undefined);
  const counter = { n: 0 };
  const kind = opts.client ?? "bytes";
  const client = loadClient(kind, opts.clients);
  log(`warm-up: ${opts.clients} clients for ${opts.warmupMs / 1000} s`);
  const sampler = rssSampler(opts.serverPid, 250);
  opts.writer?.start();
  const warm = await drive(opts, client, opts.warmupMs, counter);
  const warmErrors = [...warm.errors.values()].reduce((a, b) => a + b, 0);
  if (warmErrors > 0) log(`warm-up had ${warmErrors} errors: ${warm.samples.join(" | ")}`);
  sampler.sample();
  const warmHeap = await opts.liveHeap?.();
  sampler.enter("run");
  const burstsBefore = opts.writer?.bursts() ?? 0;
  const before = await fetchMetrics(opts.baseUrl);

  log(
    `run: ${opts.clients} clients for ${opts.durationMs / 1000} s${opts.writer ? `, a write burst every ${opts.writer.everyMs} ms` : ""}`,
  );
  const started = Date.now();
  const cpu0 = process.cpuUsage();
  const run = await drive(opts, client, opts.durationMs, counter);
  const cpu = process.cpuUsage(cpu0);
  const elapsedS = (Date.now() - started) / 1000;
  client.close();
  const burstsAfter = (await opts.writer?.stop()) ?? 0;
  // the last burst's watch events have landed once the live snapshot reached its revision
  if (opts.writer) await liveRevisionAtLeast(opts.baseUrl, opts.writer.lastRevision(), log);
  sampler.sample();
  sampler.stop();
  const afterHeap = await opts.liveHeap?.();
  const after = await fetchMetrics(opts.baseUrl);
  // The run's bursts are those the watch applied between the two scrapes: the cache counts
  // a batch's events and sets its revision in one synchronous step, so a scrape's counters
  // hold exactly the bursts at or below its revision (a burst written while the run began
  // is counted on the side its events fell, never on one side by count and the other by events).
  const bursts =
    opts.writer?.burstsBetween?.(
      metricSum(before, "console_snapshot_revision"),
      metricSum(after, "console_snapshot_revision"),
    ) ?? burstsAfter - burstsBefore;
  const rssWarm = sampler.tailMedian("warm-up", RSS_TAIL_MS);
  const rssAfter = sampler.tailMedian("run", RSS_TAIL_MS);
  log(
    `RSS (MiB, one sample a second): ${sampler.samples
      .filter((_, k) => k % 4 === 0)
      .map((x) => `${x.phase === "run" ? "r" : "w"}${Math.round(x.bytes / 1048576)}`)
      .join(" ")}`,
  );

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
      client: kind,
    },
    driver: { cpu_pct_of_a_core: Math.round(((cpu.user + cpu.system) / 1000 / (elapsedS * 1000)) * 1000) / 10 },
    machine: { cpus: os.cpus().length, node: process.version, platform: `${os.platform()} ${os.release()}` },
    all: { ...stats(all, errors), requests_per_s: Math.round(all.length / elapsedS) },
    by_endpoint: Object.fromEntries(
      LOAD_ENDPOINTS.map((e) => [e, stats(run.latencies.get(e)!, run.errors.get(e)!)]),
    ) as Record<LoadEndpoint, EndpointStats>,
    error_samples: run.samples,
    rss: {
      warm_mib: mib(rssWarm),
      after_mib: mib(rssAfter),
      rss_ratio: Math.round((rssAfter / rssWarm) * 1000) / 1000,
      warm_peak_mib: mib(sampler.peak("warm-up")),
      run_peak_mib: mib(sampler.peak("run")),
    },
    heap:
      warmHeap !== undefined && afterHeap !== undefined
        ? {
            warm_live_mib: mib(warmHeap),
            after_live_mib: mib(afterHeap),
            live_ratio: Math.round((afterHeap / warmHeap) * 1000) / 1000,
            gauge_after_mib: mib(metricSum(after, "console_heap_live_bytes")),
          }
        : null,
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
