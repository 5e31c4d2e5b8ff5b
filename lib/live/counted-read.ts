import "server-only";
// The live cache's full reads (./cache.ts: the live view's first read and re-reads, and the
// pinned views read in full, ./pinned-views.ts) through the one fleet reader
// (lib/snapshot/read.ts), each counted in the read metrics.
import type { EtcdClient } from "@/lib/etcd/client";
import type { ReadHints } from "@/lib/etcd/paged-read";
import { createFleetReader, type FleetRead } from "@/lib/snapshot/read";
import { metrics } from "@/lib/metrics";
import type { FleetSnapshot } from "@/lib/snapshot/types";

/** A full read: the live view's (`full`, at the current revision) or a pinned one's (`pinned`, at `revision`). */
export interface CountedRead {
  (mode: "full" | "pinned", opts: { revision?: number; tasksSinceMs?: number }, reason?: string): Promise<FleetRead>;
  /** what the reads so far taught the reader (lib/etcd/paged-read.ts SplitHints), for another thread's reader */
  hints(): ReadHints;
}

/** `hints`: another reader's, to start from (the offload worker starts from the request thread's). */
export function countedReads(client: EtcdClient, prefix: string, hints?: ReadHints): CountedRead {
  // pinned views are kept by the cache, so the reader keeps no reads of its own
  const reader = createFleetReader({ client, prefix, cacheSize: 0, hints });
  const read = async (
    mode: "full" | "pinned",
    opts: { revision?: number; tasksSinceMs?: number },
    reason = "pinned_revision",
  ) => {
    const m = metrics();
    const started = performance.now();
    const result = await reader.readFleetWithKvs(opts);
    m.fullReads.inc({ reason });
    m.snapshotReadSeconds.observe({ mode }, (performance.now() - started) / 1000);
    m.pages.inc(result.snapshot.stats.pages);
    m.pageShrinks.inc(result.snapshot.stats.shrinks);
    m.readBytes.inc(result.snapshot.stats.bytes);
    return result;
  };
  return Object.assign(read, { hints: () => reader.hints() });
}

/** The live view's skipped records, by reason, as the `skipped` gauge (set after each full read). */
export function recordSkipped(snapshot: FleetSnapshot): void {
  const gauge = metrics().skipped;
  gauge.reset();
  for (const s of snapshot.skipped) gauge.inc({ reason: s.reason });
}
