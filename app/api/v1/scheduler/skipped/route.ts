import { directGet } from "@scheduler-console/engine";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// GET /api/v1/scheduler/skipped: every record skipped at one revision, with key, family and reason.
// Answered in the offload worker when it reads another moment (lib/offload/routes.ts).
export const GET = directGet("/api/v1/scheduler/skipped");
