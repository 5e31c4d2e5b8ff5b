import { apiHandler } from "@/lib/http/handler";
import { schedulerReasons } from "@/lib/time/journal-reasons";
import { reasonsQuerySchema } from "@/lib/schema/api/reasons";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// GET /api/v1/scheduler/reasons: due tables by verdict code at each step, from the decision journal.
export const GET = apiHandler({ route: "/api/v1/scheduler/reasons", query: reasonsQuerySchema }, async ({ query }) =>
  schedulerReasons(query),
);
