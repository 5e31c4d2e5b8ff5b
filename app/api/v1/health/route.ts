import { directGet } from "@scheduler-console/engine";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// GET /api/v1/health: etcd endpoints, leader and the live cache; 503 when no endpoint answers.
// Answered straight from the engine by the custom server too (lib/engine/direct.ts).
export const GET = directGet("/api/v1/health");
