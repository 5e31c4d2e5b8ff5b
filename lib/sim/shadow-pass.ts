// The master's shadow pass (scheduler-model.md §6.2), as the live simulator's leader runs it
// after each cache reconcile (§6: "(8) load headroom …, then the shadow pass"): every table
// scored from the folded demand at one revision, sorted in planner order, placed against
// headroom that holds no shadow rows, and the shadow rows replaced wholesale under the
// leader token. The same pure planner functions the console's shadow comparison runs, so a
// healthy P1 fleet shows the console and the master agreeing on where merges would go,
// except where the fleet moved between the master's pass and the console's sample.
import type { TableDemand } from "@/lib/schema/demand";
import type { EtcdClient as Etcd3 } from "@/lib/etcd/client";
import { readPrefixesAtRevision } from "@/lib/etcd/paged-read";
import { writeChunked } from "@/lib/etcd/writes";
import { scoreTables } from "@/lib/planner/score";
import { shadowPass } from "@/lib/planner/shadow";
import { keys } from "@/lib/schema/keys";
import { buildSnapshot, groupByFamily } from "@/lib/snapshot/build";
import { foldSnapshot } from "@/lib/snapshot/demand-index";
import type { FleetSnapshot } from "@/lib/snapshot/types";
import { del, put, type SimOp } from "./ops";

export interface ShadowPassResult {
  revision: number;
  placements: number;
  deletes: number;
}

/** The pass's writes for one snapshot (its demand events, executors and assignments; `folded`: its events folded, when the caller has them). */
export function shadowPassOps(
  snapshot: FleetSnapshot,
  leaderToken: string,
  now: number,
  folded: ReadonlyMap<string, TableDemand> = foldSnapshot(snapshot),
): SimOp[] {
  const pass = shadowPass({
    scored: scoreTables(folded, now),
    heartbeats: snapshot.executors,
    assignments: snapshot.assignments.map((a) => ({ key: a.key, assignment: a.assignment })),
    now,
    plannerToken: leaderToken,
    unitId: (_unit, i) => `shadow-${now.toString(36)}-${i}`,
  });
  const ops: SimOp[] = pass.deletes.map((key) => del(key));
  for (const p of pass.placements)
    ops.push(put(keys.assignment(snapshot.prefix, p.unit.target, p.assignment.unit_id), JSON.stringify(p.assignment)));
  return ops;
}

export async function runMasterShadowPass(
  client: Etcd3,
  prefix: string,
  leaderToken: string,
  now = Date.now(),
): Promise<ShadowPassResult> {
  const { revision, kvsByPrefix } = await readPrefixesAtRevision(
    client,
    [keys.demandEvents(prefix), keys.executors(prefix), keys.assignments(prefix)],
    { probePrefix: prefix },
  );
  const snapshot = buildSnapshot(prefix, revision, groupByFamily(prefix, [...kvsByPrefix.values()].flat()));
  const ops = shadowPassOps(snapshot, leaderToken, now);
  if (ops.length > 0) await writeChunked(client, ops, { guard: { key: keys.leaderToken(prefix), value: leaderToken } });
  const deletes = ops.filter((op) => op.type === "delete").length;
  return { revision, placements: ops.length - deletes, deletes };
}
