// A tiny fleet for the policy tests (integration and e2e): tables with a few pending
// generations each (below the built-in merge.min_generations of 8) and one idle executor,
// so lowering min_generations for one table changes its class and verdict.
import { hex, keys } from "@/lib/schema/keys";
import { DEFAULT_POLICY_TARGET } from "@/lib/schema/policy";
import { stringifyDemandEvent } from "@/lib/schema/demand";

export const POLICY_TABLES = ["orders/eu", "orders/us", "clicks"] as const;
const PENDING_PER_TABLE = 5;
export const EXECUTOR_ID = "exec-a";

/** Any etcd put (the console's client in integration tests, the JSON gateway in e2e). */
export type PutKv = (key: string, value: string) => Promise<number>;

/** One shard per table with `pending` generations, flushed a minute ago. */
export async function seedTables(
  put: PutKv,
  prefix: string,
  nowMs: number,
  pendingByTarget: Record<string, number>,
): Promise<number> {
  let revision = 0;
  for (const [i, [target, pending]] of Object.entries(pendingByTarget).entries()) {
    const shard = `${String(i).padStart(8, "0")}-0000-4000-8000-000000000001`;
    const times: Record<string, number> = {};
    // the newest 64 generations keep their flush times (§2.1), one second apart
    const first = Math.max(1, pending - 63);
    for (let g = first; g <= pending; g++) times[String(g)] = nowMs - 120_000 + (g - first + 1) * 1000;
    const event = stringifyDemandEvent({
      v: 1,
      shard,
      sealed_through: pending,
      sealed_bytes_through: 1_000_000,
      merged_through: 0,
      merged_epoch: 1,
      flushed_at_ms: nowMs - 60_000,
      writer_epoch: 1,
      source: "writer",
      sealed_times: times,
    });
    revision = await put(keys.demandEvent(prefix, target, shard), event);
  }
  return revision;
}

/** Writes the fleet and returns the revision after it. */
export async function seedPolicyFleet(put: PutKv, prefix: string, nowMs: number): Promise<number> {
  await seedTables(put, prefix, nowMs, Object.fromEntries(POLICY_TABLES.map((t) => [t, PENDING_PER_TABLE])));
  const heartbeat = {
    v: 1,
    kind: "resident_master",
    instance: "master-0",
    version: "test",
    kinds: ["merge_wal", "compact", "index_id", "repair"],
    slots_total: { merge_wal: 2, compact: 1, index_id: 1, repair: 1 },
    bytes_total: 0,
    bytes_free_sample: 0,
    draining: false,
    heartbeat_ms: nowMs,
  };
  return put(keys.executor(prefix, EXECUTOR_ID), JSON.stringify(heartbeat));
}

/** `P/policies/_default` or `P/policies/<hex(target)>` (scheduler-model.md §1.1), spelled out so e2e needs no server module. */
export const policyKey = (prefix: string, target: string) =>
  `${prefix}/policies/${target === DEFAULT_POLICY_TARGET ? target : hex(target)}`;
