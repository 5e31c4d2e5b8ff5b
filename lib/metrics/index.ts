import "server-only";
// Prometheus metrics of the console (console-api.md "GET /api/metrics"). One registry per
// process: the engine's (lib/engine), which the process loads once.
import { PerformanceObserver, constants } from "node:perf_hooks";
import v8 from "node:v8";
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import { WATCH_BREAK_REASONS } from "@/lib/schema/watch-break";
import { inOffloadWorker } from "@/lib/config/thread-role";
import { fleetGauges } from "./fleet";

/**
 * The V8 heap in use just after each major (mark-compact) GC: the live set. Between GCs
 * the heap in use swings by 100 MiB under load and RSS keeps pages V8 and malloc freed,
 * so neither shows a leak early; this only climbs when something is retained. The
 * observer runs right after the GC, before much new garbage exists.
 */
function liveHeapGauge(registers: Registry[]): Gauge {
  const gauge = new Gauge({
    name: "console_heap_live_bytes",
    help: "V8 heap in use just after the last major GC (the live set; 0 before the first)",
    registers,
  });
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const detail = (entry as PerformanceEntry & { detail?: { kind?: number } }).detail;
      if (detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) gauge.set(v8.getHeapStatistics().used_heap_size);
    }
  });
  observer.observe({ entryTypes: ["gc"] });
  return gauge;
}

/** Every break reason of lib/etcd/watch.ts starts at 0, so `increase()` sees the first restart. */
function watchRestartsCounter(registers: Registry[]): Counter {
  const counter = new Counter({
    name: "console_watch_restarts_total",
    help: "Times the live watch broke and the cache re-read",
    labelNames: ["reason"],
    registers,
  });
  for (const reason of WATCH_BREAK_REASONS) counter.inc({ reason }, 0);
  return counter;
}

/** Heavy requests by what admission did (lib/live/admission.ts); every outcome starts at 0. */
function heavyRequestsCounter(registers: Registry[]): Counter {
  const counter = new Counter({
    name: "console_heavy_requests_total",
    help: "Heavy requests: run at once (outcome=run), after waiting their turn (queued) or refused with 503 overloaded (refused)",
    labelNames: ["outcome"],
    registers,
  });
  for (const outcome of ["run", "queued", "refused"]) counter.inc({ outcome }, 0);
  return counter;
}

