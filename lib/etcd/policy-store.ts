import "server-only";
// Guarded policy writes, scheduler-model.md §7.3 and console-api.md "PUT /api/v1/policies":
// the etcd half. The policy and its audit record are written by ONE txn that compares the
// policy key's mod_revision with the value the editor read (If-Match; 0 = must not exist).
// The console writes only under `P/policies/` and `P/console/`. What a stored record means
// (decoding, the refusals, the audit record and its filters) is lib/policies/store.ts.
import type { EtcdClient } from "./client";
import { raw } from "./raw";
import { auditIdOf, auditTimeKey, compactProbeKey, KEY_DIRS, keySuffix, policyKeys, unhex } from "@/lib/schema/keys";
import { DEFAULT_POLICY_TARGET } from "@/lib/schema/policy";
import { toEtcdError } from "./errors";
import { prefixRangeEnd, rangeError, readPrefixPaged } from "./paged-read";

/** One policy key as read: its bytes (null when absent) and mod_revision (0 when absent). */
export interface PolicyRecord {
  target: string;
  value: Buffer | null;
  modRevision: number;
}

const record = (target: string, kv: { value: Buffer; mod_revision: string } | undefined): PolicyRecord =>
  kv ? { target, value: kv.value, modRevision: Number(kv.mod_revision) } : { target, value: null, modRevision: 0 };

/** The stored record of `target` (or `_default`), and the read revision. */
export async function readPolicyRecord(
  etcd: EtcdClient,
  prefix: string,
  target: string,
): Promise<PolicyRecord & { revision: number }> {
  const client = raw(etcd);
  try {
    const res = await client.kv.range({ key: Buffer.from(policyKeys.policy(prefix, target)) });
    return { ...record(target, res.kvs[0]), revision: Number(res.header.revision) };
  } catch (e) {
    throw toEtcdError(e, "read policy");
  }
}

/**
 * A table's record and `_default`'s, read together at one revision: the current one (one
 * txn of two ranges), or `revision` when pinned (console-api.md: a policy shows the
 * document stored at R).
 */
export async function readPolicyRecordWithDefault(
  etcd: EtcdClient,
  prefix: string,
  target: string,
  revision?: number,
): Promise<{ revision: number; policy: PolicyRecord; defaultPolicy: PolicyRecord }> {
  const client = raw(etcd);
  const key = Buffer.from(policyKeys.policy(prefix, target));
  const defaultKey = Buffer.from(policyKeys.policy(prefix, DEFAULT_POLICY_TARGET));
  try {
    let kv, dkv, at: number;
    if (revision === undefined) {
      const res = await client.kv.txn({
        compare: [],
        success: [{ request_range: { key } }, { request_range: { key: defaultKey } }],
        failure: [],
      });
      kv = res.responses[0]?.response_range?.kvs[0];
      dkv = res.responses[1]?.response_range?.kvs[0];
      at = Number(res.header.revision);
    } else {
      const [own, fleet] = await Promise.all([
        client.kv.range({ key, revision: String(revision) }),
        client.kv.range({ key: defaultKey, revision: String(revision) }),
      ]);
      kv = own.kvs[0];
      dkv = fleet.kvs[0];
      at = revision;
    }
    return { revision: at, policy: record(target, kv), defaultPolicy: record(DEFAULT_POLICY_TARGET, dkv) };
  } catch (e) {
    throw await rangeError(client, e, revision, "read policy", compactProbeKey(prefix));
  }
}

/** Every stored policy record at one revision: `_default` and the per-table overrides (target-sorted). */
export async function readAllPolicyRecords(
  etcd: EtcdClient,
  prefix: string,
  opts: { revision?: number } = {},
): Promise<{ revision: number; defaultPolicy: PolicyRecord | null; tables: PolicyRecord[]; badKeys: string[] }> {
  const client = raw(etcd);
  const base = policyKeys.policies(prefix);
  const { kvs, revision } = await readPrefixPaged(client, base, { revision: opts.revision });
  let defaultPolicy: PolicyRecord | null = null;
  const tables: PolicyRecord[] = [];
  const badKeys: string[] = [];
  for (const kv of kvs) {
    const suffix = keySuffix(prefix, KEY_DIRS.policies, kv.key);
    if (suffix === DEFAULT_POLICY_TARGET) {
      defaultPolicy = { target: DEFAULT_POLICY_TARGET, value: kv.value, modRevision: kv.modRevision };
      continue;
    }
    const target = unhex(suffix);
    if (target === null) badKeys.push(kv.key);
    else tables.push({ target, value: kv.value, modRevision: kv.modRevision });
  }
  tables.sort((a, b) => (a.target < b.target ? -1 : a.target > b.target ? 1 : 0));
  return { revision, defaultPolicy, tables, badKeys };
}

