import { apiHandler } from "@/lib/http/handler";
import { fleetDiff } from "@/lib/time/diff";
import { diffQuerySchema } from "@/lib/schema/api/diff";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// GET /api/v1/scheduler/diff?from=R1&to=R2 (or from_ms/to_ms; to defaults to now): what changed between two moments.
export const GET = apiHandler(
  { route: "/api/v1/scheduler/diff", query: diffQuerySchema, heavy: true },
  async ({ query }) => fleetDiff(query),
);
