import { apiHandler, listPolicies, policyQuerySchema } from "@scheduler-console/engine";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// GET /api/v1/policies: `_default` and every per-table override, at one revision (?revision=R when pinned).
export const GET = apiHandler({ route: "/api/v1/policies", query: policyQuerySchema }, async ({ query }) =>
  listPolicies(query.revision),
);
