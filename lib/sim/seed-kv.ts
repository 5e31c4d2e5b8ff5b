// What a scenario produces: kvs in the real wire format, written by ./load.ts.
import { stringifyDemandEvent, type DemandEventInput } from "@/lib/schema/demand";
import { keys } from "@/lib/schema/keys";

export interface SeedKv {
  key: string;
  value: string;
  /** attach to the seed lease (heartbeats, leader, claims, leased locks and cooldowns) */
  leased?: boolean;
  /**
   * carries the real time of its write (a heartbeat's `heartbeat_ms`): written in a txn of its
   * own before the rest, so every revision of the load is dated by it (console-api.md "Time",
   * `record_timestamps`) and not by a backdated flush time
   */
  dated?: boolean;
}

/** Deterministic PRNG (mulberry32): scenarios are the same on every run. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const pad = (n: number, width = 5) => String(n).padStart(width, "0");

/** Shard ids shaped like the master's UUIDs. */
export const shardId = (table: number, shard: number) =>
  `${pad(table, 8).slice(-8)}-0000-4000-8000-${pad(shard + 1, 12)}`;

export function demandEventKv(prefix: string, target: string, event: DemandEventInput): SeedKv {
  return { key: keys.demandEvent(prefix, target, event.shard), value: stringifyDemandEvent(event) };
}

/**
 * Flush times of a shard's pending generations, capped like the stored join (§3.3):
 * the 63 lowest pending generations plus the highest.
 */
export function pendingTimes(merged: number, sealed: number, timeOf: (g: number) => number): Record<string, number> {
  const times: Record<string, number> = {};
  for (let g = merged + 1; g <= sealed && g <= merged + 63; g++) times[String(g)] = timeOf(g);
  if (sealed > merged) times[String(sealed)] = timeOf(sealed);
  return times;
}
