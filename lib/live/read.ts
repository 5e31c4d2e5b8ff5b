import "server-only";
// The live cache's starting point outside the cache (benchmarks, tests): the one fleet read
// (lib/snapshot/read.ts) at the current revision, with a DemandIndex seeded from its fold,
// ready to take watch updates. One reader per client and prefix, so its split hints carry
// over between calls as they do in the cache.
import type { EtcdClient as Etcd3 } from "@/lib/etcd/client";
import { DemandIndex } from "@/lib/snapshot/demand-index";
import { createFleetReader, type FleetReader } from "@/lib/snapshot/read";
import type { FleetSnapshot } from "@/lib/snapshot/types";

export interface FoldedRead {
  snapshot: FleetSnapshot;
  demand: DemandIndex;
}

const readers = new WeakMap<Etcd3, Map<string, FleetReader>>();

function readerOf(client: Etcd3, prefix: string): FleetReader {
  let byPrefix = readers.get(client);
  if (!byPrefix) readers.set(client, (byPrefix = new Map()));
  let reader = byPrefix.get(prefix);
  if (!reader) byPrefix.set(prefix, (reader = createFleetReader({ client, prefix, cacheSize: 0 })));
  return reader;
}

/** The fleet at the current revision, folded; a compaction between pages restarts it once. */
export async function readFolded(client: Etcd3, prefix: string): Promise<FoldedRead> {
  const read = await readerOf(client, prefix).readFleetWithKvs();
  return { snapshot: read.snapshot, demand: new DemandIndex(read.tables) };
}
