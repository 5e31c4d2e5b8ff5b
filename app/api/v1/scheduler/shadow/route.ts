import { directGet } from "@scheduler-console/engine";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// GET /api/v1/scheduler/shadow: the §6.2 comparison, console placements beside the master's shadow rows.
// Answered in the offload worker when it reads another moment (lib/offload/routes.ts).
export const GET = directGet("/api/v1/scheduler/shadow");
