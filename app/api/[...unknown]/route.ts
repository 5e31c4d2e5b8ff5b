import { apiHandler } from "@/lib/http/handler";
import { notFound } from "@/lib/schema/api/errors";
import { z } from "zod";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// Any /api path no route serves: 404 not_found as JSON (console-api.md "Conventions"), not
// Next's HTML page. Every defined route takes precedence over this catch-all.
const unknownEndpoint = apiHandler(
  { route: "/api/[...unknown]", query: z.object({}), access: "public" },
  async ({ request }) => {
    throw notFound(`no endpoint ${request.method} ${new URL(request.url).pathname}`);
  },
);

export const GET = unknownEndpoint;
export const POST = unknownEndpoint;
export const PUT = unknownEndpoint;
export const PATCH = unknownEndpoint;
export const DELETE = unknownEndpoint;
