import "server-only";
// Small ranges at a revision, and one key's earlier values, for the revision clock and
// table history (console-api.md "Time"). etcd keeps every version of a key until
// compaction: the value current at revision R carries its mod_revision M ≤ R, and the
// value before it is the one current at M − 1.
import type { EtcdClient } from "./client";
import { raw } from "./raw";
import { compactProbeKey } from "@/lib/schema/keys";
import { isMessageSizeError, RevisionCompacted } from "./errors";
import { prefixRangeEnd, rangeError } from "./paged-read";
import { mapPooled } from "@/lib/util/worker-pool";

export interface VersionedKv {
  key: string;
  value: string;
  modRevision: number;
  createRevision: number;
}

const toVersioned = (
  kvs: Array<{ key: Buffer; value: Buffer; mod_revision: string; create_revision: string }>,
): VersionedKv[] =>
  kvs.map((kv) => ({
    key: kv.key.toString("utf8"),
    value: kv.value.toString("utf8"),
    modRevision: Number(kv.mod_revision),
    createRevision: Number(kv.create_revision),
  }));

export interface RangeQuery {
  /** first key, or the prefix with `prefix: true` */
  key: string;
  /** exclusive end key (ignored with `prefix`) */
  end?: string;
  prefix?: boolean;
  revision?: number;
  limit?: number;
  /** newest key first (by key) */
  descend?: boolean;
  /** order by mod_revision instead of key */
  byModRevision?: boolean;
  /** only keys last modified at or after this revision */
  minModRevision?: number;
  /** keys without values (`value` reads ""): all a caller comparing mod_revisions needs */
  keysOnly?: boolean;
  /** only the number of keys (`count`), no keys */
  countOnly?: boolean;
}

export interface RangeAnswer {
  kvs: VersionedKv[];
  /** the store's revision when it answered */
  revision: number;
  more: boolean;
  /** how many keys the range holds (all of them, whatever the limit) */
  count: number;
}

/** One range at `q.revision` (default: now). Compacted → RevisionCompacted; future → FutureRevision. */
export async function readRange(etcd: EtcdClient, consolePrefix: string, q: RangeQuery): Promise<RangeAnswer> {
  const client = raw(etcd);
  const key = Buffer.from(q.key);
  const rangeEnd = q.prefix ? prefixRangeEnd(key) : q.end !== undefined ? Buffer.from(q.end) : undefined;
  try {
    const res = await client.kv.range({
      key,
      range_end: rangeEnd,
      revision: q.revision ?? 0,
      limit: q.limit ?? 0,
      sort_order: q.descend ? "Descend" : q.byModRevision || q.limit ? "Ascend" : "None",
      sort_target: q.byModRevision ? "Mod" : "Key",
      min_mod_revision: q.minModRevision ?? 0,
      keys_only: q.keysOnly ?? false,
      count_only: q.countOnly ?? false,
    });
    return {
      kvs: toVersioned(res.kvs),
      revision: Number(res.header.revision),
      more: res.more,
      count: Number(res.count),
    };
  } catch (e) {
    throw await rangeError(client, e, q.revision, `range ${q.key}`, compactProbeKey(consolePrefix));
  }
}

export interface KeyHistory {
  /** the key's values with mod_revision in [fromRevision, uptoRevision], oldest first */
  versions: VersionedKv[];
  /** the value current at fromRevision − 1 (what the window starts from), if any */
  before: VersionedKv | null;
  /** true when compaction cut the walk before fromRevision was reached */
  compacted: boolean;
}

/** Why one walk of `keyHistories` stopped. */
type WalkEnd = "below" | "absent" | "compacted";

/** One key's walk over one part of the window in `keyHistories`. */
interface Walk {
  key: number;
  /** the part's first revision */
  from: number;
  /** where it reads next */
  at: number;
  /** that read is a deleted gap's start (the revision before a (re)creation) */
  gap: boolean;
  /** newest first */
  versions: VersionedKv[];
  end: WalkEnd | null;
  before: VersionedKv | null;
}

