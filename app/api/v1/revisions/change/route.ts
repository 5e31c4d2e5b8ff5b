import { apiHandler, neighbouringChange, changeQuerySchema } from "@scheduler-console/engine";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// GET /api/v1/revisions/change?scope&revision&direction=back|forward[&target]: the previous or next revision at which something a page shows changed.
export const GET = apiHandler({ route: "/api/v1/revisions/change", query: changeQuerySchema }, async ({ query }) =>
  neighbouringChange(query),
);
