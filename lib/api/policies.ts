import "server-only";
// The policy endpoints' services (console-api.md "GET/PUT/DELETE /api/v1/policies/{target}"
// and Additions "Policy edits an admin can trust"). Access, same-origin, the body's type and
// size and If-Match are the wrapper's (handler.ts); here: validation with the reason
// (422 invalid_policy), the version rule (409), the preview digest (409 preview_stale) and
// one CAS txn writing the policy and its audit record (412 on a lost race). Every refusal
// answers before anything is written.
import { etcdClient, etcdPrefix } from "@/lib/etcd/client";
import { readAllPolicies, readPolicyWithDefault, writePolicy, type StoredPolicy } from "@/lib/etcd/policy-store";
import { validatePolicy, type PolicyIssue } from "@/lib/planner/policy";
import type { Principal } from "@/lib/auth";
import { DEFAULT_POLICY_TARGET, POLICY_VERSION, type PolicyDocument } from "@/lib/schema/policy";
import { changeReason, policyTarget, previewDigest, type DeletedPolicyResponse, type PolicyListResponse, type PolicyResponse, type PreviewResponse, type SavedPolicyResponse } from "@/lib/schema/api/policies";
import { ApiError } from "./errors";
import { previewFor } from "./policy-preview";
import { policyView, usableDoc } from "./policy-view";

/** The `{target}` path segment (1..512 characters; `_default` is the fleet default). */
export function parseTarget(raw: string | undefined): string {
  const parsed = policyTarget.safeParse(raw ?? "");
  if (parsed.success) return parsed.data;
  const message = parsed.error.issues[0]?.message ?? "invalid target";
  throw new ApiError(400, "invalid_query", message, { issues: [{ path: ["target"], code: "invalid_target", message }] });
}

export async function getPolicy(target: string, revision?: number): Promise<PolicyResponse> {
  const read = await readPolicyWithDefault(etcdClient(), etcdPrefix(), target, revision);
  return { ...policyView(target, read.policy, read.defaultPolicy), revision: read.revision, read_at_ms: Date.now() };
}

function listEntry(p: StoredPolicy) {
  return { target: p.target, stored: p.doc, mod_revision: p.modRevision, stored_issue: usableDoc(p).issue };
}

export async function listPolicies(revision?: number): Promise<PolicyListResponse> {
  const all = await readAllPolicies(etcdClient(), etcdPrefix(), { revision });
  const fleetDefault = all.defaultPolicy ?? { target: DEFAULT_POLICY_TARGET, doc: null, modRevision: 0 };
  return { revision: all.revision, read_at_ms: Date.now(), default: listEntry(fleetDefault), tables: all.tables.map(listEntry), bad_keys: all.badKeys.length };
}

/** The headers a write carries besides If-Match. */
export interface WriteHeaders {
  reason: string | null;
  digest: string | null;
}

export function writeHeaders(request: Request): WriteHeaders {
  return { reason: request.headers.get("x-change-reason"), digest: request.headers.get("x-preview-digest") };
}