/**
 * Steps one walk with the value current at `walk.at`: a key's value at R carries its
 * mod_revision M, and the value before it is the one current at M − 1. A deletion ends the
 * walk (the key did not exist before it was re-created at createRevision).
 */
function stepWalk(w: Walk, kv: VersionedKv | undefined): void {
  if (!kv) return void (w.end = "absent");
  if (kv.modRevision < w.from) {
    // older than this part: the part before it goes on from this value (the oldest part: it is `before`)
    w.end = "below";
    w.before = kv;
    return;
  }
  w.gap = false;
  w.versions.push(kv);
  // the version before a (re)creation is a deleted gap: nothing older belongs to this life
  if (kv.modRevision === kv.createRevision) {
    w.at = kv.createRevision - 1;
    w.gap = true;
  } else w.at = kv.modRevision - 1;
  if (w.at <= 0) w.end = "absent";
}

/** The window cut into `parts` runs of revisions, oldest first. */
function partsOf(fromRevision: number, uptoRevision: number, parts: number): Array<{ from: number; upto: number }> {
  const n = uptoRevision - fromRevision + 1;
  const k = Math.max(1, Math.min(parts, n));
  return Array.from({ length: k }, (_, j) => ({
    from: fromRevision + Math.floor((j * n) / k),
    upto: fromRevision + Math.floor(((j + 1) * n) / k) - 1,
  }));
}

/** revisions per part of a walk's window at least (a short window is walked whole) */
const MIN_PART_REVISIONS = 256;
/** parts a long window is cut into */
const WALK_PARTS = 8;

/**
 * Each key's values in [fromRevision, uptoRevision], walked back through etcd's history
 * from uptoRevision, many keys at once and in step: each round reads every walk still
 * going at its next revision in one read-only txn (up to etcd's op limit). A long window
 * is cut into parts walked side by side (each from the value current at its end), then
 * joined newest first exactly as one walk would have gone: a part that found the key
 * absent (deleted, or not yet created) ends the history there. So a table whose history
 * is spread over several keys (one per shard) and thousands of versions costs about its
 * busiest key's versions ÷ the parts in round trips. A round that meets a compacted
 * revision is read key by key, so only the walks it cut say so.
 */
export async function keyHistories(
  etcd: EtcdClient,
  consolePrefix: string,
  keys: readonly string[],
  fromRevision: number,
  uptoRevision: number,
  opts: { parts?: number } = {},
): Promise<KeyHistory[]> {
  const client = raw(etcd);
  const parts =
    uptoRevision < 1
      ? []
      : partsOf(
          Math.max(1, fromRevision),
          uptoRevision,
          opts.parts ?? Math.min(WALK_PARTS, Math.floor((uptoRevision - fromRevision + 1) / MIN_PART_REVISIONS)),
        );
  const walks: Walk[] = keys.flatMap((_, key) =>
    parts.map((p) => ({ key, from: p.from, at: p.upto, gap: false, versions: [], end: null, before: null })),
  );
  for (;;) {
    const active = walks.filter((w) => w.end === null);
    if (active.length === 0) break;
    const answers = await readKeysAt(
      client,
      consolePrefix,
      active.map((w) => ({ key: keys[w.key], revision: w.at })),
    );
    active.forEach((w, j) => {
      const a = answers[j];
      if (a === "compacted") w.end = "compacted";
      else stepWalk(w, a ?? undefined);
    });
  }
  // join each key's parts, newest first, as one walk from uptoRevision would have gone
  return keys.map((_, key) => {
    const versions: VersionedKv[] = [];
    const own = walks.filter((w) => w.key === key);
    for (let j = own.length - 1; j >= 0; j--) {
      const w = own[j];
      versions.push(...w.versions);
      if (w.end === "below" && j > 0) continue;
      return {
        versions: versions.reverse(),
        before: w.end === "below" ? w.before : null,
        compacted: w.end === "compacted",
      };
    }
    return { versions: [], before: null, compacted: false };
  });
}

