// The production scenario (scheduler-model.md §10 T23, from lib/sim) for load runs,
// written through etcd's JSON gateway, and the write bursts of the load run.
import { productionKvs, productionTarget, PRODUCTION_SHARDS, PRODUCTION_TABLES } from "@/lib/sim/scenarios/production";
import type { EtcdHttp, Put } from "./etcd-http";
import { heartbeatPut } from "./fleet-records";

const hex = (s: string) => Buffer.from(s, "utf8").toString("hex");

/** Burst `b`: 10 production tables advance one generation (merged follows), in one txn. */
export function productionBurst(prefix: string, b: number, tables = 10, fleetSize = PRODUCTION_TABLES): Put[] {
  const puts: Put[] = [];
  for (let k = 0; k < tables; k++) {
    const i = (b * 37 + k * 7919) % fleetSize;
    const p = i % 50;
    const merged = 1000 + b;
    const sealed = merged + p + 1;
    const times: Record<string, number> = {};
    for (let g = Math.max(merged + 1, sealed - 63); g <= sealed; g++) times[String(g)] = 1_700_000_000_000 + g;
    for (const shard of PRODUCTION_SHARDS) {
      puts.push({
        key: `${prefix}/demand-events/${hex(productionTarget(i))}/${shard}`,
        value: JSON.stringify({
          v: 1,
          shard,
          sealed_through: sealed,
          sealed_bytes_through: 64 * 1024 * 1024,
          merged_through: merged,
          flushed_at_ms: 1_700_000_000_000 + sealed,
          writer_epoch: 3,
          source: "writer",
          sealed_times: times,
        }),
      });
    }
  }
  return puts;
}

/** Seeds the production scenario (its first `tables` tables) plus six executors; returns the seeded revision. */
export async function seedProduction(
  etcd: EtcdHttp,
  prefix: string,
  log: (s: string) => void,
  tables = PRODUCTION_TABLES,
): Promise<number> {
  const started = Date.now();
  const kvs = [...productionKvs(prefix)]
    .slice(0, tables * PRODUCTION_SHARDS.length)
    .map((kv) => ({ key: kv.key, value: kv.value }));
  const executors = Array.from({ length: 6 }, (_, i) => heartbeatPut(prefix, `executor-${i}`, 2 + (i % 3), Date.now()));
  const revision = await etcd.putMany([...kvs, ...executors]);
  log(
    `seeded ${kvs.length} demand events + 6 executors in ${((Date.now() - started) / 1000).toFixed(1)} s (revision ${revision})`,
  );
  return revision;
}
