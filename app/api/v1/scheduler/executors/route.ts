import { directGet } from "@scheduler-console/engine";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// GET /api/v1/scheduler/executors: heartbeats with headroom from assignments, orphans flagged.
// Answered in the offload worker when it reads another moment (lib/offload/routes.ts).
export const GET = directGet("/api/v1/scheduler/executors");
