// Browser-side calls of the policy and audit endpoints (console-api.md). Mutations answer a
// typed outcome instead of throwing, because 412 / 422 are part of the editing flow.
import type { PolicyDocument } from "@/lib/schema/policy";
import type { EffectivePolicy } from "@/lib/schema/policy";

export type FieldSource = "builtin" | "default" | "table";

export interface PolicyResponse {
  target: string;
  effective: EffectivePolicy;
  stored: unknown;
  sources: { builtin: true; default: boolean; table: boolean; fields: Record<string, FieldSource> };
  mod_revision: number;
  default_stored: unknown;
  default_mod_revision: number;
  stored_issue: { reason: string; detail: string } | null;
  default_issue: { reason: string; detail: string } | null;
  revision: number;
}

export interface PolicyListEntry {
  target: string;
  stored: unknown;
  mod_revision: number;
  stored_issue: { reason: string; detail: string } | null;
}

export interface PolicyList {
  revision: number;
  default: PolicyListEntry;
  tables: PolicyListEntry[];
}

export interface PreviewRow {
  target: string;
  before: { class: string; score: number | "infinity" | null; verdict: unknown };
  after: { class: string; score: number | "infinity" | null; verdict: unknown };
}

export interface PreviewResult {
  revision: number;
  changed: PreviewRow[];
  unchanged_count: number;
}

// the server's own type (a type-only import: nothing of lib/etcd reaches the browser)
import type { AuditEntry } from "@/lib/etcd/policy-store";
export type { AuditEntry };

export interface ErrorBody {
  code: string;
  message: string;
  issues?: { path: string; message: string }[];
  stored?: unknown;
  mod_revision?: number;
}

export type Outcome<T> = { ok: true; body: T } | { ok: false; status: number; error: ErrorBody };

const policyPath = (target: string) => `/api/v1/policies/${encodeURIComponent(target)}`;

async function call<T>(url: string, init: RequestInit = {}): Promise<Outcome<T>> {
  const res = await fetch(url, { cache: "no-store", credentials: "same-origin", ...init, headers: { accept: "application/json", ...init.headers } });
  let body: unknown = null;
  try {
    body = await res.json();
  } catch {
    body = null;
  }
  if (res.ok) return { ok: true, body: body as T };
  const error = (body as { error?: ErrorBody } | null)?.error ?? { code: `http_${res.status}`, message: `HTTP ${res.status}` };
  return { ok: false, status: res.status, error };
}

async function must<T>(outcome: Promise<Outcome<T>>): Promise<T> {
  const o = await outcome;
  if (!o.ok) throw new Error(`${o.error.code}: ${o.error.message}`);
  return o.body;
}

export const policyQueryKeys = {
  all: ["policies"] as const,
  list: () => ["policies", "list"] as const,
  one: (target: string) => ["policies", "one", target] as const,
  audit: (target: string | null) => ["audit", target ?? ""] as const,
};

export const fetchPolicy = (target: string) => must(call<PolicyResponse>(policyPath(target)));
export const fetchPolicyList = () => must(call<PolicyList>("/api/v1/policies"));
export const fetchAudit = (params: { target?: string | null; cursor?: string | null; limit?: number }) => {
  const q = new URLSearchParams();
  if (params.target) q.set("target", params.target);
  if (params.cursor) q.set("cursor", params.cursor);
  q.set("limit", String(params.limit ?? 50));
  return must(call<{ entries: AuditEntry[]; next_cursor: string | null }>(`/api/v1/audit?${q}`));
};

const jsonInit = (method: string, body: unknown, ifMatch?: number): RequestInit => ({
  method,
  body: body === undefined ? undefined : JSON.stringify(body),
  headers: { "content-type": "application/json", ...(ifMatch === undefined ? {} : { "if-match": String(ifMatch) }) },
});

export const savePolicy = (target: string, doc: PolicyDocument, ifMatch: number) =>
  call<PolicyResponse>(policyPath(target), jsonInit("PUT", doc, ifMatch));

export const deletePolicy = (target: string, ifMatch: number) =>
  call<{ deleted: true; revision: number }>(policyPath(target), { method: "DELETE", headers: { "if-match": String(ifMatch) } });

export const previewPolicy = (target: string, doc: PolicyDocument) =>
  call<PreviewResult>(`${policyPath(target)}/preview`, jsonInit("POST", doc));
