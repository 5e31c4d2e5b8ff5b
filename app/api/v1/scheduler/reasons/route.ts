import { apiHandler, schedulerReasons, reasonsQuerySchema } from "@scheduler-console/engine";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// GET /api/v1/scheduler/reasons: due tables by verdict code at each step, from the decision journal.
export const GET = apiHandler({ route: "/api/v1/scheduler/reasons", query: reasonsQuerySchema }, async ({ query }) =>
  schedulerReasons(query),
);
