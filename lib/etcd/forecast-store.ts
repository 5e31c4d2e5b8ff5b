import "server-only";
// The forecast chunks' etcd reads (lib/schema/forecast-keys.ts names the layout; console-api.md
// "Forecasts …": the journal resolves forecasts), at the revision an answer is read at: the
// keys from a moment on, and their values (whether the keys changed: ./journal-store.ts
// `journalKeysVersion`). Writes go through the election (lib/etcd/election.ts) and the
// journal's rollup txn (./journal-store.ts `replaceJournalChunks`), as the decision journal's.
import type { EtcdClient } from "./client";
import { raw } from "./raw";
import { prefixRangeEnd } from "./paged-read";
import { pagedRange, type JournalKv } from "./journal-store";

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
