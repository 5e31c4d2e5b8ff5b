import { apiHandler, parseTarget, previewProposal, previewQuerySchema } from "@scheduler-console/engine";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// POST /api/v1/policies/{target}/preview: what saving the body would change, with its summary and digest (writes nothing).
export const POST = apiHandler(
  { route: "/api/v1/policies/[target]/preview", query: previewQuerySchema, body: {}, heavy: true },
  async ({ params, body, query }) => previewProposal(parseTarget(params.target), body, query.now_ms ?? Date.now()),
);
