import "server-only";
// GET /api/metrics: the process's metrics (lib/metrics) as Prometheus text, so the route
// handler stays "parse, call, return" over lib/api.
import { metrics } from "@/lib/metrics";

export async function metricsResponse(): Promise<Response> {
  const { registry } = metrics();
  return new Response(await registry.metrics(), { headers: { "content-type": registry.contentType, "cache-control": "no-store" } });
}
