import "server-only";
// THE fleet read: every family at ONE revision (scheduler-model.md §8.1 paging, families
// read in parallel, all pinned), each page parsed AND its demand events folded while etcd
// serves the next one, into a FleetSnapshot plus its folded tables. The live cache's full
// reads and pinned (`?revision=`) reads both come through here. Concurrent callers share
// one read (singleflight); a read of an unchanged revision is served from a small
// per-revision cache instead of being read twice.
import type { EtcdClient as Etcd3 } from "@/lib/etcd/client";
import { RevisionCompacted } from "@/lib/etcd/errors";
import { readCounters } from "@/lib/etcd/metrics-counters";
import {
  currentRevision,
  emptyStats,
  readPrefixesAtRevision,
  recordBytes,
  SplitHints,
  type ReadHints,
} from "@/lib/etcd/paged-read";
import type { TableDemand } from "@/lib/schema/demand";
import { buildSnapshot, familyStartKey, TASKS_WINDOW_MS } from "./build";
import { DemandIndex } from "./demand-index";
import { FAMILIES, familyPrefix, parseFamilyKv, type FamilyDef } from "./families";
import type { FamilyName, FleetSnapshot, SnapshotKv } from "./types";
import { BoundedMap } from "@/lib/util/bounded-map";

export interface FleetRead {
  snapshot: FleetSnapshot;
  /** the fold of `snapshot`'s demand events (§3.6); never mutated */
  tables: ReadonlyMap<string, TableDemand>;
  /** the kvs per family, in key order, each with its parse remembered and its value let go (empty) */
  kvsByFamily: Map<FamilyName, SnapshotKv[]>;
}

/** the value of a kv once parsed (its bytes are not held after its page is read) */
const RELEASED = Buffer.alloc(0);

interface ReadFleetOptions {
  /** pin to this revision (time travel); a compacted one fails with RevisionCompacted */
  revision?: number;
  /** `tasks/` records from the UUIDv7 of this time on (default: read time − 24 h) */
  tasksSinceMs?: number;
}

export interface FleetReader {
  readFleet(opts?: ReadFleetOptions): Promise<FleetSnapshot>;
  readFleetWithKvs(opts?: ReadFleetOptions): Promise<FleetRead>;
  /** drop cached reads (tests, or after this process wrote) */
  clearCache(): void;
  /** what its reads taught it of where to cut the families and how large a first page to ask */
  hints(): ReadHints;
}

export interface FleetReaderOptions {
  client: Etcd3;
  prefix: string;
  /** reads kept per revision (default 2; 0 when the caller keeps its own) */
  cacheSize?: number;
  maxPageKeys?: number;
  /** sees every page as it arrives (metrics, tests) */
  observePage?: (family: FamilyName, kvs: SnapshotKv[]) => void;
  /** another reader's hints to start from (the first read is then cut and sized as its next would be) */
  hints?: ReadHints;
}

