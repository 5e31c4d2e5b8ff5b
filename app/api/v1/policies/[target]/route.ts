import {
  apiHandler,
  json,
  deletePolicy,
  getPolicy,
  parseTarget,
  savePolicy,
  writeHeaders,
  policyQuerySchema,
  writeQuerySchema,
} from "@scheduler-console/engine";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const ROUTE = "/api/v1/policies/[target]";

// GET /api/v1/policies/{target}: stored + effective policy with sources (at ?revision=R when pinned); ETag = mod_revision.
export const GET = apiHandler({ route: ROUTE, query: policyQuerySchema }, async ({ params, query }) => {
  const view = await getPolicy(parseTarget(params.target), query.revision);
  return json(view, { headers: { etag: String(view.mod_revision) } });
});

// PUT /api/v1/policies/{target}: replace the document (admin, If-Match, X-Change-Reason, X-Preview-Digest; audited CAS txn).
export const PUT = apiHandler(
  { route: ROUTE, query: writeQuerySchema, access: "admin", scope: "target", body: {}, ifMatch: true },
  async ({ params, body, ifMatch, principal, rule, request }) => {
    const saved = await savePolicy({
      target: parseTarget(params.target),
      body,
      ifMatch: ifMatch!,
      principal: principal!,
      rule: rule!,
      headers: writeHeaders(request),
    });
    return json(saved.body, { headers: { etag: saved.etag } });
  },
);

// DELETE /api/v1/policies/{target}: remove a per-table override (never `_default`); same guards as PUT.
export const DELETE = apiHandler(
  { route: ROUTE, query: writeQuerySchema, access: "admin", scope: "target", ifMatch: true },
  async ({ params, ifMatch, principal, rule, request }) => {
    const deleted = await deletePolicy({
      target: parseTarget(params.target),
      ifMatch: ifMatch!,
      principal: principal!,
      rule: rule!,
      headers: writeHeaders(request),
    });
    return json(deleted, { headers: { etag: "0" } });
  },
);
