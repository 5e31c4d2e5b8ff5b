import { apiHandler, reasonTargets, reasonTargetsQuerySchema } from "@scheduler-console/engine";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// GET /api/v1/scheduler/reasons/targets: the due tables holding one verdict code at one moment, from the decision journal.
export const GET = apiHandler(
  { route: "/api/v1/scheduler/reasons/targets", query: reasonTargetsQuerySchema },
  async ({ query }) => reasonTargets(query),
);
