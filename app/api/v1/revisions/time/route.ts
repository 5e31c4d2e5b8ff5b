import { apiHandler, revisionTimeOf, revisionTimeQuerySchema } from "@scheduler-console/engine";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// GET /api/v1/revisions/time?revision=R | ?at_ms=T: when a revision was written, or the newest revision written by T.
export const GET = apiHandler({ route: "/api/v1/revisions/time", query: revisionTimeQuerySchema }, async ({ query }) =>
  revisionTimeOf(query),
);
