import { apiHandler } from "@/lib/http/handler";
import { neighbouringChange } from "@/lib/time/changes";
import { changeQuerySchema } from "@/lib/schema/api/revisions";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// GET /api/v1/revisions/change?scope&revision&direction=back|forward[&target]: the previous or next revision at which something a page shows changed.
export const GET = apiHandler({ route: "/api/v1/revisions/change", query: changeQuerySchema }, async ({ query }) =>
  neighbouringChange(query),
);