/** One guarded write: the policy's new bytes (null = delete) and the audit record beside it. */
export interface PolicyTxn {
  target: string;
  value: string | null;
  /** If-Match: the mod_revision the editor read (0 = must not exist) */
  expectedModRevision: number;
  auditId: string;
  auditValue: string;
}

/**
 * PUT (value) or DELETE (value = null) one policy and append its audit record, atomically.
 * Nothing is written unless the policy key's mod_revision still equals `expectedModRevision`;
 * then `current` is what is stored now.
 */
export async function commitPolicy(
  etcd: EtcdClient,
  prefix: string,
  txn: PolicyTxn,
): Promise<{ ok: true; modRevision: number } | { ok: false; current: PolicyRecord }> {
  const client = raw(etcd);
  const key = Buffer.from(policyKeys.policy(prefix, txn.target));
  const auditPut = {
    request_put: { key: Buffer.from(policyKeys.auditEntry(prefix, txn.auditId)), value: Buffer.from(txn.auditValue) },
  };
  const policyOp =
    txn.value === null ? { request_delete_range: { key } } : { request_put: { key, value: Buffer.from(txn.value) } };
  try {
    const res = await client.kv.txn({
      compare: [{ key, target: "Mod", result: "Equal", mod_revision: String(txn.expectedModRevision) }],
      success: [policyOp, auditPut],
      failure: [{ request_range: { key } }],
    });
    if (res.succeeded) return { ok: true, modRevision: Number(res.header.revision) };
    return { ok: false, current: record(txn.target, res.responses[0]?.response_range?.kvs[0]) };
  } catch (e) {
    throw toEtcdError(e, "write policy");
  }
}

const AUDIT_PAGE = 256;
const AUDIT_SCAN_LIMIT = 4096;

/** What an audit listing asks of the log: the key range (by write time), the page, and which records it keeps. */
export interface AuditScan<T extends { id: string }> {
  limit: number;
  cursor?: string;
  revision?: number;
  /** inclusive bounds on the write time */
  from_ms?: number;
  to_ms?: number;
  /** true when `keep` drops records: pages of AUDIT_PAGE are scanned, at most AUDIT_SCAN_LIMIT per call */
  filtered: boolean;
  /** the kept entry of one record, or null */
  keep: (id: string, value: Buffer, modRevision: number) => T | null;
}

/**
 * Audit entries newest first, as `scan.keep` makes them. `cursor` = the id of the last entry
 * of the previous page. Ids start with the zero-padded write time, so `to_ms` and `from_ms`
 * bound the key range itself; a filtered scan reads at most AUDIT_SCAN_LIMIT records per
 * call and returns a cursor to continue from when it stopped early.
 */
export async function scanAudit<T extends { id: string }>(
  etcd: EtcdClient,
  prefix: string,
  opts: AuditScan<T>,
): Promise<{ revision: number; entries: T[]; next_cursor: string | null }> {
  const client = raw(etcd);
  const base = policyKeys.audit(prefix);
  // newest first: start below the cursor, or below the first id after to_ms
  const starts = [
    opts.cursor !== undefined ? policyKeys.auditEntry(prefix, opts.cursor) : null,
    opts.to_ms !== undefined ? policyKeys.auditEntry(prefix, auditTimeKey(opts.to_ms + 1)) : null,
  ].filter((k): k is string => k !== null);
  let end = starts.length > 0 ? Buffer.from(starts.sort()[0]) : prefixRangeEnd(Buffer.from(base));
  const floor = Buffer.from(
    opts.from_ms !== undefined ? policyKeys.auditEntry(prefix, auditTimeKey(opts.from_ms)) : base,
  );
  const entries: T[] = [];
  let scanned = 0;
  // pinned: the log as it stood at R (entries up to R); live: one revision for every page
  let revision: number | undefined = opts.revision;
  for (;;) {
    const want = opts.filtered ? AUDIT_PAGE : opts.limit - entries.length + 1;
    let res;
    try {
      res = await client.kv.range({
        key: floor,
        range_end: end,
        limit: want,
        sort_order: "Descend",
        sort_target: "Key",
        revision: revision === undefined ? undefined : String(revision),
      });
    } catch (e) {
      throw await rangeError(client, e, revision, "read audit", compactProbeKey(prefix));
    }
    revision ??= Number(res.header.revision);
    for (const kv of res.kvs) {
      const id = auditIdOf(prefix, kv.key.toString("utf8"));
      end = kv.key;
      scanned++;
      const entry = opts.keep(id, kv.value, Number(kv.mod_revision));
      if (!entry) continue;
      if (entries.length === opts.limit) return { revision, entries, next_cursor: entries[entries.length - 1].id };
      entries.push(entry);
    }
    if (!res.more || res.kvs.length === 0) return { revision, entries, next_cursor: null };
    // stopped early: continue below the last key scanned (range ends are exclusive)
    if (scanned >= AUDIT_SCAN_LIMIT) return { revision, entries, next_cursor: auditIdOf(prefix, end.toString("utf8")) };
  }
}
