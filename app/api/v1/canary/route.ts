import { apiHandler } from "@/lib/http/handler";
import { canaryReport } from "@/lib/takeover/canary";
import { canaryQuerySchema } from "@/lib/schema/api/canary";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// GET /api/v1/canary?window_ms=: the shadow outcomes over a window as observations with their trend, agreement, chronic tables and the evidence digest.
export const GET = apiHandler({ route: "/api/v1/canary", query: canaryQuerySchema }, async ({ query }) =>
  canaryReport(query),
);
