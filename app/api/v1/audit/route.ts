import { apiHandler } from "@/lib/http/handler";
import { auditLog } from "@/lib/policies/audit";
import { auditQuerySchema } from "@/lib/schema/api/audit";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// GET /api/v1/audit: policy changes newest first, with reasons (`target`, `limit`, `cursor`, `revision`).
export const GET = apiHandler({ route: "/api/v1/audit", query: auditQuerySchema }, async ({ query }) =>
  auditLog(query),
);
