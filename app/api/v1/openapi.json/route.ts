import { apiHandler, json } from "@/lib/api/handler";
import { openApiDocument } from "@/lib/api/openapi";
import { z } from "zod";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// GET /api/v1/openapi.json: the OpenAPI 3.1 document generated from the zod schemas.
export const GET = apiHandler({ route: "/api/v1/openapi.json", query: z.object({}), access: "public" }, async () => json(openApiDocument()));
