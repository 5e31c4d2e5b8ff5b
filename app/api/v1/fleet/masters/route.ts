import { apiHandler, fleetMasters, mastersQuerySchema } from "@scheduler-console/engine";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// GET /api/v1/fleet/masters: each resident master's version against CONSOLE_POLICY_AWARE_VERSION, and whether the fleet is homogeneous.
export const GET = apiHandler({ route: "/api/v1/fleet/masters", query: mastersQuerySchema }, async ({ query }) =>
  fleetMasters(query),
);
