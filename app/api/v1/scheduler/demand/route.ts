import { apiHandler } from "@/lib/http/handler";
import { demandListAnswer } from "@/lib/scheduler/demand";
import { demandDetailAnswer } from "@/lib/scheduler/demand-detail";
import { demandQuerySchema } from "@/lib/schema/api/demand";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// GET /api/v1/scheduler/demand: the planner's tables (list, cursor-paged) or one table with ?target=.
export const GET = apiHandler({ route: "/api/v1/scheduler/demand", query: demandQuerySchema }, async ({ query }) =>
  query.target !== undefined ? demandDetailAnswer({ ...query, target: query.target }) : demandListAnswer(query),
);
