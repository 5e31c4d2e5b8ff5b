import { apiHandler } from "@/lib/api/handler";
import { demandListAnswer } from "@/lib/api/demand";
import { demandDetailAnswer } from "@/lib/api/demand-detail";
import { demandQuery } from "@/lib/schema/api/demand";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// GET /api/v1/scheduler/demand: the planner's tables (list, cursor-paged) or one table with ?target=.
export const GET = apiHandler({ route: "/api/v1/scheduler/demand", query: demandQuery }, async ({ query }) =>
  query.target !== undefined ? demandDetailAnswer({ ...query, target: query.target }) : demandListAnswer(query),
);
