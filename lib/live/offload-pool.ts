import "server-only";
// The offload worker, seen from the thread that answers requests (console-api.md "Additions
// (fourth version)", Overload and memory). A request that reads or plans the fleet at another
// moment than the live one (a pinned revision this process does not hold, a diff) is answered
// whole in a worker thread (lib/offload/worker.ts): its etcd read, decode, plan and encoding
// run there, with the worker's own pinned views, so the request thread only routes it and
// sends the bytes back. A history's points planned on whole fleets of other moments are
// planned there too, one job each. The admission in front of it (./admission.ts) bounds how many run and
// wait, each client in its own line. One worker: with the request thread it fills this
// machine's two cores; jobs inside it interleave on its event loop (one's etcd read under
// another's plan). A worker that dies fails its jobs (500) and the next job starts another.
// A worker idle for IDLE_MS is stopped, as piscina's `idleTimeout` does: its heap (pinned
// views, plans and the garbage of whole fleets) goes back to the system at once, where a
// heap left alone keeps it until V8 next collects. The next job starts it again (~0.2 s).
// While the process is over its memory budget (CONSOLE_MEMORY_MIB, as ./memory-limit.ts and
// health count it), a worker with no job left and no view kept is stopped at once, before its
// last answer is sent: at 8× the production fleet a far pinned read (a view over its share,
// not kept) leaves ~600 MiB of a whole fleet's garbage in the worker's heap. A worker that
// keeps a view (within its share) is left to its idle stop.
import { Worker, workerData } from "node:worker_threads";
import { AggregatorRegistry, type MetricObjectWithValues, type MetricValue } from "prom-client";
import { inOffloadWorker, type OffloadWorkerData } from "@/lib/config/thread-role";
import type { ReadHints } from "@/lib/etcd/paged-read";
import { ApiError, type ApiErrorCode } from "@/lib/schema/api/errors";
import { metrics } from "@/lib/metrics";
import { overMemoryBudget } from "./memory-limit";

/** A request the worker answers whole: the request as the route will parse it again. */
export interface RouteJob {
  /** the route's label (lib/offload/routes.ts) */
  route: string;
  method: string;
  /** the request's URL without `min_revision` (the wrapper took it) */
  url: string;
  params: Record<string, string>;
  requestId: string;
}

/** What the request thread hands the worker. */
export type OffloadJob =
  | ({ kind: "route" } & RouteJob)
  /** a history's point at `revision`, planned on the whole fleet there (lib/time/history.ts) */
  | { kind: "history_point"; target: string; revision: number };

/** How a job failed: its contract error (lib/schema/api/errors.ts `classifyError`), else the error's text. */
export interface JobFailure {
  mapped: {
    status: number;
    body: { error: { code: string; message: string } };
    headers?: Record<string, string>;
  } | null;
  text: string;
}

/** The worker's answer to a route job: the response's bytes and what the wrapper logs of it. */
export interface OffloadAnswer {
  status: number;
  headers: Record<string, string>;
  bytes: Uint8Array<ArrayBuffer>;
  /** a cacheable answer's strong ETag and digest (lib/http/encoded-response.ts), else null */
  etag: string | null;
  digest: string | null;
  /** the error code, or an internal error's text, for the access log; null on success */
  failure: string | null;
}

/** What the worker keeps, reported with each answer (GET /api/v1/health `memory`). */
export interface OffloadMemory {
  pinned_views: number;
  pinned_bytes: number;
  held_views: number;
}

/** What the pool starts its worker with (`workerData`). */
interface OffloadStart extends OffloadWorkerData {
  /**
   * what the request thread's fleet reads taught its reader: a new worker's first full read
   * is then cut into parallel parts, each from a full-size first page, as the next read of
   * a reader that has read before (at 8× the production fleet, 8–10 s against 5–7 s)
   */
  readHints: ReadHints;
}

/** In the offload worker: the request thread's read hints it was started with; elsewhere undefined. */
export function readHintsGiven(): ReadHints | undefined {
  return inOffloadWorker() ? (workerData as OffloadStart).readHints : undefined;
}

/** prom-client's JSON of one metric */
export type MetricJson = MetricObjectWithValues<MetricValue<string>>;

export interface ToWorker {
  id: number;
  job: OffloadJob;
}

export interface FromWorker {
  id: number;
  result: { ok: true; value: unknown } | { ok: false; failure: JobFailure };
  memory: OffloadMemory;
  /** the worker's counters and histograms after the job (its gauges are the request thread's) */
  counters: MetricJson[];
}

/**
 * How this thread's live cache takes part (./cache.ts): in the offload worker, pinned views
 * only; elsewhere, with the worker's bundle when other moments are answered in it
 * (CONSOLE_OFFLOAD=worker, the default), which the console's server (scripts/serve.mjs)
 * names. Without it (`next dev`) they are answered on the request thread.
 */
export function offloadOptions(where: "worker" | "thread"): { pinnedOnly: true } | { offloadWorkerFile?: string } {
  if (inOffloadWorker()) return { pinnedOnly: true };
  if (where !== "worker") return {};
  return { offloadWorkerFile: process.env.CONSOLE_OFFLOAD_WORKER_FILE || undefined };
}

/** a worker with no job for this long is stopped */
const IDLE_MS = 30_000;
/**
 * The worker's young generation (MiB, semi-spaces included): the request thread's is large
 * for its streams (docs/operations.md "Sizing"), but a worker that builds whole fleets keeps
 * nearly all it allocates, so a large one only gives each collection more to copy.
 */
const YOUNG_GENERATION_MB = 48;

