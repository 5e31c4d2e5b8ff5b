import { apiHandler } from "@/lib/api/handler";
import { metrics } from "@/lib/metrics";
import { z } from "zod";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// GET /api/metrics: Prometheus text exposition of the console's metrics.
export const GET = apiHandler({ route: "/api/metrics", query: z.object({}), access: "public" }, async () => {
  const { registry } = metrics();
  return new Response(await registry.metrics(), { headers: { "content-type": registry.contentType, "cache-control": "no-store" } });
});
