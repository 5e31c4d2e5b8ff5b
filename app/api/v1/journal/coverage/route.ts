import { apiHandler } from "@/lib/http/handler";
import { journalCoverage } from "@/lib/time/journal-coverage";
import { journalCoverageQuerySchema } from "@/lib/schema/api/journal";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// GET /api/v1/journal/coverage: the decision journal's span, size, retention and gaps (with their reasons).
export const GET = apiHandler({ route: "/api/v1/journal/coverage", query: journalCoverageQuerySchema }, async () =>
  journalCoverage(),
);
