import "server-only";
// The policy store's domain half (scheduler-model.md §7.3, console-api.md "PUT
// /api/v1/policies" and the audit log): what a stored policy record means, when a write is
// refused, and the audit record written beside it (the log is read by audit.ts). The etcd
// half (the reads, the one CAS txn, the audit scan) is lib/etcd/policy-store.ts.
import { randomBytes } from "node:crypto";
import type { etcdClient } from "@/lib/etcd/client";
import {
  commitPolicy,
  readAllPolicyRecords,
  readPolicyRecord,
  readPolicyRecordWithDefault,
  type PolicyRecord,
} from "@/lib/etcd/policy-store";
import { auditTimeKey } from "@/lib/schema/keys";
import { foreignPolicyVersion, type PolicyDocument } from "@/lib/schema/policy";

type Client = ReturnType<typeof etcdClient>;

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

function decode({ target, value, modRevision }: PolicyRecord): StoredPolicy {
  if (!value) return { target, doc: null, modRevision: 0 };
  try {
    return { target, doc: JSON.parse(value.toString("utf8")), modRevision };
  } catch (e) {
    return { target, doc: null, modRevision, badJson: (e as Error).message };
  }
}

/** The stored document of `target` (or `_default`) with its mod_revision, and the read revision. */
async function readPolicy(
  client: Client,
  prefix: string,
  target: string,
): Promise<StoredPolicy & { revision: number }> {
  const read = await readPolicyRecord(client, prefix, target);
  return { ...decode(read), revision: read.revision };
}

/**
 * A table's document and `_default`, read together at one revision: the current one, or
 * `revision` when pinned (console-api.md: a policy shows the document stored at R).
 */
export async function readPolicyWithDefault(
  client: Client,
  prefix: string,
  target: string,
  revision?: number,
): Promise<{ revision: number; policy: StoredPolicy; defaultPolicy: StoredPolicy }> {
  const read = await readPolicyRecordWithDefault(client, prefix, target, revision);
  return { revision: read.revision, policy: decode(read.policy), defaultPolicy: decode(read.defaultPolicy) };
}

/** Every stored policy at one revision: `_default` and the per-table overrides (target-sorted). */
export async function readAllPolicies(
  client: Client,
  prefix: string,
  opts: { revision?: number } = {},
): Promise<{ revision: number; defaultPolicy: StoredPolicy | null; tables: StoredPolicy[]; badKeys: string[] }> {
  const read = await readAllPolicyRecords(client, prefix, opts);
  return {
    revision: read.revision,
    defaultPolicy: read.defaultPolicy === null ? null : decode(read.defaultPolicy),
    tables: read.tables.map(decode),
    badKeys: read.badKeys,
  };
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
  /** more fields of the audit record (the takeover gate's overrides) */
  auditExtra?: Record<string, unknown>;
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
function auditId(nowMs: number): string {
  return `${auditTimeKey(nowMs)}-${randomBytes(6).toString("hex")}`;
}

/**
 * PUT (doc) or DELETE (doc = null) one policy and append its audit record, atomically.
 * Nothing is written unless the policy key's mod_revision still equals the one read.
 */
export async function writePolicy(client: Client, prefix: string, write: PolicyWrite): Promise<PolicyWriteResult> {
  const before = await readPolicy(client, prefix, write.target);
  const current: StoredPolicy = {
    target: before.target,
    doc: before.doc,
    modRevision: before.modRevision,
    badJson: before.badJson,
  };
  if (before.modRevision !== write.expectedModRevision) return { ok: false, reason: "precondition_failed", current };
  // §7.3: a document written with another `v` (a newer console) is never overwritten or deleted
  const foreign = before.modRevision === 0 ? undefined : foreignPolicyVersion(before.doc);
  if (foreign !== undefined) {
    return {
      ok: false,
      reason: "unsupported_version",
      current,
      message: `the stored policy of ${write.target} has unsupported version ${JSON.stringify(foreign)}; it was written by a newer console and is never overwritten`,
    };
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
    ...write.auditExtra,
  };
  const res = await commitPolicy(client, prefix, {
    target: write.target,
    value: write.doc === null ? null : JSON.stringify(write.doc),
    expectedModRevision: write.expectedModRevision,
    auditId: id,
    auditValue: JSON.stringify(audit),
  });
  if (res.ok) return { ok: true, modRevision: res.modRevision, auditId: id };
  return { ok: false, reason: "precondition_failed", current: decode(res.current) };
}
