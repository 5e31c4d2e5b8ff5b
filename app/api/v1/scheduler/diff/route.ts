import { directGet } from "@scheduler-console/engine";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// GET /api/v1/scheduler/diff?from=R1&to=R2 (or from_ms/to_ms; to defaults to now): what changed between two moments.
// Answered in the offload worker when it reads another moment (lib/offload/routes.ts).
export const GET = directGet("/api/v1/scheduler/diff");
