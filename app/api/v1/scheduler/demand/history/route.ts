import { apiHandler } from "@/lib/http/handler";
import { demandHistory } from "@/lib/time/history";
import { historyQuerySchema } from "@/lib/schema/api/history";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// GET /api/v1/scheduler/demand/history?target=T&from_ms&to_ms: one point per change of the table's own keys (default: last 6 h).
export const GET = apiHandler(
  { route: "/api/v1/scheduler/demand/history", query: historyQuerySchema, heavy: true },
  async ({ query }) => demandHistory(query),
);
