import { apiHandler, json, openApiDocument, noQuerySchema } from "@scheduler-console/engine";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// GET /api/v1/openapi.json: the OpenAPI 3.1 document generated from the zod schemas, one entry per endpoint.
export const GET = apiHandler({ route: "/api/v1/openapi.json", query: noQuerySchema, access: "public" }, async () =>
  json(openApiDocument()),
);
