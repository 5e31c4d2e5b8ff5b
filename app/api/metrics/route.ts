import { apiHandler } from "@/lib/http/handler";
import { metricsResponse } from "@/lib/process/metrics";
import { noQuerySchema } from "@/lib/schema/api/common";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// GET /api/metrics: Prometheus text exposition of the console's metrics.
export const GET = apiHandler({ route: "/api/metrics", query: noQuerySchema, access: "public" }, () =>
  metricsResponse(),
);
