import { apiHandler, metricsResponse, noQuerySchema } from "@scheduler-console/engine";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// GET /api/metrics: Prometheus text exposition of the console's metrics.
export const GET = apiHandler({ route: "/api/metrics", query: noQuerySchema, access: "public" }, () =>
  metricsResponse(),
);
