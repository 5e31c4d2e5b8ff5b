import { apiHandler } from "@/lib/api/handler";
import { demandHistory } from "@/lib/api/history";
import { historyQuery } from "@/lib/schema/api/history";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// GET /api/v1/scheduler/demand/history?target=T&from_ms&to_ms: one point per change of the table's own keys (default: last 6 h).
export const GET = apiHandler({ route: "/api/v1/scheduler/demand/history", query: historyQuery }, async ({ query }) => demandHistory(query));
