import { apiHandler, demandHistory, historyQuerySchema } from "@scheduler-console/engine";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// GET /api/v1/scheduler/demand/history?target=T&from_ms&to_ms: one point per change of the table's own keys (default: last 6 h).
export const GET = apiHandler(
  { route: "/api/v1/scheduler/demand/history", query: historyQuerySchema, heavy: true },
  async ({ query }) => demandHistory(query),
);
