import { apiHandler, gatesFor, gatesQuerySchema } from "@scheduler-console/engine";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// GET /api/v1/takeover/gates?target=&evidence_digest=: the gates a switch of target to mode planner must pass now.
export const GET = apiHandler({ route: "/api/v1/takeover/gates", query: gatesQuerySchema }, async ({ query }) =>
  gatesFor(query.target, query.evidence_digest),
);
