import "server-only";
// Guarded policy writes, scheduler-model.md §7.3 and console-api.md "PUT /api/v1/policies":
// the policy and its audit record are written by ONE txn that compares the policy key's
// mod_revision with the value the editor read (If-Match; 0 = must not exist). The console
// writes only under `P/policies/` and `P/console/`.
import { randomBytes } from "node:crypto";
import type { Etcd3 } from "etcd3";
import { hex, unhex } from "@/lib/schema/keys";
import { DEFAULT_POLICY_TARGET, foreignPolicyVersion, type PolicyDocument } from "@/lib/schema/policy";
import { toEtcdError } from "./errors";
import { compactProbeKey } from "./compaction";
import { prefixRangeEnd, rangeError, readPrefixPaged } from "./paged-read";

export const policyKeys = {
  policies: (p: string) => `${p}/policies/`,
  policy: (p: string, target: string) => `${p}/policies/${target === DEFAULT_POLICY_TARGET ? DEFAULT_POLICY_TARGET : hex(target)}`,
  audit: (p: string) => `${p}/console/audit/`,
};

/** One stored policy record as read: `doc` is the decoded JSON (not validated), or null. */
export interface StoredPolicy {
  target: string;
  /** decoded JSON value; null when absent or not JSON */
  doc: unknown;
  /** 0 when the key does not exist */
  modRevision: number;
  /** set when the stored bytes are not JSON */
  badJson?: string;
}

function decode(target: string, value: Buffer | null | undefined, modRevision: number): StoredPolicy {
  if (!value) return { target, doc: null, modRevision: 0 };
  try {
    return { target, doc: JSON.parse(value.toString("utf8")), modRevision };
  } catch (e) {
    return { target, doc: null, modRevision, badJson: (e as Error).message };
  }
}

/** The stored document of `target` (or `_default`) with its mod_revision, and the read revision. */
export async function readPolicy(client: Etcd3, prefix: string, target: string): Promise<StoredPolicy & { revision: number }> {
  try {
    const res = await client.kv.range({ key: Buffer.from(policyKeys.policy(prefix, target)) });
    const kv = res.kvs[0];
    return { ...decode(target, kv?.value, Number(kv?.mod_revision ?? 0)), revision: Number(res.header.revision) };
  } catch (e) {
    throw toEtcdError(e, "read policy");
  }
}

/**
 * A table's document and `_default`, read together at one revision: the current one (one
 * txn of two ranges), or `revision` when pinned (console-api.md: a policy shows the
 * document stored at R).
 */
export async function readPolicyWithDefault(
  client: Etcd3,
  prefix: string,
  target: string,
  revision?: number,
): Promise<{ revision: number; policy: StoredPolicy; defaultPolicy: StoredPolicy }> {
  const key = Buffer.from(policyKeys.policy(prefix, target));
  const defaultKey = Buffer.from(policyKeys.policy(prefix, DEFAULT_POLICY_TARGET));
  try {
    let kv, dkv, at: number;
    if (revision === undefined) {
      const res = await client.kv.txn({ compare: [], success: [{ request_range: { key } }, { request_range: { key: defaultKey } }], failure: [] });
      kv = res.responses[0]?.response_range?.kvs[0];
      dkv = res.responses[1]?.response_range?.kvs[0];
      at = Number(res.header.revision);
    } else {
      const [own, fleet] = await Promise.all([client.kv.range({ key, revision: String(revision) }), client.kv.range({ key: defaultKey, revision: String(revision) })]);
      kv = own.kvs[0];
      dkv = fleet.kvs[0];
      at = revision;
    }
    return {
      revision: at,
      policy: decode(target, kv?.value, Number(kv?.mod_revision ?? 0)),
      defaultPolicy: decode(DEFAULT_POLICY_TARGET, dkv?.value, Number(dkv?.mod_revision ?? 0)),
    };
  } catch (e) {
    throw await rangeError(client, e, revision, "read policy", compactProbeKey(prefix));
  }
}

