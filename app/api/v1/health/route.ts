import { apiHandler, json, healthResponse, healthQuerySchema } from "@scheduler-console/engine";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// GET /api/v1/health: etcd endpoints, leader and the live cache; 503 when no endpoint answers.
export const GET = apiHandler({ route: "/api/v1/health", query: healthQuerySchema, access: "public" }, async () => {
  const { status, body } = await healthResponse();
  return json(body, { status });
});