/** X-Change-Reason travels percent-encoded UTF-8 when it is not plain ASCII (header values are bytes). */
function decodeReason(raw: string): string {
  if (!/%[0-9a-f]{2}/i.test(raw)) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

function reasonIssues(raw: string | null): { reason: string | null; issues: PolicyIssue[] } {
  const parsed = changeReason.safeParse(raw === null ? "" : decodeReason(raw));
  if (parsed.success) return { reason: parsed.data, issues: [] };
  return { reason: null, issues: [{ path: "reason", message: parsed.error.issues[0]?.message ?? "invalid reason" }] };
}

function invalidPolicy(issues: PolicyIssue[]): ApiError {
  return new ApiError(422, "invalid_policy", issues.map((i) => `${i.path || "(document)"}: ${i.message}`).join("; "), { issues });
}

function conflict(target: string, current: StoredPolicy): ApiError {
  return new ApiError(
    412,
    "precondition_failed",
    `The policy of ${target} changed since you read it (now mod_revision ${current.modRevision}).`,
    { stored: current.modRevision === 0 ? null : current.doc, mod_revision: current.modRevision },
    { etag: String(current.modRevision) },
  );
}

/** 409 preview_stale when the effect of saving now differs from the reviewed one. */
async function checkDigest(target: string, doc: PolicyDocument | null, digest: string | null): Promise<void> {
  if (digest === null) return;
  const parsed = previewDigest.safeParse(digest.trim());
  if (!parsed.success) throw invalidPolicy([{ path: "digest", message: parsed.error.issues[0]?.message ?? "invalid digest" }]);
  const fresh: PreviewResponse = await previewFor(target, doc, Date.now());
  if (fresh.digest !== parsed.data) {
    throw new ApiError(409, "preview_stale", `The fleet moved since your preview: saving now would change it differently. Review the fresh preview and save again.`, { preview: fresh });
  }
}

export interface PolicyWriteRequest {
  target: string;
  /** the PUT body (undefined for DELETE) */
  body?: unknown;
  ifMatch: number;
  principal: Principal;
  headers: WriteHeaders;
}

/** PUT: validate (with the reason), check version, If-Match and digest, then one audited CAS txn. */
export async function savePolicy(req: PolicyWriteRequest): Promise<{ body: SavedPolicyResponse; etag: string }> {
  const { target } = req;
  const client = etcdClient();
  const prefix = etcdPrefix();
  const read = await readPolicyWithDefault(client, prefix, target);
  const isDefault = target === DEFAULT_POLICY_TARGET;
  const { reason, issues } = reasonIssues(req.headers.reason);
  const checked = validatePolicy(req.body, { defaultDoc: isDefault ? null : usableDoc(read.defaultPolicy).doc });
  const all = [...(checked.ok ? [] : checked.issues), ...issues];
  if (!checked.ok || reason === null) throw invalidPolicy(all);
  const doc: PolicyDocument = { ...checked.doc, v: POLICY_VERSION }; // stored documents always carry their version
  await precheck(target, read.policy, req.ifMatch, doc, req.headers.digest);
  const written = await writeOrConflict(target, doc, req, reason);
  const saved: StoredPolicy = { target, doc, modRevision: written.modRevision };
  const view = policyView(target, saved, isDefault ? saved : read.defaultPolicy);
  return { body: { ...view, revision: written.modRevision, read_at_ms: Date.now(), audit_id: written.auditId }, etag: String(written.modRevision) };
}

/** DELETE: remove a per-table override (never `_default`), with the same guards as PUT. */
export async function deletePolicy(req: PolicyWriteRequest): Promise<DeletedPolicyResponse> {
  const { target } = req;
  if (target === DEFAULT_POLICY_TARGET) throw new ApiError(400, "cannot_delete_default", "The fleet default (_default) cannot be deleted; edit it instead.");
  const { reason, issues } = reasonIssues(req.headers.reason);
  if (reason === null) throw invalidPolicy(issues);
  const read = await readPolicyWithDefault(etcdClient(), etcdPrefix(), target);
  await precheck(target, read.policy, req.ifMatch, null, req.headers.digest);
  const written = await writeOrConflict(target, null, req, reason);
  return { target, deleted: true, mod_revision: 0, revision: written.modRevision, audit_id: written.auditId };
}

/** If-Match against what is stored now (412), then the effect the admin reviewed (409). */
async function precheck(target: string, stored: StoredPolicy, ifMatch: number, doc: PolicyDocument | null, digest: string | null): Promise<void> {
  if (stored.modRevision !== ifMatch) throw conflict(target, stored);
  if (doc === null && stored.modRevision === 0) throw new ApiError(404, "not_found", `${target} has no policy override to delete.`, { stored: null, mod_revision: 0 }, { etag: "0" });
  await checkDigest(target, doc, digest);
}

async function writeOrConflict(target: string, doc: PolicyDocument | null, req: PolicyWriteRequest, reason: string) {
  const result = await writePolicy(etcdClient(), etcdPrefix(), { target, doc, expectedModRevision: req.ifMatch, actor: req.principal.actor, reason, nowMs: Date.now() });
  if (result.ok) return result;
  if (result.reason === "precondition_failed") throw conflict(target, result.current);
  const current = { stored: result.current.modRevision === 0 ? null : result.current.doc, mod_revision: result.current.modRevision };
  const etag = { etag: String(result.current.modRevision) };
  if (result.reason === "unsupported_version") throw new ApiError(409, "unsupported_version", result.message, current, etag);
  throw new ApiError(404, "not_found", `${target} has no policy override to delete.`, current, etag);
}

/** POST …/preview: validate the proposal like a PUT would (without the reason), then preview it. */
export async function previewProposal(target: string, body: unknown, nowMs: number): Promise<PreviewResponse> {
  const read = await readPolicyWithDefault(etcdClient(), etcdPrefix(), DEFAULT_POLICY_TARGET);
  const checked = validatePolicy(body, { defaultDoc: target === DEFAULT_POLICY_TARGET ? null : usableDoc(read.policy).doc });
  if (!checked.ok) throw invalidPolicy(checked.issues);
  return previewFor(target, checked.doc, nowMs);
}