/** Every stored policy at one revision: `_default` and the per-table overrides (target-sorted). */
export async function readAllPolicies(
  client: Etcd3,
  prefix: string,
  opts: { revision?: number } = {},
): Promise<{ revision: number; defaultPolicy: StoredPolicy | null; tables: StoredPolicy[]; badKeys: string[] }> {
  const base = policyKeys.policies(prefix);
  const { kvs, revision } = await readPrefixPaged(client, base, { revision: opts.revision });
  let defaultPolicy: StoredPolicy | null = null;
  const tables: StoredPolicy[] = [];
  const badKeys: string[] = [];
  for (const kv of kvs) {
    const suffix = kv.key.slice(base.length);
    if (suffix === DEFAULT_POLICY_TARGET) {
      defaultPolicy = decode(DEFAULT_POLICY_TARGET, kv.value, kv.modRevision);
      continue;
    }
    const target = unhex(suffix);
    if (target === null) badKeys.push(kv.key);
    else tables.push(decode(target, kv.value, kv.modRevision));
  }
  tables.sort((a, b) => (a.target < b.target ? -1 : a.target > b.target ? 1 : 0));
  return { revision, defaultPolicy, tables, badKeys };
}

export interface PolicyWrite {
  target: string;
  /** the validated document to store, or null to delete the override */
  doc: PolicyDocument | null;
  /** If-Match: the mod_revision the editor read (0 = must not exist) */
  expectedModRevision: number;
  actor: string;
  /** X-Change-Reason, kept in the audit record (console-api.md Additions) */
  reason: string;
  nowMs: number;
}

export type PolicyWriteResult =
  | { ok: true; modRevision: number; auditId: string }
  /** someone else changed it first; `current` is what is stored now */
  | { ok: false; reason: "precondition_failed"; current: StoredPolicy }
  /** the stored document has a newer `v`: never overwritten (§7.3) */
  | { ok: false; reason: "unsupported_version"; current: StoredPolicy; message: string }
  /** DELETE of an override that does not exist */
  | { ok: false; reason: "not_found"; current: StoredPolicy };

/** A time-ordered audit id: zero-padded milliseconds, then random bits for same-ms writes. */
export function auditId(nowMs: number): string {
  return `${String(Math.max(0, Math.floor(nowMs))).padStart(15, "0")}-${randomBytes(6).toString("hex")}`;
}

/**
 * PUT (doc) or DELETE (doc = null) one policy and append its audit record, atomically.
 * Nothing is written unless the policy key's mod_revision still equals the one read.
 */
export async function writePolicy(client: Etcd3, prefix: string, write: PolicyWrite): Promise<PolicyWriteResult> {
  const key = Buffer.from(policyKeys.policy(prefix, write.target));
  const before = await readPolicy(client, prefix, write.target);
  const current: StoredPolicy = { target: before.target, doc: before.doc, modRevision: before.modRevision, badJson: before.badJson };
  if (before.modRevision !== write.expectedModRevision) return { ok: false, reason: "precondition_failed", current };
  // §7.3: a document written with another `v` (a newer console) is never overwritten or deleted
  const foreign = before.modRevision === 0 ? undefined : foreignPolicyVersion(before.doc);
  if (foreign !== undefined) {
    return { ok: false, reason: "unsupported_version", current, message: `the stored policy of ${write.target} has unsupported version ${JSON.stringify(foreign)}; it was written by a newer console and is never overwritten` };
  }
  if (write.doc === null && before.modRevision === 0) return { ok: false, reason: "not_found", current };

  const id = auditId(write.nowMs);
  const audit = {
    at_ms: write.nowMs,
    actor: write.actor,
    target: write.target,
    before: before.doc,
    after: write.doc,
    reason: write.reason,
    previous_mod_revision: before.modRevision,
  };
  const auditPut = { request_put: { key: Buffer.from(`${policyKeys.audit(prefix)}${id}`), value: Buffer.from(JSON.stringify(audit)) } };
  const policyOp =
    write.doc === null
      ? { request_delete_range: { key } }
      : { request_put: { key, value: Buffer.from(JSON.stringify(write.doc)) } };
  try {
    const res = await client.kv.txn({
      compare: [{ key, target: "Mod", result: "Equal", mod_revision: String(write.expectedModRevision) }],
      success: [policyOp, auditPut],
      failure: [{ request_range: { key } }],
    });
    if (res.succeeded) return { ok: true, modRevision: Number(res.header.revision), auditId: id };
    const kv = res.responses[0]?.response_range?.kvs[0];
    return { ok: false, reason: "precondition_failed", current: decode(write.target, kv?.value, Number(kv?.mod_revision ?? 0)) };
  } catch (e) {
    throw toEtcdError(e, "write policy");
  }
}

