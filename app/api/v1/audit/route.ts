import { apiHandler, auditLog, auditQuerySchema } from "@scheduler-console/engine";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// GET /api/v1/audit: policy changes newest first, with reasons (`target`, `limit`, `cursor`, `revision`).
export const GET = apiHandler({ route: "/api/v1/audit", query: auditQuerySchema }, async ({ query }) =>
  auditLog(query),
);
