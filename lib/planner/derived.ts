// Derived demand numbers, recomputed on read and never stored (scheduler-model.md §3.4).
import type { ShardDemand, TableDemand } from "@/lib/schema";

/** Exact: the oldest pending generation's own flush time is kept. Upper: only a later one
 * is kept, so the true flush time is at or before it (a lower bound on the wait). */
type AgeBound = "exact" | "upper";

export interface ShardDerived {
  pending: number;
  oldest_pending_ms: number | null;
  bound: AgeBound | null;
}

function shardPending(shard: ShardDemand): number {
  const merged = shard.merged === null ? 0 : shard.merged.value;
  return shard.sealed.value > merged ? shard.sealed.value - merged : 0;
}

/** Oldest pending flush time with its bound; null when nothing is pending or no time is kept. */
function shardOldestPending(shard: ShardDemand): { ms: number; bound: AgeBound } | null {
  if (shardPending(shard) === 0) return null;
  const g0 = (shard.merged === null ? 0 : shard.merged.value) + 1;
  const times = shard.sealed_times;
  const i = times.indexFrom(g0); // the lowest kept generation ≥ g0 (numeric compare)
  if (i >= times.size) return null;
  return { ms: times.timeAt(i), bound: times.generationAt(i) === g0 ? "exact" : "upper" };
}

export function deriveShard(shard: ShardDemand): ShardDerived {
  const oldest = shardOldestPending(shard);
  return { pending: shardPending(shard), oldest_pending_ms: oldest?.ms ?? null, bound: oldest?.bound ?? null };
}

export interface TableDerived {
  pending_generations: number;
  /** Σ sealed_bytes over shards with pending > 0: bytes *through sealed*, an approximation */
  pending_bytes: number;
  /** min over shards, any bound (display) */
  oldest_pending_ms: number | null;
  /** min over shards whose bound is exact (drives the age boost) */
  oldest_pending_exact_ms: number | null;
  /** min over shards, any bound (drives promotion; equal to oldest_pending_ms) */
  oldest_pending_wait_floor_ms: number | null;
  shards: number;
  shards_pending: number;
}

export function deriveTable(table: TableDemand): TableDerived {
  let pending = 0;
  let bytes = 0;
  let oldest: number | null = null;
  let exact: number | null = null;
  let shards = 0;
  let shardsPending = 0;
  for (const id in table.shards) {
    const shard = table.shards[id];
    shards++;
    const merged = shard.merged === null ? 0 : shard.merged.value;
    if (shard.sealed.value <= merged) continue;
    shardsPending++;
    pending += shard.sealed.value - merged;
    bytes += shard.sealed_bytes;
    // oldest pending (inline version of shardOldestPending: no allocation per shard)
    const times = shard.sealed_times;
    const i = times.indexFrom(merged + 1);
    if (i >= times.size) continue;
    const ms = times.timeAt(i);
    const isExact = times.generationAt(i) === merged + 1;
    if (oldest === null || ms < oldest) oldest = ms;
    if (isExact && (exact === null || ms < exact)) exact = ms;
  }
  return {
    pending_generations: pending,
    pending_bytes: bytes,
    oldest_pending_ms: oldest,
    oldest_pending_exact_ms: exact,
    oldest_pending_wait_floor_ms: oldest,
    shards,
    shards_pending: shardsPending,
  };
}
