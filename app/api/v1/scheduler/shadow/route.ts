import { apiHandler } from "@/lib/http/handler";
import { shadowAnswer } from "@/lib/scheduler/shadow";
import { fleetView } from "@/lib/live/fleet-view";
import { shadowQuerySchema } from "@/lib/schema/api/shadow";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// GET /api/v1/scheduler/shadow: the §6.2 comparison, console placements beside the master's shadow rows.
export const GET = apiHandler({ route: "/api/v1/scheduler/shadow", query: shadowQuerySchema }, async ({ query }) =>
  shadowAnswer(await fleetView(query.revision), query),
);
