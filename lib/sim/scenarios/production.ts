// scheduler-model.md §10 T23, exactly: 13,405 tables `exp-00000…`, two shards each,
// pending p = i % 50 on each shard (Σ pending 656,620; 13,136 tables with pending > 0).
import { keys } from "@/lib/schema/keys";
import { stringifyDemandEvent } from "@/lib/schema/demand";
import { pad, type SeedKv } from "../seed-kv";

export const PRODUCTION_TABLES = 13_405;
export const PRODUCTION_SHARDS = [
  "aaaaaaaa-0000-0000-0000-000000000001",
  "aaaaaaaa-0000-0000-0000-000000000002",
] as const;
const BASE_MS = 1_700_000_000_000;
const BYTES = 64 * 1024 * 1024;

export function productionTarget(i: number): string {
  return `exp-${pad(i)}`;
}

export function* productionKvs(prefix: string): Generator<SeedKv> {
  for (let i = 0; i < PRODUCTION_TABLES; i++) {
    const target = productionTarget(i);
    const p = i % 50;
    const sealed = 1000 + p;
    const times: Record<string, number> = {};
    for (let g = 1001; g <= sealed; g++) times[String(g)] = BASE_MS + g;
    for (const shard of PRODUCTION_SHARDS) {
      const value = stringifyDemandEvent({
        v: 1,
        shard,
        sealed_through: sealed,
        sealed_bytes_through: BYTES,
        merged_through: 1000,
        flushed_at_ms: BASE_MS + sealed,
        writer_epoch: 3,
        source: "scan",
        sealed_times: times,
      });
      yield { key: keys.demandEvent(prefix, target, shard), value };
    }
  }
}