function create() {
  const registry = new Registry();
  // the process's own figures are the main thread's to tell (the offload worker's counters join them, lib/process/metrics.ts)
  if (!inOffloadWorker()) collectDefaultMetrics({ register: registry, prefix: "console_" });
  // Three of Node's default gauges end in `_total`, which Prometheus reserves for counters
  // (`promtool check metrics` rejects them); each is the sum of its labelled twin
  // (`sum(console_nodejs_active_handles)`), so nothing is lost.
  for (const name of ["active_handles_total", "active_requests_total", "active_resources_total"])
    registry.removeSingleMetric(`console_nodejs_${name}`);
  const r = [registry];
  const fleet = fleetGauges(r);
  fleet.revisionClockError.set(Number.NaN);
  return {
    ...fleet,
    registry,
    requestSeconds: new Histogram({
      name: "console_request_duration_seconds",
      help: "HTTP request latency by route, method and status",
      labelNames: ["route", "method", "status"],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: r,
    }),
    snapshotReadSeconds: new Histogram({
      name: "console_snapshot_read_seconds",
      help: "Time of one fleet view at one revision: a full paged read (mode=full, pinned; scheduler-model.md §8.1) or a pinned view put back from the live one (mode=rewound)",
      labelNames: ["mode"],
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30],
      registers: r,
    }),
    fullReads: new Counter({
      name: "console_snapshot_full_reads_total",
      help: "Full fleet reads, by reason (initial, watch_broken, pinned_revision, health)",
      labelNames: ["reason"],
      registers: r,
    }),
    pinnedViews: new Counter({
      name: "console_pinned_views_total",
      help: "Views made for ?revision= reads: put back from the live view near it (path=rewound) or read in full (path=read)",
      labelNames: ["path"],
      registers: r,
    }),
    heavyRequests: heavyRequestsCounter(r),
    directReads: new Counter({
      name: "console_direct_reads_total",
      help: "Reads the custom server answered straight from the engine, without Next's routing (lib/engine/direct.ts), by route",
      labelNames: ["route"],
      registers: r,
    }),
    offloaded: new Counter({
      name: "console_offloaded_jobs_total",
      help: "Work done in the offload worker, off the request thread (lib/live/offload-pool.ts): a request answered whole (job=its route) or a history's point planned on a whole fleet (job=history_point)",
      labelNames: ["job"],
      registers: r,
    }),
    heavyWaiting: new Gauge({
      name: "console_heavy_requests_waiting",
      help: "Heavy requests (pinned reads outside the live view, histories, diffs, previews) waiting for their turn",
      registers: r,
    }),
    pages: new Counter({ name: "console_etcd_pages_total", help: "Pages read by full fleet reads", registers: r }),
    pageShrinks: new Counter({
      name: "console_etcd_page_shrinks_total",
      help: "Page size halvings during full reads (§8.1)",
      registers: r,
    }),
    readBytes: new Counter({
      name: "console_etcd_read_bytes_total",
      help: "Key + value bytes read by full fleet reads",
      registers: r,
    }),
    skipped: new Gauge({
      name: "console_skipped_records",
      help: "Records skipped in the live snapshot, by reason",
      labelNames: ["reason"],
      registers: r,
    }),
    healthProbeRounds: new Counter({
      name: "console_health_probe_rounds_total",
      help: "Rounds of etcd probes made for GET /api/v1/health (polls close together share one)",
      registers: r,
    }),
    watchEvents: new Counter({
      name: "console_watch_events_total",
      help: "etcd watch events applied to the live snapshot",
      labelNames: ["type"],
      registers: r,
    }),
    watchRestarts: watchRestartsCounter(r),
    tableRefolds: new Counter({
      name: "console_table_refolds_total",
      help: "Tables re-folded incrementally after watch events",
      registers: r,
    }),
    responseCache: new Counter({
      name: "console_response_cache_total",
      help: "Cacheable read answers: served from the encoded bytes (hit), encoded afresh (miss), answered 304 (not_modified)",
      labelNames: ["result"],
      registers: r,
    }),
    responseCacheBytes: new Gauge({
      name: "console_response_cache_bytes",
      help: "Bytes held by the encoded-response cache (all codings)",
      registers: r,
    }),
    plans: new Counter({
      name: "console_plans_total",
      help: "Fleet plans computed (cached per revision and now)",
      registers: r,
    }),
    snapshotRevision: new Gauge({
      name: "console_snapshot_revision",
      help: "Revision of the live snapshot",
      registers: r,
    }),
    snapshotLive: new Gauge({
      name: "console_snapshot_live",
      help: "1 while the live snapshot's watch is connected",
      registers: r,
    }),
    shadowSamples: new Counter({
      name: "console_shadow_history_samples_total",
      help: "Shadow-history samples written by this replica",
      registers: r,
    }),
    shadowHistorySkipped: new Counter({
      name: "console_shadow_history_skipped_total",
      help: "Stored shadow-history values left out of a history read (not a valid sample)",
      registers: r,
    }),
    streamSteps: new Counter({
      name: "console_demand_stream_steps_total",
      help: "Plan steps pushed to the open /tables streams (one change-set per step and filter, shared by every stream)",
      registers: r,
    }),
    listingRowHashes: new Counter({
      name: "console_listing_row_hashes_total",
      help: "Rows of a new /tables listing whose hash was computed (source=hashed) or taken from the listing the page holds, the row saying the same but for its wait, score and place in line (source=lent)",
      labelNames: ["source"],
      registers: r,
    }),
    streamsOpen: new Gauge({
      name: "console_demand_streams_open",
      help: "Open /tables change streams (GET /scheduler/demand/stream)",
      registers: r,
    }),
    journalChunksUnreadable: new Counter({
      name: "console_journal_chunks_unreadable_total",
      help: "Decision-journal chunks not read: damaged, or naming a class, verdict code or shadow outcome this console does not know (the question they were read for is re-planned)",
      registers: r,
    }),
    forecastCoverage: new Gauge({
      name: "console_forecast_coverage",
      help: "Share of the last 6 h's resolved ETA forecasts that fell within their stated (0.8) interval, per world (GET /api/v1/forecasts/calibration)",
      labelNames: ["world"],
      registers: r,
    }),
    forecastsResolved: new Gauge({
      name: "console_forecasts_resolved",
      help: "ETA forecasts of the last 6 h resolved (within, early or late), per world: what console_forecast_coverage rests on",
      labelNames: ["world"],
      registers: r,
    }),
    forecastChunksUnreadable: new Counter({
      name: "console_forecast_chunks_unreadable_total",
      help: "Forecast-journal chunks not read (damaged, or a version this console does not know): their forecasts and outcomes are left out of the calibration",
      registers: r,
    }),
    auditSkipped: new Counter({
      name: "console_audit_skipped_total",
      help: "Stored audit records left out of an audit read (not JSON, or failing their schema)",
      registers: r,
    }),
    samplerLeader: new Gauge({
      name: "console_shadow_sampler_leader",
      help: "1 while this replica holds the sampler election",
      registers: r,
    }),
    liveHeap: liveHeapGauge(r),
  };
}

export type ConsoleMetrics = ReturnType<typeof create>;

let made: ConsoleMetrics | undefined;

/** The process-wide metrics (created on first use). */
export function metrics(): ConsoleMetrics {
  return (made ??= create());
}

/**
 * The revision clock's `error_ms` for the live revision (console-api.md Additions "Time"):
 * the clock calls this whenever it answers for the newest revision; `null` = not known.
 */
export function recordRevisionClockError(errorMs: number | null): void {
  metrics().revisionClockError.set(errorMs === null ? Number.NaN : errorMs / 1000);
}
