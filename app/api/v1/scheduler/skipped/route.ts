import { apiHandler } from "@/lib/http/handler";
import { skippedResponse } from "@/lib/scheduler/skipped";
import { evaluate, fleetView } from "@/lib/live/fleet-view";
import { skippedQuerySchema } from "@/lib/schema/api/skipped";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// GET /api/v1/scheduler/skipped: every record skipped at one revision, with key, family and reason.
export const GET = apiHandler({ route: "/api/v1/scheduler/skipped", query: skippedQuerySchema }, async ({ query }) => {
  const view = await fleetView(query.revision);
  return skippedResponse(view, await evaluate(view, query));
});
