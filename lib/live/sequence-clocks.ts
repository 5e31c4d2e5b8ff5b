import "server-only";
// The sequence clocks a full read starts from (lib/live/cache.ts): when each execution's
// merge-progress sequence last moved, as far as this replica can tell after a (re-)read.
import type { EtcdClient } from "@/lib/etcd/client";
import { advanceSequenceClock, type SequenceClock } from "@/lib/planner/progress";
import type { FleetSnapshot } from "@/lib/snapshot/types";
import { readShadowHistory } from "@/lib/time/sampler";

/**
 * When each execution's progress sequence last moved, as far as this replica can tell:
 * what it saw itself, else the time of the first shadow-history sample whose revision is
 * at or past the progress key's mod_revision (the change happened before that sample),
 * else the read time. All are upper bounds on the change time, so a stall is never
 * claimed early.
 */
export async function initialClocks(
  client: EtcdClient,
  prefix: string,
  snapshot: FleetSnapshot,
  previous: Map<string, SequenceClock> | undefined,
): Promise<Map<string, SequenceClock>> {
  const clocks = new Map<string, SequenceClock>();
  if (snapshot.mergeProgress.length === 0) return clocks;
  const samples = await readShadowHistory(client, prefix, snapshot.readAtMs - 24 * 3600_000, snapshot.readAtMs).catch(
    () => [],
  );
  for (const p of snapshot.mergeProgress) {
    const sample = { execution_id: p.executionId, sequence: p.progress.sequence };
    const seen = previous?.get(p.executionId) ?? null;
    const fromHistory = samples.find((x) => x.revision >= p.modRevision)?.at_ms;
    const since = Math.min(snapshot.readAtMs, fromHistory ?? Infinity);
    clocks.set(p.executionId, advanceSequenceClock(seen, sample, since));
  }
  return clocks;
}
