// Policies (console-api.md `/api/v1/policies`): keys + fetchers for the list and one
// policy (both honour the pinned revision), the preview, and the guarded writes, which
// carry If-Match, X-Change-Reason and X-Preview-Digest (Additions "Policy edits an admin can trust").
import type {
  DeletedPolicyResponse,
  PolicyListResponse,
  PolicyResponse,
  PreviewResponse,
  SavedPolicyResponse,
} from "@/lib/schema/api/policies";
import type { PolicyDocument } from "@/lib/schema/policy";
import { targetPath } from "../api-core";
import { fetchJson, sendJson } from "../fetch-json";
import { evidenceHeader } from "./evidence";

const LIST = "/api/v1/policies";
const policyPath = (target: string) => targetPath(LIST, target);

export const policyKeys = {
  all: ["policies"] as const,
  list: (revision: number | null) => ["policies", "list", revision ?? "live"] as const,
  one: (target: string, revision: number | null) => ["policies", "one", target, revision ?? "live"] as const,
};

export function fetchPolicyList(revision: number | null, signal?: AbortSignal): Promise<PolicyListResponse> {
  return fetchJson<PolicyListResponse>(LIST, { revision }, signal);
}

export function fetchPolicy(target: string, revision: number | null, signal?: AbortSignal): Promise<PolicyResponse> {
  return fetchJson<PolicyResponse>(policyPath(target), { revision }, signal);
}

export function previewPolicy(target: string, doc: PolicyDocument): Promise<PreviewResponse> {
  return sendJson<PreviewResponse>("POST", `${policyPath(target)}/preview`, { body: doc });
}

/** What a guarded write sends besides the document. */
export interface WriteGuard {
  /** the mod_revision the editor started from (If-Match) */
  ifMatch: number;
  reason: string;
  /** the digest of the preview the admin reviewed */
  digest: string;
  /** takeover gates the admin overrides, with the second reason (X-Override-Gates, X-Override-Reason) */
  override?: { gates: readonly string[]; reason: string };
}

/** Header values are bytes: the reason travels percent-encoded UTF-8 (the server decodes it). */
const guardHeaders = (g: WriteGuard) => ({
  "if-match": String(g.ifMatch),
  "x-change-reason": encodeURIComponent(g.reason),
  "x-preview-digest": g.digest,
  ...evidenceHeader(),
  ...(g.override && g.override.gates.length > 0
    ? { "x-override-gates": g.override.gates.join(","), "x-override-reason": encodeURIComponent(g.override.reason) }
    : {}),
});

export function savePolicy(target: string, doc: PolicyDocument, guard: WriteGuard): Promise<SavedPolicyResponse> {
  return sendJson<SavedPolicyResponse>("PUT", policyPath(target), { body: doc, headers: guardHeaders(guard) });
}

export function deletePolicy(target: string, guard: WriteGuard): Promise<DeletedPolicyResponse> {
  return sendJson<DeletedPolicyResponse>("DELETE", policyPath(target), { headers: guardHeaders(guard) });
}
