import "server-only";
// The decision journal's etcd I/O (lib/journal/codec.ts names the layout; console-api.md
// "The decision journal"): chunk keys read keys-only in pages (coverage, gaps and trims
// need no values), chunk values read for a key span, and the guarded writes of the elected
// sampler (lib/etcd/election.ts: a deposed holder writes nothing).
import type { Etcd3 } from "etcd3";
import type { EtcdClient } from "./client";
import { raw } from "./raw";
import { isMessageSizeError, toEtcdError } from "./errors";
import { prefixRangeEnd } from "./paged-read";

/** keys per page of a keys-only read (~100 bytes a key: ~1 MB a page) */
const KEY_PAGE = 10_000;
/**
 * Values are paged by bytes: a rolled-up chunk is up to ~768 KB and a checkpoint ~1 MB at 8×
 * the tables, so a fixed count of them can pass the client's 4 MiB message limit (64 did, on
 * an 8 h window of checkpoints and rollups). The first page asks for FIRST_VALUE_PAGE values;
 * each next one for as many as VALUE_BUDGET_BYTES holds at the last page's mean size (at most
 * VALUE_PAGE); a page that is too large anyway is asked again at half the count.
 */
const FIRST_VALUE_PAGE = 2;
const VALUE_PAGE = 64;
const VALUE_BUDGET_BYTES = 2 * 1_048_576;

/** A stored chunk: its key, value and the revision that wrote it (a key at one mod_revision holds one value). */
export interface JournalKv {
  key: string;
  value: Buffer;
  modRevision: number;
}

export async function pagedRange(
  client: Etcd3,
  from: Buffer,
  end: Buffer,
  keysOnly: boolean,
  at?: { revision?: string },
): Promise<JournalKv[]> {
  const out: JournalKv[] = [];
  let start = from;
  let revision: string | undefined = at?.revision;
  let limit = keysOnly ? KEY_PAGE : FIRST_VALUE_PAGE;
  for (;;) {
    let res;
    try {
      res = await client.kv.range({ key: start, range_end: end, limit, keys_only: keysOnly, revision });
    } catch (e) {
      if (!keysOnly && limit > 1 && isMessageSizeError(e)) {
        limit = Math.max(1, Math.floor(limit / 2));
        continue;
      }
      throw toEtcdError(e, `journal range ${start.toString("utf8")}`);
    }
    revision ??= res.header.revision; // one revision for every page
    if (at) at.revision = revision;
    let bytes = 0;
    for (const kv of res.kvs) {
      out.push({ key: kv.key.toString("utf8"), value: kv.value, modRevision: Number(kv.mod_revision) });
      bytes += kv.value.length;
    }
    if (!res.more || res.kvs.length === 0) return out;
    if (!keysOnly) limit = Math.max(1, Math.min(VALUE_PAGE, Math.floor(VALUE_BUDGET_BYTES / (bytes / res.kvs.length))));
    start = Buffer.concat([res.kvs[res.kvs.length - 1].key, Buffer.from([0])]);
  }
}

/** Every key under `base` (the journal's chunk prefix), in key (time) order. */
export async function readJournalKeys(etcd: EtcdClient, base: string): Promise<string[]> {
  const client = raw(etcd);
  const b = Buffer.from(base);
  return (await pagedRange(client, b, prefixRangeEnd(b), true)).map((kv) => kv.key);
}

/**
 * What says whether the chunk keys changed since a read: how many there are and the newest
 * mod_revision among them (a put moves the latter, a trim the former), from one count-only
 * and one keys-only read of a single key, at `revision` (absent: now; the forecast journal's
 * answers read their chunks at the view's revision).
 */
export async function journalKeysVersion(etcd: EtcdClient, base: string, revision?: number): Promise<string> {
  const client = raw(etcd);
  const b = Buffer.from(base);
  const at = revision === undefined ? undefined : String(revision);
  try {
    const [count, newest] = await Promise.all([
      client.kv.range({ key: b, range_end: prefixRangeEnd(b), count_only: true, revision: at }),
      client.kv.range({
        key: b,
        range_end: prefixRangeEnd(b),
        keys_only: true,
        limit: 1,
        sort_order: "Descend",
        sort_target: "Mod",
        revision: at,
      }),
    ]);
    return `${count.count}:${newest.kvs[0]?.mod_revision ?? 0}`;
  } catch (e) {
    throw toEtcdError(e, `journal keys version ${base}`);
  }
}

