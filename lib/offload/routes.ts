import "server-only";
// The routes whose answer may be computed in the offload worker (lib/live/offload-pool.ts):
// every read at one revision (a pinned one this process does not hold goes there) and the
// diff. Each is the route handler itself: the engine wraps it with apiHandler
// (lib/engine/direct.ts), and the worker runs the same `run` on the same parsed query
// (./answer.ts), so an answer is the same bytes wherever it was computed.
import type { z } from "zod";
import type { HandlerContext, HandlerSpec } from "@/lib/http/handler";
import { assignmentsResponse } from "@/lib/scheduler/assignments";
import { demandListAnswer } from "@/lib/scheduler/demand";
import { demandDetailAnswer } from "@/lib/scheduler/demand-detail";
import { executorsAnswer } from "@/lib/scheduler/executors";
import { failuresResponse } from "@/lib/scheduler/failures";
import { shadowAnswer } from "@/lib/scheduler/shadow";
import { skippedResponse } from "@/lib/scheduler/skipped";
import { fleetDiff } from "@/lib/time/diff";
import { evaluate, fleetView } from "@/lib/live/fleet-view";
import { assignmentsQuerySchema } from "@/lib/schema/api/assignments";
import { demandQuerySchema } from "@/lib/schema/api/demand";
import { diffQuerySchema } from "@/lib/schema/api/diff";
import { executorsQuerySchema } from "@/lib/schema/api/executors";
import { failuresQuerySchema } from "@/lib/schema/api/failures";
import { shadowQuerySchema } from "@/lib/schema/api/shadow";
import { skippedQuerySchema } from "@/lib/schema/api/skipped";

/** A route handler the worker can run: its spec (marked `offload`) and its `run`. */
export interface OffloadRoute<S extends z.ZodType> {
  spec: HandlerSpec<S>;
  run: (ctx: HandlerContext<z.output<S>>) => Promise<unknown>;
}

function offloadable<S extends z.ZodType>(
  spec: HandlerSpec<S>,
  run: (ctx: HandlerContext<z.output<S>>) => Promise<unknown>,
): OffloadRoute<S> {
  return { spec: { ...spec, offload: true }, run };
}

// GET /api/v1/scheduler/demand: the planner's tables (list, cursor-paged) or one table with ?target=.
const demandRoute = offloadable({ route: "/api/v1/scheduler/demand", query: demandQuerySchema }, async ({ query }) =>
  query.target !== undefined ? demandDetailAnswer({ ...query, target: query.target }) : demandListAnswer(query),
);

// GET /api/v1/scheduler/executors: heartbeats with headroom from assignments, orphans flagged.
const executorsRoute = offloadable(
  { route: "/api/v1/scheduler/executors", query: executorsQuerySchema },
  async ({ query }) => executorsAnswer(query),
);

// GET /api/v1/scheduler/shadow: the §6.2 comparison, console placements beside the master's shadow rows.
const shadowRoute = offloadable({ route: "/api/v1/scheduler/shadow", query: shadowQuerySchema }, async ({ query }) =>
  shadowAnswer(await fleetView(query.revision), query),
);

// GET /api/v1/scheduler/assignments: live assignments (state != released) with bind age and overdue.
const assignmentsRoute = offloadable(
  { route: "/api/v1/scheduler/assignments", query: assignmentsQuerySchema },
  async ({ query }) => {
    const view = await fleetView(query.revision);
    return assignmentsResponse(view, query, await evaluate(view, query));
  },
);

// GET /api/v1/scheduler/failures: merge failure ledger (read-time corrected) and task cooldowns.
const failuresRoute = offloadable(
  { route: "/api/v1/scheduler/failures", query: failuresQuerySchema },
  async ({ query }) => {
    const view = await fleetView(query.revision);
    return failuresResponse(view, query, await evaluate(view, query));
  },
);

// GET /api/v1/scheduler/skipped: every record skipped at one revision, with key, family and reason.
const skippedRoute = offloadable(
  { route: "/api/v1/scheduler/skipped", query: skippedQuerySchema },
  async ({ query }) => {
    const view = await fleetView(query.revision);
    return skippedResponse(view, await evaluate(view, query));
  },
);

// GET /api/v1/scheduler/diff?from=R1&to=R2 (or from_ms/to_ms; to defaults to now): what changed between two moments.
const diffRoute = offloadable(
  { route: "/api/v1/scheduler/diff", query: diffQuerySchema, heavy: true },
  async ({ query }) => fleetDiff(query),
);

/** Every route the worker can run (each is also answered directly: lib/engine/direct.ts). */
export const OFFLOAD_ROUTES = [
  demandRoute,
  executorsRoute,
  shadowRoute,
  assignmentsRoute,
  failuresRoute,
  skippedRoute,
  diffRoute,
] as unknown as readonly OffloadRoute<z.ZodType>[];

const ROUTES = new Map(OFFLOAD_ROUTES.map((r) => [r.spec.route, r]));

/** The route the worker is asked to run, by its label. */
export function offloadRouteOf(label: string): OffloadRoute<z.ZodType> {
  const route = ROUTES.get(label);
  if (!route) throw new Error(`no offloadable route ${label}`);
  return route;
}
