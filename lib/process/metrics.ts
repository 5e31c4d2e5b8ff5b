import "server-only";
// GET /api/metrics: the process's metrics (lib/metrics) as Prometheus text, so the route
// handler stays "parse, call, return" over lib/process.
import { metrics } from "@/lib/metrics";
import { refreshFleetGauges } from "./fleet-gauges";
import { refreshForecastGauges } from "./forecast-gauges";

export async function metricsResponse(): Promise<Response> {
  await refreshFleetGauges(); // the fleet gauges from the live plan
  // the forecasts' score from their journal; a failed read keeps the last values (the scrape still answers)
  await refreshForecastGauges().catch(() => undefined);
  const { registry } = metrics();
  return new Response(await registry.metrics(), {
    headers: { "content-type": registry.contentType, "cache-control": "no-store" },
  });
}
