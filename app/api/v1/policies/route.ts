import { apiHandler } from "@/lib/api/handler";
import { listPolicies } from "@/lib/api/policies";
import { policyQuery } from "@/lib/schema/api/policies";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// GET /api/v1/policies: `_default` and every per-table override, at one revision (?revision=R when pinned).
export const GET = apiHandler({ route: "/api/v1/policies", query: policyQuery }, async ({ query }) => listPolicies(query.revision));
