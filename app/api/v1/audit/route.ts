import { apiHandler } from "@/lib/api/handler";
import { auditLog } from "@/lib/api/audit";
import { auditQuery } from "@/lib/schema/api/audit";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// GET /api/v1/audit: policy changes newest first, with reasons (`target`, `limit`, `cursor`, `revision`).
export const GET = apiHandler({ route: "/api/v1/audit", query: auditQuery }, async ({ query }) => auditLog(query));
