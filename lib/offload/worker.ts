// The offload worker's entry (lib/live/offload-pool.ts starts it; scripts/bundle.mjs
// bundles it): it answers the jobs the request thread sends, several at once on its own event
// loop, with its own etcd client, revision clock and pinned views (its cache keeps no live
// view, lib/live/cache.ts `pinnedOnly`), and tells with each answer what it keeps and its
// counters so far.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parentPort } from "node:worker_threads";
import { liveCache } from "@/lib/live/cache";
import type { FromWorker, MetricJson, ToWorker } from "@/lib/live/offload-pool";
import { metrics } from "@/lib/metrics";
import { runJob } from "./answer";

/** The worker's counters and histograms: the request thread adds them to its own (its gauges are the thread's). */
async function counters(): Promise<MetricJson[]> {
  const all = await metrics().registry.getMetricsAsJSON();
  // prom-client's JSON names the type as text ("counter"), whatever its typings' enum says
  return all.filter((m) => ["counter", "histogram"].includes(m.type as unknown as string));
}

/** how much lower than the request thread the worker's thread runs (nice), so that heavy work yields the cores to answers */
const NICER_BY = 10;

/**
 * On Linux a thread has a priority of its own (setpriority on its thread id): the worker's is
 * lowered, so when the cores are busy the request thread (live answers, health, the stream)
 * runs first, as API Priority and Fairness puts light requests first. Elsewhere the worker
 * runs at the process's priority.
 */
function yieldToRequests(): void {
  try {
    const tid = Number(path.basename(fs.readlinkSync("/proc/thread-self")));
    if (Number.isInteger(tid)) os.setPriority(tid, Math.min(19, os.getPriority(tid) + NICER_BY));
  } catch {
    // no /proc/thread-self, or not allowed: the worker keeps the process's priority
  }
}

yieldToRequests();
const port = parentPort!;
port.on("message", ({ id, job }: ToWorker) => {
  void runJob(job).then(async (result) => {
    const { held_views, pinned_views, pinned_bytes } = liveCache().memory();
    const out: FromWorker = {
      id,
      result,
      memory: { held_views, pinned_views, pinned_bytes },
      counters: await counters(),
    };
    port.postMessage(out);
  });
});
