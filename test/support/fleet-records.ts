// Small, valid scheduler records (scheduler-model.md §2) for reliability tests that need
// exact control over which keys change when (the simulator covers realistic fleets).
import type { Put } from "./etcd-http";

const hex = (s: string) => Buffer.from(s, "utf8").toString("hex");

/** Fixed clock for generated records: 2026-01-01T00:00:00Z. */
const RECORD_NOW_MS = 1_767_225_600_000;

/**
 * One DemandEvent per (table, shard) (§2.1): `sealed_through = sealed`, merged through
 * `sealed - pending` (pending = 5 unless given), flushed a minute before RECORD_NOW_MS.
 */
export function demandEventPuts(prefix: string, tables: string[], shards: number, sealed: number, pending = 5): Put[] {
  const puts: Put[] = [];
  for (const target of tables) {
    for (let s = 0; s < shards; s++) {
      const shard = `shard-${s}`;
      const merged = Math.max(0, sealed - pending);
      const sealedTimes: Record<string, number> = {};
      for (let g = merged + 1; g <= sealed; g++) sealedTimes[String(g)] = RECORD_NOW_MS - 60_000 - (sealed - g) * 1000;
      puts.push({
        key: `${prefix}/demand-events/${hex(target)}/${shard}`,
        value: JSON.stringify({
          v: 1,
          shard,
          sealed_through: sealed,
          sealed_bytes_through: sealed * 1024,
          merged_through: merged,
          flushed_at_ms: RECORD_NOW_MS - 60_000,
          writer_epoch: 1,
          source: "writer",
          ...(pending > 0 ? { sealed_times: sealedTimes } : {}),
        }),
      });
    }
  }
  return puts;
}

/** A live heartbeat (§2.4) for executor `id` with `mergeSlots` merge slots and 8 GiB. */
export function heartbeatPut(prefix: string, id: string, mergeSlots = 4, heartbeatMs = RECORD_NOW_MS): Put {
  return {
    key: `${prefix}/executors/${id}`,
    value: JSON.stringify({
      v: 1,
      kind: "resident_master",
      instance: id,
      version: "0.1.0",
      kinds: ["index_id", "repair", "compact", "merge_wal"],
      slots_total: { merge_wal: mergeSlots, compact: 1, index_id: 1, repair: 1 },
      bytes_total: 8 * 1024 ** 3,
      bytes_free_sample: 4 * 1024 ** 3,
      draining: false,
      heartbeat_ms: heartbeatMs,
    }),
  };
}

/**
 * A merge execution record (§2.8 Execution, `merge-executions/<hex(target)>`): `id` running on
 * `instance` at `endpoint`, with the default 600 s idle timeout unless `extra` says otherwise.
 */
export function executionRecord(
  id: string,
  target: string,
  where: { endpoint: string; instance: string },
  extra: Record<string, unknown> = {},
): string {
  return JSON.stringify({
    id,
    target,
    endpoint: where.endpoint,
    instance: where.instance,
    timeout_secs: 3600,
    queue_timeout_secs: 600,
    idle_timeout_secs: 600,
    phase: "running",
    reclaimed: false,
    error: null,
    protocol: 2,
    ...extra,
  });
}
