// The offload worker's entry (lib/live/offload-pool.ts starts it; scripts/build-offload-worker.mjs
// bundles it): it answers the jobs the request thread sends, several at once on its own event
// loop, with its own etcd client, revision clock and pinned views (its cache keeps no live
// view, lib/live/cache.ts `pinnedOnly`), and tells with each answer what it keeps and its
// counters so far.
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
