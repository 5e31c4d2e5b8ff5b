import "server-only";
// scheduler-model.md §8.1: the paged single-revision prefix reader. Pages start at
// `startLimit` keys, halve (min 8) above the 1 MiB byte budget or on a message-size
// error, double (up to `maxLimit`) below a quarter of it; every page after the first is
// pinned to the first page's revision (we keep it ourselves: a pinned read's header
// reports the CURRENT revision); the next page starts at last key + "\0".
import type { Etcd3 } from "etcd3";
import type { EtcdClient } from "./client";
import { raw } from "./raw";
import { compactProbeKey, revisionProbeKey } from "@/lib/schema/keys";
import { compactRevisionAt } from "./compaction";
import { fastRange } from "./fast-range";
import type { DecodedRange } from "./range-codec";
import { FutureRevision, RevisionCompacted, isCompactedError, isMessageSizeError, toEtcdError } from "./errors";
import { readCounters } from "./metrics-counters";

export const PAGE_START_KEYS = 512;
const PAGE_MIN_KEYS = 8;
export const PAGE_BUDGET_BYTES = 1_048_576;

/**
 * Ceiling of the page size. The master stops at 512; above 512 we size the next page to
 * ~90% of the 1 MiB budget by the last page's mean record size, so pages stay within the
 * budget. Each etcd 3.4 range also counts every key left in the range, so fewer pages
 * save server time: the production scenario reads in ~21 pages instead of 53
 * (bench/read.ts).
 */
export const PAGE_MAX_KEYS = 4096;

export interface RawKv {
  /** full key (UTF-8) */
  key: string;
  value: Buffer;
  modRevision: number;
  /** lease id ("0" when none) */
  lease: string;
}

export interface ReadStats {
  /** key ranges read (a prefix cut at split keys is read as several, in parallel) */
  ranges: number;
  pages: number;
  shrinks: number;
  bytes: number;
  keys: number;
}

export interface PagedReadOptions {
  /** pin to this revision; default: the first page's header revision */
  revision?: number;
  startLimit?: number;
  maxLimit?: number;
  budgetBytes?: number;
  /** per-call stats, added to as pages arrive (also added to the process counters) */
  stats?: ReadStats;
  /** called with each page's kvs while the next page is already requested */
  onPage?: (kvs: RawKv[]) => void;
  /**
   * With a pinned revision: keys at which to cut the prefix into sub-ranges read in
   * parallel (e.g. quantiles of the previous read). Any keys give the same result.
   */
  splitKeys?: Buffer[];
  /**
   * Read only keys ≥ this one inside the prefix (a time-ordered family read from a moment
   * on, e.g. `tasks/` from the UUIDv7 of now − 24 h); ignored when not above the prefix.
   */
  startKey?: Buffer;
  /**
   * The console prefix `P`: the compact-revision probe watches `P/console/compact-probe`
   * (default: a key under the prefix being read). Either way inside what the client may
   * read, so a user whose role covers only `P/` can ask.
   */
  probePrefix?: string;
}

export interface PagedReadResult {
  kvs: RawKv[];
  revision: number;
  stats: ReadStats;
}

const ZERO = Buffer.from([0]);

export const emptyStats = (): ReadStats => ({ ranges: 0, pages: 0, shrinks: 0, bytes: 0, keys: 0 });

/** [prefix, prefix with its last non-0xFF byte incremented) */
export function prefixRangeEnd(prefix: Buffer): Buffer {
  const end = Buffer.from(prefix);
  for (let i = end.length - 1; i >= 0; i--) {
    if (end[i] < 0xff) {
      end[i] += 1;
      return end.subarray(0, i + 1);
    }
  }
  return Buffer.from([0]); // all 0xFF: to the end of the keyspace
}

const isFutureRevisionError = (e: unknown) => /future revision/.test(e instanceof Error ? e.message : "");

/**
 * Maps a range failure at `revision` to a typed error (compaction asks for the compact
 * revision, watching `probeKey`, which must be readable by the client: see ./compaction.ts).
 */
