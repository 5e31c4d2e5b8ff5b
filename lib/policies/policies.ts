import "server-only";
// The policy endpoints' services (console-api.md "GET/PUT/DELETE /api/v1/policies/{target}"
// and Additions "Policy edits an admin can trust"). Access, same-origin, the body's type and
// size and If-Match are the wrapper's (lib/http/handler.ts); here: validation with the reason
// (422 invalid_policy, every issue at once), then the ordered write checks of
// ./write-checks.ts (412, 404, 422 no_change, 409 preview_stale), then one CAS txn writing
// the policy and its audit record (412 on a lost race, 409 on a newer stored version).
// Every refusal answers before anything is written.
import { etcdClient, etcdPrefix } from "@/lib/etcd/client";
import { readAllPolicies, readPolicyWithDefault, writePolicy, type StoredPolicy } from "./store";
import { validatePolicy, type PolicyIssue } from "@/lib/planner/policy";
import type { AllowingRule, Principal } from "@/lib/auth";
import { DEFAULT_POLICY_TARGET, POLICY_VERSION, type PolicyDocument } from "@/lib/schema/policy";
import {
  changeReasonSchema,
  policyTargetSchema,
  type DeletedPolicyResponse,
  type PolicyListResponse,
  type PolicyResponse,
  type PreviewResponse,
  type SavedPolicyResponse,
} from "@/lib/schema/api/policies";
import { ApiError } from "@/lib/schema/api/errors";
import { conflict, runWriteChecks } from "./write-checks";
import { previewFor } from "./preview";
import { checkTakeover, gateHeaders, NO_GATE_HEADERS, type GateAudit, type GateHeaders } from "@/lib/takeover/gates";
import { policyView, usableDoc } from "./view";

/** The `{target}` path segment (1..512 characters; `_default` is the fleet default). */
export function parseTarget(raw: string | undefined): string {
  const parsed = policyTargetSchema.safeParse(raw ?? "");
  if (parsed.success) return parsed.data;
  const message = parsed.error.issues[0]?.message ?? "invalid target";
  throw new ApiError(400, "invalid_query", message, {
    issues: [{ path: ["target"], code: "invalid_target", message }],
  });
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
  return {
    revision: all.revision,
    read_at_ms: Date.now(),
    default: listEntry(fleetDefault),
    tables: all.tables.map(listEntry),
    bad_keys: all.badKeys.length,
  };
}

/** The headers a write carries besides If-Match (the checks read the rest from `raw`). */
interface WriteHeaders {
  reason: string | null;
  raw: Headers;
  /** the takeover gate's headers (lib/takeover/gates.ts) */
  gate?: GateHeaders;
}

export function writeHeaders(request: Request): WriteHeaders {
  return { reason: request.headers.get("x-change-reason"), raw: request.headers, gate: gateHeaders(request) };
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
  const parsed = changeReasonSchema.safeParse(raw === null ? "" : decodeReason(raw));
  if (parsed.success) return { reason: parsed.data, issues: [] };
  return { reason: null, issues: [{ path: "reason", message: parsed.error.issues[0]?.message ?? "invalid reason" }] };
}

/** 422 invalid_policy with every issue of the request at once (console-api.md third version). */
function invalidPolicy(issues: PolicyIssue[]): ApiError {
  const message = `${issues.length === 1 ? "1 issue" : `${issues.length} issues`}: ${issues.map((i) => `${i.path || "(document)"} ${i.message}`).join("; ")}`;
  return new ApiError(422, "invalid_policy", message, { issues });
}

interface PolicyWriteRequest {
  target: string;
  /** the PUT body (undefined for DELETE) */
  body?: unknown;
  ifMatch: number;
  principal: Principal;
  /** the rule that allows this principal to write this target (lib/http's wrapper checked it; the audit records it) */
  rule: AllowingRule;
  headers: WriteHeaders;
}

