import { apiHandler, fleetFacts, factsQuerySchema } from "@scheduler-console/engine";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// GET /api/v1/fleet/facts?window_ms=: table count and hot share, generation sizes, task durations and failure shares (nearest-rank), and what they imply.
export const GET = apiHandler({ route: "/api/v1/fleet/facts", query: factsQuerySchema }, async ({ query }) =>
  fleetFacts(query),
);