export async function rangeError(
  etcd: EtcdClient,
  e: unknown,
  revision: number | undefined,
  what: string,
  probeKey?: string,
): Promise<unknown> {
  const client = raw(etcd);
  if (revision !== undefined && isCompactedError(e)) {
    const compact = await compactRevisionAt(client, revision, undefined, probeKey).catch(() => 0);
    return new RevisionCompacted(revision, compact);
  }
  if (revision !== undefined && isFutureRevisionError(e)) return new FutureRevision(revision);
  return toEtcdError(e, what);
}

/**
 * The current revision (one 1-key, keys-only range; used to pin several parallel reads).
 * Pass the console prefix `P`: the range is on key `P/`, which a user whose role covers
 * only `P/` may read (an empty result still carries header.revision). Without a prefix it
 * ranges on "\0", outside every prefix.
 */
export async function currentRevision(etcd: EtcdClient, prefix?: string): Promise<number> {
  const client = raw(etcd);
  try {
    const res = await client.kv.range({ key: Buffer.from(revisionProbeKey(prefix)), limit: 1, keys_only: true });
    return Number(res.header.revision);
  } catch (e) {
    throw toEtcdError(e, "revision");
  }
}

export async function readPrefixPaged(
  etcd: EtcdClient,
  prefix: string,
  opts: PagedReadOptions = {},
): Promise<PagedReadResult> {
  const client = raw(etcd);
  const stats = opts.stats ?? emptyStats();
  const whole = Buffer.from(prefix);
  const to = prefixRangeEnd(whole);
  const from = opts.startKey && Buffer.compare(opts.startKey, whole) > 0 ? opts.startKey : whole;
  const splits = (opts.splitKeys ?? [])
    .filter((k) => Buffer.compare(k, from) > 0 && Buffer.compare(k, to) < 0)
    .sort(Buffer.compare)
    .filter((k, i, sorted) => i === 0 || !k.equals(sorted[i - 1]));
  if (opts.revision === undefined || splits.length === 0)
    return readRangePaged(client, from, to, prefix, { ...opts, stats });
  // Consecutive sub-ranges [from, s1), [s1, s2), … [sn, to) partition the prefix, so their
  // union at one revision is exactly the prefix at that revision.
  const bounds = [from, ...splits, to];
  const parts = await Promise.all(
    bounds.slice(0, -1).map((b, i) => readRangePaged(client, b, bounds[i + 1], prefix, { ...opts, stats })),
  );
  return { kvs: parts.flatMap((p) => p.kvs), revision: opts.revision, stats };
}

/** The keys in [from, to) at `revision`, paged as §8.1 pages a prefix (a window of a time-ordered family). */
export async function readKeyRangePaged(
  etcd: EtcdClient,
  from: Buffer,
  to: Buffer,
  opts: { revision: number; probePrefix: string },
): Promise<RawKv[]> {
  const label = from.toString("utf8");
  return (await readRangePaged(raw(etcd), from, to, label, { ...opts, stats: emptyStats() })).kvs;
}

