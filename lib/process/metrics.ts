import "server-only";
// GET /api/metrics: the process's metrics (lib/metrics) as Prometheus text, so the route
// handler stays "parse, call, return" over lib/process. The offload worker
// (lib/live/offload-pool.ts) counts what it does in registries of its own: its counters and
// histograms are added to the request thread's, name by name (the gauges are the thread's).
import { AggregatorRegistry } from "prom-client";
import { liveCache } from "@/lib/live/cache";
import type { MetricJson } from "@/lib/live/offload-pool";
import { metrics } from "@/lib/metrics";
import { refreshFleetGauges } from "./fleet-gauges";
import { refreshForecastGauges } from "./forecast-gauges";

/** The registry's text with the workers' counters and histograms added to its own. */
async function withWorkers(registry: ReturnType<typeof metrics>["registry"], workers: MetricJson[][]): Promise<string> {
  const own = await registry.getMetricsAsJSON();
  const shared = new Set(workers.flat().map((m) => m.name));
  const sums = AggregatorRegistry.aggregate([own.filter((m) => shared.has(m.name)), ...workers]);
  const parts = await Promise.all(
    own.map((m) =>
      shared.has(m.name) ? sums.getSingleMetricAsString(m.name) : registry.getSingleMetricAsString(m.name),
    ),
  );
  return `${parts.join("\n\n")}\n`;
}

export async function metricsResponse(): Promise<Response> {
  await refreshFleetGauges(); // the fleet gauges from the live plan
  // the forecasts' score from their journal; a failed read keeps the last values (the scrape still answers)
  await refreshForecastGauges().catch(() => undefined);
  const { registry } = metrics();
  const workers = liveCache().offload?.counters() ?? [];
  const text = workers.length > 0 ? await withWorkers(registry, workers) : await registry.metrics();
  return new Response(text, {
    headers: { "content-type": registry.contentType, "cache-control": "no-store" },
  });
}
