import { apiHandler } from "@/lib/http/handler";
import { executorsAnswer } from "@/lib/scheduler/executors";
import { executorsQuerySchema } from "@/lib/schema/api/executors";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// GET /api/v1/scheduler/executors: heartbeats with headroom from assignments, orphans flagged.
export const GET = apiHandler(
  { route: "/api/v1/scheduler/executors", query: executorsQuerySchema },
  async ({ query }) => executorsAnswer(query),
);