/** the retired workers' counters are summed into one once there are this many */
const RETIRED_SUMMED_AT = 8;

const NOTHING_KEPT: OffloadMemory = Object.freeze({ pinned_views: 0, pinned_bytes: 0, held_views: 0 });

interface Pending {
  /** what the job did, for console_offloaded_jobs_total: its route, or `history_point` */
  job: string;
  resolve: (value: unknown) => void;
  reject: (e: unknown) => void;
}

/** A job's failure as the error the request thread throws: the same contract answer, or an internal error. */
function thrown(failure: JobFailure): Error {
  const m = failure.mapped;
  if (m === null) return new Error(`in the offload worker: ${failure.text}`);
  const { code, message, ...extra } = m.body.error;
  return new ApiError(m.status, code as ApiErrorCode, message, extra, m.headers ?? {});
}

/** The worker holds no view: its heap is only what its jobs left behind. */
const keepsNothing = (m: OffloadMemory) => m.pinned_views === 0 && m.held_views === 0;

export class OffloadPool {
  private worker: Worker | null = null;
  private seq = 0;
  private readonly pending = new Map<number, Pending>();
  private kept: OffloadMemory = NOTHING_KEPT;
  private idleTimer: NodeJS.Timeout | null = null;
  /** the running worker's counters as of its last answer */
  private current: MetricJson[] = [];
  /** the counters of the workers stopped before it (a counter never goes back), summed now and then */
  private retired: MetricJson[][] = [];

  private readonly idleMs: number;
  private readonly overBudget: () => boolean;
  private readonly readHints: () => ReadHints;

  /**
   * `file`: the worker's bundle (scripts/bundle.mjs worker); `idleMs`: how long it may idle;
   * `overBudget`: whether the process is over its memory budget now (a worker with no job
   * left and no view kept is then stopped before its answer is sent); `readHints`: the
   * request thread's, for each new worker's reader
   */
  constructor(
    private readonly file: string,
    opts: { idleMs?: number; overBudget?: () => boolean; readHints?: () => ReadHints } = {},
  ) {
    this.idleMs = opts.idleMs ?? IDLE_MS;
    this.overBudget = opts.overBudget ?? overMemoryBudget;
    this.readHints = opts.readHints ?? (() => []);
  }

  /** The request's answer, computed in the worker. */
  answer(job: RouteJob): Promise<OffloadAnswer> {
    return this.run<OffloadAnswer>({ kind: "route", ...job });
  }

  /** The job's result, computed in the worker; a failure is thrown here as it was there. */
  run<T>(job: OffloadJob): Promise<T> {
    const worker = this.worker ?? this.spawn();
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    const id = ++this.seq;
    return new Promise<T>((resolve, reject) => {
      const done = job.kind === "route" ? job.route : job.kind;
      this.pending.set(id, { job: done, resolve: resolve as (value: unknown) => void, reject });
      worker.postMessage({ id, job } satisfies ToWorker);
    });
  }

  /** Every worker's counters and histograms so far, to add to the process's own. */
  counters(): MetricJson[][] {
    return [...this.retired, this.current].filter((c) => c.length > 0);
  }

  /** What the worker kept after its last answer. */
  memory(): OffloadMemory {
    return this.kept;
  }

  async close(): Promise<void> {
    await this.stop();
  }

  /** Stops the worker (its pending jobs, if any, fail). */
  private async stop(): Promise<void> {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    const w = this.worker;
    if (w === null) return;
    this.retire(w);
    await w.terminate();
  }

  /** The worker is gone: its counters join the retired ones and its jobs fail. */
  private retire(worker: Worker, why = "stopped"): void {
    if (this.worker !== worker) return;
    this.worker = null;
    this.kept = NOTHING_KEPT;
    if (this.current.length > 0) this.retired.push(this.current);
    this.current = [];
    if (this.retired.length >= RETIRED_SUMMED_AT) {
      // the oldest ones become their sum; retire() only appends, so they are still the first
      const summed = this.retired.length;
      void AggregatorRegistry.aggregate(this.retired.slice(0, summed))
        .getMetricsAsJSON()
        .then((sum) => this.retired.splice(0, summed, sum as MetricJson[]));
    }
    const failed = [...this.pending.values()];
    this.pending.clear();
    for (const p of failed) p.reject(new Error(`the offload worker stopped: ${why}`));
  }

  private spawn(): Worker {
    const start: OffloadStart = { role: "offload", readHints: this.readHints() };
    const worker = new Worker(this.file, {
      workerData: start,
      resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
    });
    // the process may end while the worker idles: it holds nothing of its own
    worker.unref();
    worker.on("message", (m: FromWorker) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      this.kept = m.memory;
      this.current = m.counters;
      const settle = () => {
        if (m.result.ok) {
          metrics().offloaded.inc({ job: p.job });
          p.resolve(m.result.value);
        } else p.reject(thrown(m.result.failure));
      };
      if (this.pending.size > 0) settle();
      else if (keepsNothing(m.memory) && this.overBudget()) void this.stop().then(settle, settle);
      else {
        settle();
        this.idleAfter(worker);
      }
    });
    worker.on("error", (e) => this.retire(worker, e instanceof Error ? `${e.name}: ${e.message}` : String(e)));
    worker.on("exit", (code) => this.retire(worker, `exit ${code}`));
    this.worker = worker;
    return worker;
  }

  private idleAfter(worker: Worker): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      if (this.worker === worker && this.pending.size === 0) void this.stop();
    }, this.idleMs);
    this.idleTimer.unref();
  }
}