export function createFleetReader(ctx: FleetReaderOptions): FleetReader {
  const cacheSize = ctx.cacheSize ?? 2;
  // reads by `readKey` (revision and tasks window), oldest first
  const cache = new BoundedMap<string, FleetRead>({ evict: "least-recently-set", maxEntries: cacheSize });
  const inflight = new Map<string, Promise<FleetRead>>();
  /** an explicit `tasksSinceMs` reads a different `tasks/` range, so it is part of the key */
  const readKey = (revision: number | "latest", tasksSinceMs: number | undefined) =>
    `${revision}:${tasksSinceMs ?? "window"}`;
  // quantile keys and mean record size of the last read per large family: the next read
  // cuts it there, reads the parts in parallel, each from a full-size first page (same
  // revision, same result; only faster)
  const splitHints = new SplitHints(ctx.hints);
  const byPrefix = new Map<string, FamilyDef>(FAMILIES.map((f) => [familyPrefix(ctx.prefix, f), f]));

  const remember = (key: string, read: FleetRead) => cache.set(key, read);

  async function readAt(revision: number, restarts: number, tasksSinceMs: number | undefined): Promise<FleetRead> {
    const started = performance.now();
    const readAtMs = Date.now();
    const sinceMs = tasksSinceMs ?? readAtMs - TASKS_WINDOW_MS;
    const stats = emptyStats();
    const demand = new DemandIndex();
    const bytesByPrefix = new Map<string, number>();
    const { kvsByPrefix } = await readPrefixesAtRevision(ctx.client, [...byPrefix.keys()], {
      revision,
      stats,
      maxLimit: ctx.maxPageKeys,
      probePrefix: ctx.prefix,
      splitKeys: (prefix) => splitHints.get(prefix),
      startLimit: (prefix) => splitHints.startLimit(prefix),
      startKey: (prefix) => familyStartKey(ctx.prefix, byPrefix.get(prefix)!, sinceMs),
      onPage: (prefix, kvs) => {
        const family = byPrefix.get(prefix)!;
        if (family.field === "demandEvents") {
          for (let i = 0; i < kvs.length; i++) {
            const outcome = parseFamilyKv(ctx.prefix, family, kvs[i]);
            if (outcome?.ok) demand.add(outcome.entry);
          }
        } else for (let i = 0; i < kvs.length; i++) parseFamilyKv(ctx.prefix, family, kvs[i]);
        ctx.observePage?.(family.name, kvs);
        bytesByPrefix.set(prefix, (bytesByPrefix.get(prefix) ?? 0) + recordBytes(kvs));
        // each kv's parse is remembered on it (./families.ts), so its value is never read
        // again: the values, slices of the pages etcd sent, are let go, and the pages with
        // them, instead of all being held until the last page is in (at 8× the production
        // fleet, ~180 MB of pages)
        for (let i = 0; i < kvs.length; i++) kvs[i].value = RELEASED;
      },
    });
    const kvsByFamily = new Map<FamilyName, SnapshotKv[]>();
    for (const [prefix, kvs] of kvsByPrefix) {
      kvsByFamily.set(byPrefix.get(prefix)!.name, kvs);
      splitHints.learn(prefix, kvs, bytesByPrefix.get(prefix));
    }
    readCounters.fullReads += 1;
    const snapshot = buildSnapshot(ctx.prefix, revision, kvsByFamily, {
      readAtMs,
      stats: { ...stats, durationMs: performance.now() - started, restarts },
    });
    demand.addUnknownVersions(snapshot);
    return { snapshot, tables: demand.tables(snapshot), kvsByFamily };
  }

  function shared(key: string, run: () => Promise<FleetRead>): Promise<FleetRead> {
    let p = inflight.get(key);
    if (!p) {
      p = run().finally(() => inflight.delete(key));
      inflight.set(key, p);
    }
    return p;
  }

  async function latest(tasksSinceMs: number | undefined): Promise<FleetRead> {
    for (let attempt = 1; ; attempt++) {
      const revision = await currentRevision(ctx.client, ctx.prefix);
      const key = readKey(revision, tasksSinceMs);
      const hit = cache.get(key);
      if (hit) return hit;
      try {
        const read = await shared(key, () => readAt(revision, attempt - 1, tasksSinceMs));
        remember(key, read);
        return read;
      } catch (e) {
        // compacted between pages: restart once at a fresh revision (a pinned read fails instead)
        if (e instanceof RevisionCompacted && attempt === 1) continue;
        throw e;
      }
    }
  }

  async function readFleetWithKvs(opts: ReadFleetOptions = {}): Promise<FleetRead> {
    if (opts.revision === undefined)
      return shared(readKey("latest", opts.tasksSinceMs), () => latest(opts.tasksSinceMs));
    const revision = opts.revision;
    const key = readKey(revision, opts.tasksSinceMs);
    const hit = cache.get(key);
    if (hit) return hit;
    const read = await shared(key, () => readAt(revision, 0, opts.tasksSinceMs));
    remember(key, read);
    return read;
  }

  return {
    readFleetWithKvs,
    readFleet: async (opts) => (await readFleetWithKvs(opts)).snapshot,
    clearCache: () => cache.clear(),
    hints: () => splitHints.toData(),
  };
}
