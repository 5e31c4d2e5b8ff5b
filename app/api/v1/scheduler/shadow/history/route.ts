import { apiHandler, shadowHistory, shadowHistoryQuerySchema } from "@scheduler-console/engine";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const DAY_MS = 24 * 3600 * 1000;

// GET /api/v1/scheduler/shadow/history?from_ms&to_ms: outcome counts sampled once a minute (default: last 24 h).
export const GET = apiHandler(
  { route: "/api/v1/scheduler/shadow/history", query: shadowHistoryQuerySchema },
  async ({ query }) => {
    const to_ms = query.to_ms ?? Date.now();
    const from_ms = query.from_ms ?? to_ms - DAY_MS;
    return { from_ms, to_ms, samples: await shadowHistory(from_ms, to_ms) };
  },
);