/** PUT: validate (with the reason), run the write checks in order, then one audited CAS txn. */
export async function savePolicy(req: PolicyWriteRequest): Promise<{ body: SavedPolicyResponse; etag: string }> {
  const { target } = req;
  const read = await readPolicyWithDefault(etcdClient(), etcdPrefix(), target);
  const isDefault = target === DEFAULT_POLICY_TARGET;
  const { reason, issues } = reasonIssues(req.headers.reason);
  const checked = validatePolicy(req.body, { defaultDoc: isDefault ? null : usableDoc(read.defaultPolicy).doc });
  if (!checked.ok || reason === null) throw invalidPolicy([...(checked.ok ? [] : checked.issues), ...issues]);
  const doc: PolicyDocument = { ...checked.doc, v: POLICY_VERSION }; // stored documents always carry their version
  await runWriteChecks({
    target,
    action: "put",
    doc,
    stored: read.policy,
    ifMatch: req.ifMatch,
    principal: req.principal,
    rule: req.rule,
    headers: req.headers.raw,
  });
  const gate = await checkTakeover(target, usableDoc(read.policy).doc, doc, req.headers.gate ?? NO_GATE_HEADERS);
  const written = await writeOrConflict(target, doc, req, reason, gate);
  const saved: StoredPolicy = { target, doc, modRevision: written.modRevision };
  const view = policyView(target, saved, isDefault ? saved : read.defaultPolicy);
  return {
    body: { ...view, revision: written.modRevision, read_at_ms: Date.now(), audit_id: written.auditId },
    etag: String(written.modRevision),
  };
}

/** DELETE: remove a per-table override (never `_default`), with the same checks as PUT. */
export async function deletePolicy(req: PolicyWriteRequest): Promise<DeletedPolicyResponse> {
  const { target } = req;
  if (target === DEFAULT_POLICY_TARGET)
    throw new ApiError(
      400,
      "cannot_delete_default",
      "The fleet default (_default) cannot be deleted; edit it instead.",
    );
  const { reason, issues } = reasonIssues(req.headers.reason);
  if (reason === null) throw invalidPolicy(issues);
  const read = await readPolicyWithDefault(etcdClient(), etcdPrefix(), target);
  await runWriteChecks({
    target,
    action: "delete",
    doc: null,
    stored: read.policy,
    ifMatch: req.ifMatch,
    principal: req.principal,
    rule: req.rule,
    headers: req.headers.raw,
  });
  const written = await writeOrConflict(target, null, req, reason);
  return { target, deleted: true, mod_revision: 0, revision: written.modRevision, audit_id: written.auditId };
}

async function writeOrConflict(
  target: string,
  doc: PolicyDocument | null,
  req: PolicyWriteRequest,
  reason: string,
  gate: GateAudit = {},
) {
  const result = await writePolicy(etcdClient(), etcdPrefix(), {
    target,
    doc,
    expectedModRevision: req.ifMatch,
    actor: req.principal.actor,
    reason,
    nowMs: Date.now(),
    auditExtra: { ...gate, rule: req.rule },
  });
  if (result.ok) return result;
  if (result.reason === "precondition_failed") throw conflict(target, result.current);
  const current = {
    stored: result.current.modRevision === 0 ? null : result.current.doc,
    mod_revision: result.current.modRevision,
  };
  const etag = { etag: String(result.current.modRevision) };
  if (result.reason === "unsupported_version")
    throw new ApiError(409, "unsupported_version", result.message, current, etag);
  throw new ApiError(404, "not_found", `${target} has no policy override to delete.`, current, etag);
}

/** POST …/preview: validate the proposal like a PUT would (without the reason), then preview it. */
export async function previewProposal(target: string, body: unknown, nowMs: number): Promise<PreviewResponse> {
  const read = await readPolicyWithDefault(etcdClient(), etcdPrefix(), DEFAULT_POLICY_TARGET);
  const checked = validatePolicy(body, {
    defaultDoc: target === DEFAULT_POLICY_TARGET ? null : usableDoc(read.policy).doc,
  });
  if (!checked.ok) throw invalidPolicy(checked.issues);
  return previewFor(target, checked.doc, nowMs);
}
