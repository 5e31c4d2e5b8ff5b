import { apiHandler, demandStream, demandStreamQuerySchema } from "@scheduler-console/engine";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// GET /api/v1/scheduler/demand/stream: the live listing's changes, pushed (Server-Sent Events), one shared step at a time.
export const GET = apiHandler(
  { route: "/api/v1/scheduler/demand/stream", query: demandStreamQuerySchema },
  async ({ query, request }) =>
    demandStream(query, request.headers.get("last-event-id") ?? query.since ?? null, request.signal),
);
