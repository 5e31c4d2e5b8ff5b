import { apiHandler, canaryReport, canaryQuerySchema } from "@scheduler-console/engine";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// GET /api/v1/canary?window_ms=: the shadow outcomes over a window as observations with their trend, agreement, chronic tables and the evidence digest.
export const GET = apiHandler({ route: "/api/v1/canary", query: canaryQuerySchema }, async ({ query }) =>
  canaryReport(query),
);
