import { z } from "zod";
import { apiHandler, json } from "@/lib/api/handler";
import { etcdClient, etcdPrefix } from "@/lib/etcd/client";
import { readPolicyWithDefault } from "@/lib/etcd/policy-store";
import { authorized, parseTarget } from "../_lib/http";
import { savePolicy } from "../_lib/save";
import { policyView } from "../_lib/view";

export const dynamic = "force-dynamic";

const ROUTE = "/api/v1/policies/[target]";
const noQuery = z.object({});
type Ctx = { params: Promise<{ target: string }> };

// GET /api/v1/policies/{target}: stored + effective policy with sources; ETag = mod_revision.
export async function GET(request: Request, ctx: Ctx): Promise<Response> {
  const { target: raw } = await ctx.params;
  return apiHandler({ route: ROUTE, query: noQuery, access: "public" }, async () => {
    const principal = await authorized(request, "read");
    if (principal instanceof Response) return principal;
    const target = parseTarget(raw);
    if (target instanceof Response) return target;
    const read = await readPolicyWithDefault(etcdClient(), etcdPrefix(), target);
    const view = policyView(target, read.policy, read.defaultPolicy);
    return json({ ...view, revision: read.revision, read_at_ms: Date.now() }, { headers: { etag: String(view.mod_revision) } });
  })(request);
}

// PUT /api/v1/policies/{target}: replace the document (admin, If-Match, audited CAS txn).
export async function PUT(request: Request, ctx: Ctx): Promise<Response> {
  const { target } = await ctx.params;
  return apiHandler({ route: ROUTE, query: noQuery, access: "public" }, () => savePolicy(request, target, "put"))(request);
}

// DELETE /api/v1/policies/{target}: remove a per-table override (never `_default`).
export async function DELETE(request: Request, ctx: Ctx): Promise<Response> {
  const { target } = await ctx.params;
  return apiHandler({ route: ROUTE, query: noQuery, access: "public" }, () => savePolicy(request, target, "delete"))(request);
}
