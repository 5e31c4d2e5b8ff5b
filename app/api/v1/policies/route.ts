import { apiHandler } from "@/lib/http/handler";
import { listPolicies } from "@/lib/policies/policies";
import { policyQuerySchema } from "@/lib/schema/api/policies";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// GET /api/v1/policies: `_default` and every per-table override, at one revision (?revision=R when pinned).
export const GET = apiHandler({ route: "/api/v1/policies", query: policyQuerySchema }, async ({ query }) =>
  listPolicies(query.revision),
);