/** The chunk keys after `afterKey` (exclusive), in key order: what a writer appended since. */
export async function readJournalKeysAfter(etcd: EtcdClient, base: string, afterKey: string): Promise<string[]> {
  const client = raw(etcd);
  const b = Buffer.from(base);
  const from = Buffer.concat([Buffer.from(afterKey), Buffer.from([0])]);
  return (await pagedRange(client, from, prefixRangeEnd(b), true)).map((kv) => kv.key);
}

/** The chunks with keys in [fromKey, toKey) (`toKey` null: to the end of `base`). */
export async function readJournalValues(
  etcd: EtcdClient,
  base: string,
  fromKey: string,
  toKey: string | null,
): Promise<JournalKv[]> {
  const client = raw(etcd);
  return pagedRange(
    client,
    Buffer.from(fromKey),
    toKey === null ? prefixRangeEnd(Buffer.from(base)) : Buffer.from(toKey),
    false,
  );
}

/** A stored chunk as listed: its value is null where it was not fetched. */
export interface ListedJournalKv {
  key: string;
  modRevision: number;
  value: Buffer | null;
}

/**
 * The chunks with keys in [fromKey, toKey), fetching only the values `need(key,
 * mod_revision)` asks for: one keys-only read, then the values from the first needed key to
 * the last, at the listing's revision (a value fetched on the way is kept too).
 */
export async function readJournalValuesWhere(
  etcd: EtcdClient,
  base: string,
  fromKey: string,
  toKey: string | null,
  need: (key: string, modRevision: number) => boolean,
): Promise<ListedJournalKv[]> {
  const client = raw(etcd);
  const end = toKey === null ? prefixRangeEnd(Buffer.from(base)) : Buffer.from(toKey);
  const at: { revision?: string } = {};
  const listed: ListedJournalKv[] = (await pagedRange(client, Buffer.from(fromKey), end, true, at)).map((kv) => ({
    key: kv.key,
    modRevision: kv.modRevision,
    value: null,
  }));
  const needed = listed.filter((kv) => need(kv.key, kv.modRevision));
  if (needed.length === 0) return listed;
  const values = await pagedRange(
    client,
    Buffer.from(needed[0].key),
    Buffer.from(`${needed[needed.length - 1].key}\u0000`),
    false,
    at,
  );
  const byKey = new Map(values.map((kv) => [kv.key, kv.value]));
  for (const kv of listed) kv.value = byKey.get(kv.key) ?? null;
  return listed;
}

/** A small value (the trim marker), or null. */
export async function readJournalMarker(etcd: EtcdClient, key: string): Promise<string | null> {
  const client = raw(etcd);
  try {
    const res = await client.kv.range({ key: Buffer.from(key) });
    return res.kvs[0]?.value.toString("utf8") ?? null;
  } catch (e) {
    throw toEtcdError(e, `read ${key}`);
  }
}

/**
 * Replaces the stored chunks `parts` (consecutive keys, in key order) by `rollup` in one
 * txn, guarded: only while `holder` holds the election key, only while the first and last
 * parts are still there and the rollup is not (a second writer that rolled them up first
 * leaves nothing to do twice). The parts go by two range deletes around the rollup's own
 * key (it sorts among them; a txn cannot put a key its delete covers). False: not done.
 */
export async function replaceJournalChunks(
  etcd: EtcdClient,
  holder: { key: string; replica: string },
  parts: readonly string[],
  rollup: { key: string; value: Buffer },
): Promise<boolean> {
  const client = raw(etcd);
  const first = parts[0];
  const end = `${parts[parts.length - 1]}\u0000`;
  const after = `${rollup.key}\u0000`;
  const deletes: { start: string; end: string }[] = [];
  if (first < rollup.key) deletes.push({ start: first, end: rollup.key < end ? rollup.key : end });
  if (after < end) deletes.push({ start: after > first ? after : first, end });
  try {
    const res = await client
      .if(holder.key, "Value", "==", holder.replica)
      .and(first, "Version", ">", 0)
      .and(parts[parts.length - 1], "Version", ">", 0)
      .and(rollup.key, "Version", "==", 0)
      .then(
        client.put(rollup.key).value(rollup.value),
        ...deletes.map((d) => client.delete().inRange({ start: d.start, end: d.end })),
      )
      .commit();
    return res.succeeded;
  } catch (e) {
    throw toEtcdError(e, `journal rollup ${rollup.key}`);
  }
}