/** An audit entry as console-api.md lists it; `mod_revision` is the txn's revision. */
export interface AuditEntry {
  id: string;
  at_ms: number;
  actor: string;
  target: string;
  before: unknown;
  after: unknown;
  /** why the admin made the change (absent on records written before reasons were required) */
  reason: string | null;
  mod_revision: number;
}

const AUDIT_CURSOR = /^[\w.-]{1,128}$/;
const AUDIT_PAGE = 256;
const AUDIT_SCAN_LIMIT = 4096;

export function isAuditCursor(cursor: string): boolean {
  return AUDIT_CURSOR.test(cursor);
}

function auditEntry(id: string, value: Buffer, modRevision: number): AuditEntry | null {
  try {
    const v = JSON.parse(value.toString("utf8")) as Record<string, unknown>;
    if (typeof v.at_ms !== "number" || typeof v.actor !== "string" || typeof v.target !== "string") return null;
    const reason = typeof v.reason === "string" ? v.reason : null;
    return { id, at_ms: v.at_ms, actor: v.actor, target: v.target, before: v.before ?? null, after: v.after ?? null, reason, mod_revision: modRevision };
  } catch {
    return null;
  }
}

/**
 * Audit entries newest first, optionally of one target. `cursor` = the id of the last entry
 * of the previous page. A target filter scans at most AUDIT_SCAN_LIMIT records per call and
 * returns a cursor to continue from when it stopped early.
 */
export async function listAudit(
  client: Etcd3,
  prefix: string,
  opts: { target?: string; limit: number; cursor?: string; revision?: number },
): Promise<{ revision: number; entries: AuditEntry[]; next_cursor: string | null }> {
  const base = policyKeys.audit(prefix);
  let end = opts.cursor ? Buffer.from(`${base}${opts.cursor}`) : prefixRangeEnd(Buffer.from(base));
  const entries: AuditEntry[] = [];
  let scanned = 0;
  // pinned: the log as it stood at R (entries up to R); live: one revision for every page
  let revision: number | undefined = opts.revision;
  for (;;) {
    const want = opts.target === undefined ? opts.limit - entries.length + 1 : AUDIT_PAGE;
    let res;
    try {
      res = await client.kv.range({ key: Buffer.from(base), range_end: end, limit: want, sort_order: "Descend", sort_target: "Key", revision: revision === undefined ? undefined : String(revision) });
    } catch (e) {
      throw await rangeError(client, e, revision, "read audit", compactProbeKey(prefix));
    }
    revision ??= Number(res.header.revision);
    for (const kv of res.kvs) {
      const id = kv.key.toString("utf8").slice(base.length);
      end = kv.key;
      scanned++;
      const entry = auditEntry(id, kv.value, Number(kv.mod_revision));
      if (!entry || (opts.target !== undefined && entry.target !== opts.target)) continue;
      if (entries.length === opts.limit) return { revision, entries, next_cursor: entries[entries.length - 1].id };
      entries.push(entry);
    }
    if (!res.more || res.kvs.length === 0) return { revision, entries, next_cursor: null };
    // stopped early: continue below the last key scanned (range ends are exclusive)
    if (scanned >= AUDIT_SCAN_LIMIT) return { revision, entries, next_cursor: end.toString("utf8").slice(base.length) };
  }
}
