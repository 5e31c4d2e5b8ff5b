import { apiHandler, journalCoverage, journalCoverageQuerySchema } from "@scheduler-console/engine";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// GET /api/v1/journal/coverage: the decision journal's span, size, retention and gaps (with their reasons).
export const GET = apiHandler({ route: "/api/v1/journal/coverage", query: journalCoverageQuerySchema }, async () =>
  journalCoverage(),
);
