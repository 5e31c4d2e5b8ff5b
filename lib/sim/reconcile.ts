// The master's demand-cache reconcile (scheduler-model.md §6.1 steps 1–7), as the live
// simulator's leader runs it: a paged read of `demand-events/` at one revision, the §3.6
// fold, a paged read of `demand/`, then puts of changed rows (updated_ms = now) and deletes
// of parseable rows whose table has no events, in chunked txns guarded by the leader token.
import type { Etcd3 } from "etcd3";
import { readPrefixPaged } from "@/lib/etcd/paged-read";
import { writeChunked, type LeasedWriteOp } from "@/lib/etcd/writes";
import { planCacheWrites, type CacheRow } from "@/lib/planner/cache";
import { foldEvents } from "@/lib/planner/fold-events";
import { parseTableDemand, stringifyTableDemand } from "@/lib/schema/demand";
import { keys, unhex } from "@/lib/schema/keys";

export interface ReconcileResult {
  revision: number;
  puts: number;
  deletes: number;
}

export async function reconcileDemandCache(client: Etcd3, prefix: string, leaderToken: string, now = Date.now()): Promise<ReconcileResult> {
  const events = await readPrefixPaged(client, keys.demandEvents(prefix));
  const folded = foldEvents(
    events.kvs.map((kv) => ({ key: kv.key, value: kv.value.toString("utf8"), modRevision: kv.modRevision })),
    prefix,
    now,
  );
  const rowsPrefix = keys.demandTables(prefix);
  const rows = await readPrefixPaged(client, rowsPrefix, { revision: events.revision });
  const existing: CacheRow[] = [];
  for (const kv of rows.kvs) {
    const target = unhex(kv.key.slice(rowsPrefix.length));
    if (target === null) continue;
    const parsed = parseTableDemand(kv.value.toString("utf8"));
    existing.push({ target, record: parsed.ok ? parsed.value : null });
  }
  const writes = planCacheWrites(folded.tables, existing, now);
  const ops: LeasedWriteOp[] = [
    ...writes.puts.map((p): LeasedWriteOp => ({ type: "put", key: keys.demandTable(prefix, p.target), value: stringifyTableDemand(p.record) })),
    ...writes.deletes.map((t): LeasedWriteOp => ({ type: "delete", key: keys.demandTable(prefix, t) })),
  ];
  if (ops.length > 0) await writeChunked(client, ops, { guard: { key: keys.leaderToken(prefix), value: leaderToken } });
  return { revision: events.revision, puts: writes.puts.length, deletes: writes.deletes.length };
}
