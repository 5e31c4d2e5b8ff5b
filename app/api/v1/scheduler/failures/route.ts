import { apiHandler } from "@/lib/http/handler";
import { failuresResponse } from "@/lib/scheduler/failures";
import { evaluate, fleetView } from "@/lib/live/fleet-view";
import { failuresQuerySchema } from "@/lib/schema/api/failures";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// GET /api/v1/scheduler/failures: merge failure ledger (read-time corrected) and task cooldowns.
export const GET = apiHandler(
  { route: "/api/v1/scheduler/failures", query: failuresQuerySchema },
  async ({ query }) => {
    const view = await fleetView(query.revision);
    return failuresResponse(view, query, await evaluate(view, query));
  },
);
