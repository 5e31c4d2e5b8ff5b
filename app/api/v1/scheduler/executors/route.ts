import { apiHandler } from "@/lib/api/handler";
import { executorsResponse } from "@/lib/api/executors";
import { evaluate } from "@/lib/api/meta";
import { fleetView } from "@/lib/api/fleet";
import { executorsQuery } from "@/lib/schema/api/executors";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// GET /api/v1/scheduler/executors: heartbeats with headroom from assignments, orphans flagged.
export const GET = apiHandler({ route: "/api/v1/scheduler/executors", query: executorsQuery }, async ({ query }) => {
  const view = await fleetView(query.revision);
  return executorsResponse(view, await evaluate(view, query));
});
