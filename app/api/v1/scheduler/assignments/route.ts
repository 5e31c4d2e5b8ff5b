import { apiHandler } from "@/lib/api/handler";
import { assignmentsResponse } from "@/lib/api/assignments";
import { evaluate } from "@/lib/api/meta";
import { fleetView } from "@/lib/api/fleet";
import { assignmentsQuery } from "@/lib/schema/api/assignments";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// GET /api/v1/scheduler/assignments: live assignments (state != released) with bind age and overdue.
export const GET = apiHandler({ route: "/api/v1/scheduler/assignments", query: assignmentsQuery }, async ({ query }) => {
  const view = await fleetView(query.revision);
  return assignmentsResponse(view, query, await evaluate(view, query));
});
