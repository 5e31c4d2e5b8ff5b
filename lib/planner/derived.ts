// Derived demand numbers, recomputed on read and never stored (scheduler-model.md §3.4).
import type { ShardDemand, TableDemand } from "@/lib/schema";

/** Exact: the oldest pending generation's own flush time is kept. Upper: only a later one
 * is kept, so the true flush time is at or before it (a lower bound on the wait). */
export type AgeBound = "exact" | "upper";

export interface ShardDerived {
  pending: number;
  oldest_pending_ms: number | null;
  bound: AgeBound | null;
}

export function shardPending(shard: ShardDemand): number {
  const merged = shard.merged === null ? 0 : shard.merged.value;
  return shard.sealed.value > merged ? shard.sealed.value - merged : 0;
}

/** Oldest pending flush time with its bound; null when nothing is pending or no time is kept. */
export function shardOldestPending(shard: ShardDemand): { ms: number; bound: AgeBound } | null {
  if (shardPending(shard) === 0) return null;
  const g0 = (shard.merged === null ? 0 : shard.merged.value) + 1;
  const exact = shard.sealed_times[g0]; // numeric key: same entry as times[String(g0)], no conversion
  if (exact !== undefined) return { ms: exact, bound: "exact" };
  const upper = firstKeptTimeFrom(shard.sealed_times, g0);
  return upper === undefined ? null : { ms: upper, bound: "upper" };
}

/** Time of the lowest kept generation ≥ g0 (numeric compare), if any. */
function firstKeptTimeFrom(times: ShardDemand["sealed_times"], g0: number): number | undefined {
  let bestGeneration = Infinity;
  let bestMs: number | undefined;
  for (const k in times) {
    const g = Number(k);
    if (g >= g0 && g < bestGeneration) {
      bestGeneration = g;
      bestMs = times[k];
    }
  }
  return bestMs;
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
    let ms: number | undefined = shard.sealed_times[merged + 1];
    let isExact = true;
    if (ms === undefined) {
      ms = firstKeptTimeFrom(shard.sealed_times, merged + 1);
      if (ms === undefined) continue;
      isExact = false;
    }
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