/** §8.1 over one key range [from, to). */
async function readRangePaged(
  client: Etcd3,
  from: Buffer,
  rangeEnd: Buffer,
  label: string,
  opts: PagedReadOptions & { stats: ReadStats },
): Promise<PagedReadResult> {
  const budget = opts.budgetBytes ?? PAGE_BUDGET_BYTES;
  const maxLimit = opts.maxLimit ?? PAGE_MAX_KEYS;
  const stats = opts.stats;
  stats.ranges += 1;
  let limit = Math.min(opts.startLimit ?? PAGE_START_KEYS, maxLimit);
  let revision = opts.revision;
  let linearizable = false;
  let start = from;
  const all: RawKv[] = [];
  let pending: RawKv[] | null = null;
  const flush = () => {
    if (pending && opts.onPage) opts.onPage(pending);
    pending = null;
  };

  for (;;) {
    let res: DecodedRange;
    try {
      // A pinned page is served from the member's own state (no ReadIndex round trip);
      // a member that has not applied the revision yet answers "future revision", and
      // the page is asked again linearizably.
      const pinned = revision !== undefined && !linearizable;
      const request = fastRange(client, { key: start, rangeEnd, limit, revision, serializable: pinned });
      flush(); // parse the previous page while etcd serves this one
      res = await request.catch((e: unknown) => {
        if (!pinned || !isFutureRevisionError(e)) throw e;
        linearizable = true;
        return fastRange(client, { key: start, rangeEnd, limit, revision });
      });
    } catch (e) {
      if (isMessageSizeError(e) && limit > PAGE_MIN_KEYS) {
        limit = Math.max(PAGE_MIN_KEYS, Math.floor(limit / 2));
        stats.shrinks += 1;
        readCounters.shrinks += 1;
        continue;
      }
      throw await rangeError(client, e, revision, `read ${label}`, compactProbeKey(opts.probePrefix ?? label));
    }
    revision ??= res.revision;
    const page = res;
    stats.pages += 1;
    stats.bytes += page.bytes;
    stats.keys += page.kvs.length;
    readCounters.pages += 1;
    readCounters.bytes += page.bytes;
    readCounters.keys += page.kvs.length;
    for (let i = 0; i < page.kvs.length; i++) all.push(page.kvs[i]);
    pending = page.kvs;
    if (page.kvs.length === 0 || !res.more) break;
    if (page.bytes > budget && limit > PAGE_MIN_KEYS) {
      limit = Math.max(PAGE_MIN_KEYS, Math.floor(limit / 2));
      stats.shrinks += 1;
      readCounters.shrinks += 1;
    } else if (page.bytes < budget / 4 && limit < PAGE_START_KEYS && limit < maxLimit) {
      limit = Math.min(PAGE_START_KEYS, maxLimit, limit * 2); // the master's rule, up to its 512 ceiling (and maxLimit)
    } else if (limit >= PAGE_START_KEYS && limit < maxLimit && page.kvs.length === limit) {
      // above 512: size the next page to ~90% of the budget by this page's mean record size
      const fit = Math.floor((budget * 0.9) / (page.bytes / page.kvs.length));
      if (fit > limit) limit = Math.min(maxLimit, fit);
    }
    start = Buffer.concat([res.lastKey!, ZERO]);
  }
  flush();
  return { kvs: all, revision, stats };
}

/**
 * A family of ≥ 2 × SPLIT_KEYS_PER_PART keys is read in up to SPLIT_MAX_PARTS parallel
 * sub-ranges. etcd 3.4 walks the index of everything left in a range on every page, so
 * shorter parts cost it less; but every part's pages share one connection and one event
 * loop, so more parts make each page wait longer: with 8, an 8× production fleet on a
 * busy host saw pages pass the call deadline (bench/scale.ts), with 4 it did not.
 */
const SPLIT_MAX_PARTS = 4;
const SPLIT_KEYS_PER_PART = 2048;

/** The length of the kvs' keys and values, as SplitHints.learn counts them. */
export function recordBytes(kvs: readonly { key: string; value: Buffer }[]): number {
  let bytes = 0;
  for (let i = 0; i < kvs.length; i++) bytes += kvs[i].key.length + kvs[i].value.length;
  return bytes;
}

/** What a SplitHints learned, per prefix: its cut keys and first page size (null: the default). */
export type ReadHints = { prefix: string; cuts: Uint8Array[]; startLimit: number | null }[];

/**
 * Remembers, per prefix, what the last read of it showed: where it could be cut into
 * parts of equal key counts (its quantile keys), so the next read runs its parts in
 * parallel (`splitKeys` of readPrefixesAtRevision), and its mean record size, so each
 * part's first page is already the size the §8.1 loop would grow to (`startLimit`)
 * instead of 512 keys. Same result whatever the hints; only fewer, parallel pages.
 */