/** One key's value at one revision: null when it did not exist then, "compacted" when etcd no longer holds that revision. */
export type KeyAt = VersionedKv | null | "compacted";

/**
 * Each key at its own revision (`reads[i]`), in read-only txns of up to etcd's op limit. A
 * txn that meets a compacted revision is read key by key, so only the reads it cut say so.
 * The history walks (`keyHistories` above, lib/live/progress-history.ts) step with it.
 */
export async function readKeysAt(
  etcd: EtcdClient,
  consolePrefix: string,
  reads: readonly { key: string; revision: number }[],
): Promise<KeyAt[]> {
  const client = raw(etcd);
  const out: KeyAt[] = [];
  for (let i = 0; i < reads.length; i += MAX_TXN_OPS) {
    const batch = reads.slice(i, i + MAX_TXN_OPS);
    try {
      const res = await client.kv.txn({ compare: [], success: batch.map((r) => rangeOp({ key: r.key }, r.revision)) });
      out.push(...batch.map((_, j) => toVersioned(res.responses[j].response_range.kvs)[0] ?? null));
    } catch (e) {
      const err = await rangeError(
        client,
        e,
        Math.min(...batch.map((r) => r.revision)),
        `history of ${batch.length} keys`,
        compactProbeKey(consolePrefix),
      );
      if (!(err instanceof RevisionCompacted)) throw err;
      out.push(
        ...(await Promise.all(
          batch.map((r) =>
            readRange(client, consolePrefix, { key: r.key, revision: r.revision }).then(
              (a): KeyAt => a.kvs[0] ?? null,
              (e2) => {
                if (e2 instanceof RevisionCompacted) return "compacted" as const;
                throw e2;
              },
            ),
          ),
        )),
      );
    }
  }
  return out;
}

const rangeOp = (q: RangeQuery, revision: number) => {
  const key = Buffer.from(q.key);
  return {
    request_range: {
      key,
      range_end: q.prefix ? prefixRangeEnd(key) : q.end !== undefined ? Buffer.from(q.end) : undefined,
      revision,
      keys_only: q.keysOnly === true,
    },
  };
};

/** etcd's default `--max-txn-ops`: the most ranges one txn may carry */
const MAX_TXN_OPS = 128;
/** txns of one call in flight at once */
const TXNS_IN_FLIGHT = 4;

/**
 * The same ranges at each of several revisions (`out[i][j]`: query j at revisions[i]),
 * packed into as few read-only txns as etcd's op limit allows: a history walk asks the
 * same few ranges at hundreds of revisions, and one round trip per revision would cost
 * more than the reads themselves. A txn whose answer is too large for the client is split
 * in halves, never sent again as it was (§8.1, as the paged reader shrinks a page).
 */
export async function readRangesAtRevisions(
  etcd: EtcdClient,
  consolePrefix: string,
  queries: RangeQuery[],
  revisions: readonly number[],
): Promise<VersionedKv[][][]> {
  const client = raw(etcd);
  const perTxn = Math.max(1, Math.floor(MAX_TXN_OPS / Math.max(1, queries.length)));
  const read = async (revs: readonly number[]): Promise<VersionedKv[][][]> => {
    try {
      const res = await client.kv.txn({ compare: [], success: revs.flatMap((r) => queries.map((q) => rangeOp(q, r))) });
      return revs.map((_, i) =>
        queries.map((_, j) => toVersioned(res.responses[i * queries.length + j].response_range.kvs)),
      );
    } catch (e) {
      if (isMessageSizeError(e) && revs.length > 1) {
        const half = revs.length >> 1;
        return [...(await read(revs.slice(0, half))), ...(await read(revs.slice(half)))];
      }
      throw await rangeError(client, e, revs[0], `ranges at ${revs[0]}`, compactProbeKey(consolePrefix));
    }
  };
  const chunks: number[][] = [];
  for (let i = 0; i < revisions.length; i += perTxn) chunks.push(revisions.slice(i, i + perTxn));
  return (await mapPooled(chunks, TXNS_IN_FLIGHT, read)).flat();
}
