import { apiHandler } from "@/lib/api/handler";
import { executorsResponse } from "@/lib/api/executors";
import { fleetView } from "@/lib/api/fleet";
import { executorsQuery } from "@/lib/schema/api/executors";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// GET /api/v1/scheduler/executors: heartbeats with headroom from assignments, orphans flagged.
export const GET = apiHandler({ route: "/api/v1/scheduler/executors", query: executorsQuery }, async ({ query }) =>
  executorsResponse(await fleetView(query.revision)),
);