export class SplitHints {
  private byPrefix = new Map<string, Buffer[]>();
  private limits = new Map<string, number>();

  /** Starts from what another reader learned (`toData`): e.g. the offload worker's, from the request thread's. */
  constructor(from: ReadHints = []) {
    for (const h of from) {
      if (h.cuts.length > 0)
        this.byPrefix.set(
          h.prefix,
          h.cuts.map((c) => Buffer.from(c)),
        );
      if (h.startLimit !== null) this.limits.set(h.prefix, h.startLimit);
    }
  }

  /** What it learned, as plain data (copied: it can be posted to another thread). */
  toData(): ReadHints {
    return [...new Set([...this.byPrefix.keys(), ...this.limits.keys()])].map((prefix) => ({
      prefix,
      cuts: (this.byPrefix.get(prefix) ?? []).map((b) => new Uint8Array(b)),
      startLimit: this.limits.get(prefix) ?? null,
    }));
  }

  get(prefix: string): Buffer[] | undefined {
    return this.byPrefix.get(prefix);
  }

  /** The first page size for `prefix`: ~90% of the byte budget by the last read's mean record. */
  startLimit(prefix: string): number | undefined {
    return this.limits.get(prefix);
  }

  /**
   * Learn from the kvs (in key order) a read of `prefix` returned; `bytes`: their keys' and
   * values' length, when the values are no longer held (lib/snapshot/read.ts lets them go).
   */
  learn(prefix: string, kvs: readonly { key: string; value: Buffer }[], bytes?: number): void {
    const parts = Math.min(SPLIT_MAX_PARTS, Math.floor(kvs.length / SPLIT_KEYS_PER_PART));
    if (parts > 1)
      this.byPrefix.set(
        prefix,
        Array.from({ length: parts - 1 }, (_, i) => Buffer.from(kvs[Math.floor((kvs.length * (i + 1)) / parts)].key)),
      );
    else this.byPrefix.delete(prefix);
    // only a family that outgrew the master's first page gains from a larger one
    if (kvs.length <= PAGE_START_KEYS) {
      this.limits.delete(prefix);
      return;
    }
    const total = bytes ?? recordBytes(kvs);
    const fit = Math.floor((PAGE_BUDGET_BYTES * 0.9) / (total / kvs.length));
    this.limits.set(prefix, Math.max(PAGE_START_KEYS, Math.min(PAGE_MAX_KEYS, fit)));
  }
}

/**
 * Several prefixes at ONE revision, read in parallel (each paged as above). Without a
 * pinned revision, the current revision is taken first and every prefix is pinned to it.
 */
export async function readPrefixesAtRevision(
  etcd: EtcdClient,
  prefixes: string[],
  opts: Omit<PagedReadOptions, "onPage" | "splitKeys" | "startKey" | "startLimit"> & {
    onPage?: (prefix: string, kvs: RawKv[]) => void;
    splitKeys?: (prefix: string) => Buffer[] | undefined;
    startKey?: (prefix: string) => Buffer | undefined;
    /** the first page size per prefix (default PAGE_START_KEYS) */
    startLimit?: (prefix: string) => number | undefined;
  } = {},
): Promise<{ revision: number; kvsByPrefix: Map<string, RawKv[]>; stats: ReadStats }> {
  const client = raw(etcd);
  const revision = opts.revision ?? (await currentRevision(client, opts.probePrefix ?? prefixes[0]));
  const stats = opts.stats ?? emptyStats();
  const results = await Promise.all(
    prefixes.map((prefix) =>
      readPrefixPaged(client, prefix, {
        ...opts,
        revision,
        stats,
        onPage: opts.onPage ? (kvs) => opts.onPage!(prefix, kvs) : undefined,
        splitKeys: opts.splitKeys?.(prefix),
        startKey: opts.startKey?.(prefix),
        startLimit: opts.startLimit?.(prefix),
      }),
    ),
  );
  return { revision, kvsByPrefix: new Map(prefixes.map((p, i) => [p, results[i].kvs])), stats };
}
