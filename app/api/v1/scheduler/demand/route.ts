import { directGet } from "@scheduler-console/engine";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// GET /api/v1/scheduler/demand: the planner's tables (list, cursor-paged) or one table with ?target=.
// Answered in the offload worker when it reads another moment (lib/offload/routes.ts).
export const GET = directGet("/api/v1/scheduler/demand");
