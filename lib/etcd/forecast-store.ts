import "server-only";
// The forecast chunks' etcd reads (lib/schema/forecast-keys.ts names the layout; console-api.md
// "Forecasts …": the journal resolves forecasts), at a revision when a pinned answer asks:
// what says whether the chunk keys changed (count and newest mod_revision), the keys from a
// moment on, and their values. Writes go through the election (lib/etcd/election.ts) and the
// journal's rollup txn (./journal-store.ts `replaceJournalChunks`), as the decision journal's.
import type { EtcdClient } from "./client";
import { raw } from "./raw";
import { toEtcdError } from "./errors";
import { prefixRangeEnd } from "./paged-read";
import { pagedRange, type JournalKv } from "./journal-store";

/** `<count>:<newest mod_revision>` of the keys under `base` at `revision` (absent: now), and the revision read. */
export async function chunkKeysVersion(
  etcd: EtcdClient,
  base: string,
  revision?: number,
): Promise<{ version: string; revision: number }> {
  const client = raw(etcd);
  const b = Buffer.from(base);
  const at = revision === undefined ? undefined : String(revision);
  try {
    const count = await client.kv.range({ key: b, range_end: prefixRangeEnd(b), count_only: true, revision: at });
    const rev = at ?? count.header.revision;
    const newest = await client.kv.range({
      key: b,
      range_end: prefixRangeEnd(b),
      keys_only: true,
      limit: 1,
      sort_order: "Descend",
      sort_target: "Mod",
      revision: rev,
    });
    return { version: `${count.count}:${newest.kvs[0]?.mod_revision ?? 0}`, revision: Number(rev) };
  } catch (e) {
    throw toEtcdError(e, `chunk keys version ${base}`);
  }
}

/** The chunk keys (with mod_revisions) under `base` from `fromKey` on, at `revision`. */
export async function readChunkKeys(
  etcd: EtcdClient,
  base: string,
  fromKey: string,
  revision: number,
): Promise<JournalKv[]> {
  const b = Buffer.from(base);
  return pagedRange(raw(etcd), Buffer.from(fromKey), prefixRangeEnd(b), true, { revision: String(revision) });
}

/** The chunks with keys in [fromKey, toKey] at `revision`. */
export async function readChunkValues(
  etcd: EtcdClient,
  fromKey: string,
  toKey: string,
  revision: number,
): Promise<JournalKv[]> {
  return pagedRange(raw(etcd), Buffer.from(fromKey), Buffer.from(`${toKey}\u0000`), false, {
    revision: String(revision),
  });
}
