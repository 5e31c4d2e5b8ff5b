import { apiHandler, json } from "@/lib/http/handler";
import { openApiDocument } from "@/lib/http/openapi";
import { noQuerySchema } from "@/lib/schema/api/common";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// GET /api/v1/openapi.json: the OpenAPI 3.1 document generated from the zod schemas, one entry per endpoint.
export const GET = apiHandler({ route: "/api/v1/openapi.json", query: noQuerySchema, access: "public" }, async () =>
  json(openApiDocument()),
);
