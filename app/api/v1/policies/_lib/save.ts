import "server-only";
// PUT / DELETE of one policy (console-api.md): auth (401/403, cross-site, read-only) →
// JSON body (415/413/400) → If-Match (428) → validation (422 invalid_policy) → one CAS txn
// writing the policy and its audit record (412 precondition_failed with what is stored now).
// Every error answers before anything is written.
import { json } from "@/lib/api/handler";
import { etcdClient, etcdPrefix } from "@/lib/etcd/client";
import { DEFAULT_POLICY_TARGET, readPolicy, writePolicy, type StoredPolicy } from "@/lib/etcd/policy-store";
import { validatePolicy } from "@/lib/planner/policy";
import { POLICY_VERSION, type PolicyDocument } from "@/lib/schema/policy";
import { authorized, errorResponse, parseIfMatch, parseTarget, readJsonBody } from "./http";
import { policyView, usableDoc } from "./view";

export async function savePolicy(request: Request, rawTarget: string, op: "put" | "delete"): Promise<Response> {
  const principal = await authorized(request, "write");
  if (principal instanceof Response) return principal;
  const target = parseTarget(rawTarget);
  if (target instanceof Response) return target;
  if (op === "delete" && target === DEFAULT_POLICY_TARGET) {
    return errorResponse(400, "cannot_delete_default", "The fleet default (_default) cannot be deleted; edit it instead.");
  }
  let body: unknown = null;
  if (op === "put") {
    const read = await readJsonBody(request);
    if (read instanceof Response) return read;
    body = read.value;
  }
  const expected = parseIfMatch(request);
  if (expected instanceof Response) return expected;

  const client = etcdClient();
  const prefix = etcdPrefix();
  const isDefault = target === DEFAULT_POLICY_TARGET;
  const defaultStored = await readPolicy(client, prefix, DEFAULT_POLICY_TARGET);
  let doc: PolicyDocument | null = null;
  if (op === "put") {
    const checked = validatePolicy(body, { defaultDoc: isDefault ? null : usableDoc(defaultStored).doc });
    if (!checked.ok) {
      const message = checked.issues.map((i) => `${i.path || "(document)"}: ${i.message}`).join("; ");
      return errorResponse(422, "invalid_policy", message, { issues: checked.issues });
    }
    doc = { ...checked.doc, v: POLICY_VERSION }; // stored documents always carry their version
  }

  const result = await writePolicy(client, prefix, { target, doc, expectedModRevision: expected, actor: principal.actor, nowMs: Date.now() });
  if (!result.ok) {
    const current = { stored: result.current.modRevision === 0 ? null : result.current.doc, mod_revision: result.current.modRevision };
    const etag = { etag: String(result.current.modRevision) };
    if (result.reason === "precondition_failed") {
      return errorResponse(412, "precondition_failed", `The policy of ${target} changed since you read it (now mod_revision ${result.current.modRevision}).`, current, etag);
    }
    if (result.reason === "unsupported_version") return errorResponse(409, "unsupported_version", result.message, current, etag);
    return errorResponse(404, "not_found", `${target} has no policy override to delete.`, current, etag);
  }
  if (doc === null) {
    return json({ target, deleted: true, mod_revision: 0, revision: result.modRevision, audit_id: result.auditId }, { headers: { etag: "0" } });
  }
  const saved: StoredPolicy = { target, doc, modRevision: result.modRevision };
  const view = policyView(target, saved, isDefault ? saved : defaultStored);
  return json({ ...view, revision: result.modRevision, audit_id: result.auditId }, { headers: { etag: String(result.modRevision) } });
}
