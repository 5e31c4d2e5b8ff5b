import "server-only";
import type { EtcdClient } from "./client";
import { raw } from "./raw";
// Compare-and-swap on one key (§3.5 publishers, policy writes): put only if the key's
// mod_revision is still `expectedModRevision` (0 = the key must be absent).
import { CompareResult, CompareTarget } from "etcd3";
import { toEtcdError } from "./errors";

export interface StoredValue {
  value: string;
  modRevision: number;
}

/** One key with its mod_revision, or null when absent. */
export async function getStored(etcd: EtcdClient, key: string): Promise<StoredValue | null> {
  const client = raw(etcd);
  try {
    const res = await client.kv.range({ key: Buffer.from(key) });
    const kv = res.kvs[0];
    return kv ? { value: kv.value.toString("utf8"), modRevision: Number(kv.mod_revision) } : null;
  } catch (e) {
    throw toEtcdError(e, `get ${key}`);
  }
}

export type CasResult = { ok: true; revision: number } | { ok: false; current: StoredValue | null };

export async function casPut(
  etcd: EtcdClient,
  key: string,
  value: string,
  expectedModRevision: number,
  opts: { lease?: string } = {},
): Promise<CasResult> {
  const client = raw(etcd);
  const k = Buffer.from(key);
  const compare =
    expectedModRevision === 0
      ? { key: k, target: CompareTarget.Version, result: CompareResult.Equal, version: 0 }
      : { key: k, target: CompareTarget.Mod, result: CompareResult.Equal, mod_revision: expectedModRevision };
  try {
    const res = await client.kv.txn({
      compare: [compare],
      success: [{ request_put: { key: k, value: Buffer.from(value), lease: opts.lease ?? 0 } }],
      failure: [{ request_range: { key: k } }],
    });
    if (res.succeeded) return { ok: true, revision: Number(res.header.revision) };
    const kv = res.responses[0]?.response_range?.kvs[0];
    return {
      ok: false,
      current: kv ? { value: kv.value.toString("utf8"), modRevision: Number(kv.mod_revision) } : null,
    };
  } catch (e) {
    throw toEtcdError(e, `cas ${key}`);
  }
}
