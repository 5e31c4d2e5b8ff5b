import { apiHandler } from "@/lib/api/handler";
import { skippedResponse } from "@/lib/api/skipped";
import { fleetView } from "@/lib/api/fleet";
import { skippedQuery } from "@/lib/schema/api/skipped";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// GET /api/v1/scheduler/skipped: every record skipped at one revision, with key, family and reason.
export const GET = apiHandler({ route: "/api/v1/scheduler/skipped", query: skippedQuery }, async ({ query }) =>
  skippedResponse(await fleetView(query.revision)),
);
