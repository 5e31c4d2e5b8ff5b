// The master's demand-cache reconcile (scheduler-model.md §6.1 steps 1–7), as the live
// simulator's leader runs it: `demand-events/` and `demand/` read at one revision, the
// §3.6 fold (the same parsers and DemandIndex fold the console serves with), then puts of
// changed or missing rows (updated_ms = now; unparseable rows are rewritten) and deletes of
// parseable rows whose table has no events, in chunked txns guarded by the leader token.
import type { EtcdClient as Etcd3 } from "@/lib/etcd/client";
import { readPrefixesAtRevision } from "@/lib/etcd/paged-read";
import { writeChunked } from "@/lib/etcd/writes";
import { sameTableDemand } from "@/lib/planner/cache";
import { stringifyTableDemand, type TableDemand } from "@/lib/schema/demand";
import { keys } from "@/lib/schema/keys";
import { buildSnapshot, groupByFamily } from "@/lib/snapshot/build";
import { foldSnapshot } from "@/lib/snapshot/demand-index";
import type { FleetSnapshot } from "@/lib/snapshot/types";
import { del, put, type SimOp } from "./ops";

export interface ReconcileResult {
  revision: number;
  puts: number;
  deletes: number;
}

/** The reconcile's writes for one snapshot (its `demandEvents` and `demandTables`; `folded`: its events folded, when the caller has them). */
export function reconcileOps(
  snapshot: FleetSnapshot,
  now: number,
  folded: ReadonlyMap<string, TableDemand> = foldSnapshot(snapshot),
): SimOp[] {
  const { prefix } = snapshot;
  const rows = new Map(snapshot.demandTables.map((row) => [row.target, row.record]));
  const ops: SimOp[] = [];
  for (const [target, record] of folded) {
    const row = rows.get(target);
    if (row !== undefined && sameTableDemand(record, row, true)) continue;
    ops.push(put(keys.demandTable(prefix, target), stringifyTableDemand({ ...record, updated_ms: now })));
  }
  for (const target of rows.keys()) if (!folded.has(target)) ops.push(del(keys.demandTable(prefix, target)));
  return ops;
}

export async function reconcileDemandCache(
  client: Etcd3,
  prefix: string,
  leaderToken: string,
  now = Date.now(),
): Promise<ReconcileResult> {
  const { revision, kvsByPrefix } = await readPrefixesAtRevision(
    client,
    [keys.demandEvents(prefix), keys.demandTables(prefix)],
    { probePrefix: prefix },
  );
  const snapshot = buildSnapshot(prefix, revision, groupByFamily(prefix, [...kvsByPrefix.values()].flat()));
  const ops = reconcileOps(snapshot, now);
  if (ops.length > 0) await writeChunked(client, ops, { guard: { key: keys.leaderToken(prefix), value: leaderToken } });
  const puts = ops.filter((op) => op.type === "put").length;
  return { revision, puts, deletes: ops.length - puts };
}
