import { apiHandler, notFound, unreadQuerySchema } from "@scheduler-console/engine";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// Any /api path no route serves: 404 not_found as JSON (console-api.md "Conventions"), not
// Next's HTML page. Every defined route takes precedence over this catch-all.
const unknownEndpoint = apiHandler(
  { route: "/api/[...unknown]", query: unreadQuerySchema, access: "public" },
  async ({ request }) => {
    throw notFound(`no endpoint ${request.method} ${new URL(request.url).pathname}`);
  },
);

export const GET = unknownEndpoint;
export const POST = unknownEndpoint;
export const PUT = unknownEndpoint;
export const PATCH = unknownEndpoint;
export const DELETE = unknownEndpoint;
