import { apiHandler } from "@/lib/api/handler";
import { failuresResponse } from "@/lib/api/failures";
import { evaluate } from "@/lib/api/meta";
import { fleetView } from "@/lib/api/fleet";
import { failuresQuery } from "@/lib/schema/api/failures";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// GET /api/v1/scheduler/failures: merge failure ledger (read-time corrected) and task cooldowns.
export const GET = apiHandler({ route: "/api/v1/scheduler/failures", query: failuresQuery }, async ({ query }) => {
  const view = await fleetView(query.revision);
  return failuresResponse(view, query, await evaluate(view, query));
});
