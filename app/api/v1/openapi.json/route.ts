import { apiHandler, json } from "@/lib/api/handler";
import { openApiDocument } from "@/lib/api/openapi";
import { noQuery } from "@/lib/schema/api/common";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// GET /api/v1/openapi.json: the OpenAPI 3.1 document generated from the zod schemas, one entry per endpoint.
export const GET = apiHandler({ route: "/api/v1/openapi.json", query: noQuery, access: "public" }, async () => json(openApiDocument()));
