import { apiHandler } from "@/lib/http/handler";
import { parseTarget, previewProposal } from "@/lib/policies/policies";
import { previewQuerySchema } from "@/lib/schema/api/policies";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// POST /api/v1/policies/{target}/preview: what saving the body would change, with its summary and digest (writes nothing).
export const POST = apiHandler(
  { route: "/api/v1/policies/[target]/preview", query: previewQuerySchema, body: {}, heavy: true },
  async ({ params, body, query }) => previewProposal(parseTarget(params.target), body, query.now_ms ?? Date.now()),
);
