import { apiHandler, revisionTimeOf, revisionTimeQuerySchema } from "@scheduler-console/engine";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// GET /api/v1/revisions/time?revision=R | ?at_ms=T: when a revision was written, or the newest revision written by T.
// Light, though it names a revision: it reads a key and the clock's samples, never a fleet.
export const GET = apiHandler(
  { route: "/api/v1/revisions/time", query: revisionTimeQuerySchema, heavy: false },
  async ({ query }) => revisionTimeOf(query),
);
