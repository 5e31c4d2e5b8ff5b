import "server-only";
// The live cache's full read: every family at ONE revision (lib/etcd's paged reader, as
// lib/snapshot reads), with each `demand-events/` page parsed AND folded while etcd serves
// the next one, so the first response does not pay the fold after the read.
import type { EtcdClient as Etcd3 } from "@/lib/etcd/client";
import { RevisionCompacted } from "@/lib/etcd/errors";
import { readCounters } from "@/lib/etcd/metrics-counters";
import { emptyStats, readPrefixesAtRevision, SplitHints } from "@/lib/etcd/paged-read";
import { buildSnapshot, familyPrefix, familyStartKey, parseKvOnce, TASKS_WINDOW_MS } from "@/lib/snapshot/build";
import { FAMILIES, type FamilyDef } from "@/lib/snapshot/families";
import type { DemandEventEntry, FamilyName, FleetSnapshot, SnapshotKv } from "@/lib/snapshot/types";
import { DemandIndex } from "./demand-index";

export interface FoldedRead {
  snapshot: FleetSnapshot;
  demand: DemandIndex;
}

// quantile keys of the last full read per family prefix: a re-read (after a lost watch or
// a compaction) reads the large families in parallel parts
const splitHints = new SplitHints();

async function readOnce(client: Etcd3, prefix: string): Promise<FoldedRead> {
  const started = performance.now();
  const readAtMs = Date.now();
  const byPrefix = new Map<string, FamilyDef>(FAMILIES.map((f) => [familyPrefix(prefix, f), f]));
  const demand = new DemandIndex();
  const stats = emptyStats();
  const { revision, kvsByPrefix } = await readPrefixesAtRevision(client, [...byPrefix.keys()], {
    stats,
    splitKeys: (p) => splitHints.get(p),
    startKey: (p) => familyStartKey(prefix, byPrefix.get(p)!, readAtMs - TASKS_WINDOW_MS),
    onPage: (p, kvs) => {
      const family = byPrefix.get(p)!;
      for (const kv of kvs) {
        const outcome = parseKvOnce(prefix, family, kv);
        if (family.name === "demand-events" && outcome?.ok) demand.add(outcome.entry as DemandEventEntry);
      }
    },
  });
  const kvsByFamily = new Map<FamilyName, SnapshotKv[]>();
  for (const [p, kvs] of kvsByPrefix) {
    kvsByFamily.set(byPrefix.get(p)!.name, kvs);
    splitHints.learn(p, kvs);
  }
  readCounters.fullReads += 1;
  const snapshot = buildSnapshot(prefix, revision, kvsByFamily, { readAtMs, stats: { ...stats, durationMs: performance.now() - started } });
  demand.addUnknownVersions(snapshot);
  return { snapshot, demand };
}

/** The fleet at the current revision, folded; a compaction between pages restarts it once. */
export async function readFolded(client: Etcd3, prefix: string): Promise<FoldedRead> {
  try {
    return await readOnce(client, prefix);
  } catch (e) {
    if (e instanceof RevisionCompacted) return readOnce(client, prefix);
    throw e;
  }
}
