import { z } from "zod";
import { apiHandler, json } from "@/lib/api/handler";
import { checkSameOrigin } from "@/lib/auth";
import { DEFAULT_POLICY_TARGET } from "@/lib/etcd/policy-store";
import { fleetView } from "@/lib/live/cache";
import { validatePolicy } from "@/lib/planner/policy";
import { authorized, errorResponse, parseTarget, readJsonBody } from "../../_lib/http";
import { previewPolicy } from "../../_lib/preview";

export const dynamic = "force-dynamic";

const previewQuery = z.object({
  now_ms: z.string().regex(/^\d{1,16}$/, "now_ms must be Unix milliseconds").transform(Number).optional(),
});
type Ctx = { params: Promise<{ target: string }> };

// POST /api/v1/policies/{target}/preview: which tables a proposed document would move (writes nothing).
export async function POST(request: Request, ctx: Ctx): Promise<Response> {
  const { target: raw } = await ctx.params;
  return apiHandler({ route: "/api/v1/policies/[target]/preview", query: previewQuery, access: "public" }, async ({ query }) => {
    const origin = checkSameOrigin(request.headers, request.url);
    if (!origin.ok) return errorResponse(403, "cross_site", `Cross-site request refused (${origin.reason}).`);
    const principal = await authorized(request, "read");
    if (principal instanceof Response) return principal;
    const target = parseTarget(raw);
    if (target instanceof Response) return target;
    const body = await readJsonBody(request);
    if (body instanceof Response) return body;
    const view = await fleetView();
    const fleetDefault = view.snapshot.policies.find((p) => p.target === null)?.document ?? null;
    const checked = validatePolicy(body.value, { defaultDoc: target === DEFAULT_POLICY_TARGET ? null : fleetDefault });
    if (!checked.ok) {
      return errorResponse(422, "invalid_policy", checked.issues.map((i) => `${i.path || "(document)"}: ${i.message}`).join("; "), { issues: checked.issues });
    }
    return json(previewPolicy(view, target, checked.doc, query.now_ms ?? Date.now()));
  })(request);
}
