import { apiHandler } from "@/lib/api/handler";
import { metricsResponse } from "@/lib/api/metrics";
import { z } from "zod";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// GET /api/metrics: Prometheus text exposition of the console's metrics.
export const GET = apiHandler({ route: "/api/metrics", query: z.object({}), access: "public" }, () => metricsResponse());
