// Shared pieces of the policy integration tests: a console with tokens on its own prefix,
// HTTP helpers, and a fingerprint of everything the console may write.
import type { Etcd3 } from "etcd3";

export interface Call {
  token?: string;
  cookie?: string;
  body?: unknown;
  rawBody?: string;
  contentType?: string;
  ifMatch?: string | number;
  /** X-Change-Reason of a PUT/DELETE: a default one when undefined, none when null */
  reason?: string | null;
  headers?: Record<string, string>;
}

export const DEFAULT_REASON = "integration test: exercising the policy API";

export interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

export async function call(base: string, method: string, path: string, c: Call = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...c.headers };
  if (c.token) headers.authorization = `Bearer ${c.token}`;
  if (c.cookie) headers.cookie = c.cookie;
  if (c.ifMatch !== undefined) headers["if-match"] = String(c.ifMatch);
  const reason = c.reason === undefined ? DEFAULT_REASON : c.reason;
  if ((method === "PUT" || method === "DELETE") && reason !== null) headers["x-change-reason"] = reason;
  let body: string | undefined;
  if (c.rawBody !== undefined) body = c.rawBody;
  else if (c.body !== undefined) body = JSON.stringify(c.body);
  if (body !== undefined) headers["content-type"] = c.contentType ?? "application/json";
  const res = await fetch(`${base}${path}`, { method, headers, body, redirect: "manual" });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON */
  }
  return { status: res.status, headers: res.headers, body: parsed };
}

export const policyPath = (target: string) => `/api/v1/policies/${encodeURIComponent(target)}`;

/** `key@mod_revision` of every key under the console's write prefixes (policies, audit). */
export async function writtenFingerprint(client: Etcd3, prefix: string): Promise<string> {
  const out: string[] = [];
  for (const p of [`${prefix}/policies/`, `${prefix}/console/audit/`]) {
    const res = await client.getAll().prefix(p).exec();
    for (const kv of res.kvs) out.push(`${kv.key.toString()}@${kv.mod_revision}`);
  }
  return out.join("\n");
}

export async function auditRecords(client: Etcd3, prefix: string): Promise<Record<string, unknown>[]> {
  const res = await client.getAll().prefix(`${prefix}/console/audit/`).exec();
  return res.kvs.map((kv) => JSON.parse(kv.value.toString()) as Record<string, unknown>);
}
