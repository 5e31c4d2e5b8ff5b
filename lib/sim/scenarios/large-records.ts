// `large-records` (§8.3 tested shapes): 512 tables × 8 shards and 100 tables × 20 shards,
// every event with a full 64-entry `sealed_times`, plus the leader's `demand/` cache row
// per table (~12 KB and ~27 KB). Well over 4 MiB per family: one 512-key page of
// `demand/` is over the 4 MiB response cap, so the reader must shrink (§8.1).
import { stringifyTableDemand, type ShardDemand } from "@/lib/schema/demand";
import { SealedTimes } from "@/lib/schema/sealed-times";
import { keys } from "@/lib/schema/keys";
import { demandEventKv, pad, type SeedKv } from "../seed-kv";

export const LARGE_SMALL_TABLES = 512;
export const LARGE_SMALL_SHARDS = 8;
export const LARGE_WIDE_TABLES = 100;
export const LARGE_WIDE_SHARDS = 20;
const BASE_MS = 1_700_000_000_000;

const largeTarget = (wide: boolean, i: number) => (wide ? `large/wide-${pad(i, 3)}` : `large/narrow-${pad(i, 3)}`);

const shardOf = (wide: boolean, i: number, s: number) =>
  `${wide ? "bbbbbbbb" : "cccccccc"}-${pad(i, 4)}-0000-0000-${pad(s + 1, 12)}`;

/** 64 flush times: generations 1,000,001..1,000,064 (merged 1,000,000 → 64 pending per shard). */
function fullTimes(): Record<string, number> {
  const times: Record<string, number> = {};
  for (let g = 1_000_001; g <= 1_000_064; g++) times[String(g)] = BASE_MS + g;
  return times;
}

export function* largeRecordKvs(prefix: string, now: number): Generator<SeedKv> {
  const times = fullTimes();
  for (const [wide, count, shards] of [
    [false, LARGE_SMALL_TABLES, LARGE_SMALL_SHARDS],
    [true, LARGE_WIDE_TABLES, LARGE_WIDE_SHARDS],
  ] as const) {
    for (let i = 0; i < count; i++) {
      const target = largeTarget(wide, i);
      const row: Record<string, ShardDemand> = {};
      for (let s = 0; s < shards; s++) {
        const shard = shardOf(wide, i, s);
        yield demandEventKv(prefix, target, {
          v: 1,
          shard,
          sealed_through: 1_000_064,
          sealed_bytes_through: 64 * 1_048_576,
          merged_through: 1_000_000,
          flushed_at_ms: BASE_MS + 1_000_064,
          writer_epoch: 5,
          source: "writer",
          sealed_times: times,
        });
        row[shard] = {
          sealed: { epoch: 5, value: 1_000_064 },
          merged: { epoch: 5, value: 1_000_000 },
          sealed_bytes: 64 * 1_048_576,
          sealed_times: SealedTimes.fromRecord(times),
        };
      }
      yield {
        key: keys.demandTable(prefix, target),
        value: stringifyTableDemand({
          v: 1,
          shards: row,
          fragment_count: 0,
          index_stale: false,
          uncovered_fragments: 0,
          missing_fragments: false,
          observed_revision: 1,
          updated_ms: now,
        }),
      };
    }
  }
}
