import { apiHandler } from "@/lib/http/handler";
import { assignmentsRoute } from "@/lib/offload/routes";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// GET /api/v1/scheduler/assignments: live assignments (state != released) with bind age and overdue.
// Answered in the offload worker when it reads another moment (lib/offload/routes.ts).
export const GET = apiHandler(assignmentsRoute.spec, assignmentsRoute.run);
