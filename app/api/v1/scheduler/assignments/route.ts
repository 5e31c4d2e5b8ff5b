import { apiHandler } from "@/lib/http/handler";
import { assignmentsResponse } from "@/lib/scheduler/assignments";
import { evaluate, fleetView } from "@/lib/live/fleet-view";
import { assignmentsQuerySchema } from "@/lib/schema/api/assignments";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// GET /api/v1/scheduler/assignments: live assignments (state != released) with bind age and overdue.
export const GET = apiHandler(
  { route: "/api/v1/scheduler/assignments", query: assignmentsQuerySchema },
  async ({ query }) => {
    const view = await fleetView(query.revision);
    return assignmentsResponse(view, query, await evaluate(view, query));
  },
);
