// The master's shadow pass (scheduler-model.md §6.2), as the live simulator's leader runs it
// after each cache reconcile (§6: "(8) load headroom …, then the shadow pass"): every table
// scored from the folded demand at one revision, sorted in planner order, placed against
// headroom that holds no shadow rows, and the shadow rows replaced wholesale under the
// leader token. The same pure planner functions the console's shadow comparison runs, so a
// healthy P1 fleet shows the console and the master agreeing on where merges would go,
// except where the fleet moved between the master's pass and the console's sample.
import type { EtcdClient as Etcd3 } from "@/lib/etcd/client";
import { readPrefixesAtRevision } from "@/lib/etcd/paged-read";
import { writeChunked, type LeasedWriteOp } from "@/lib/etcd/writes";
import { scoreTables } from "@/lib/planner/score";
import { shadowPass } from "@/lib/planner/shadow";
import { keys } from "@/lib/schema/keys";
import { buildSnapshot, groupByFamily } from "@/lib/snapshot/build";
import { foldSnapshot } from "@/lib/snapshot/demand-index";

export interface ShadowPassResult {
  revision: number;
  placements: number;
  deletes: number;
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
  const pass = shadowPass({
    scored: scoreTables(foldSnapshot(snapshot), now),
    heartbeats: snapshot.executors,
    assignments: snapshot.assignments.map((a) => ({ key: a.key, assignment: a.assignment })),
    now,
    plannerToken: leaderToken,
    unitId: (_unit, i) => `shadow-${now.toString(36)}-${i}`,
  });
  const ops: LeasedWriteOp[] = pass.deletes.map((key) => ({ type: "delete", key }));
  for (const p of pass.placements)
    ops.push({
      type: "put",
      key: keys.assignment(prefix, p.unit.target, p.assignment.unit_id),
      value: JSON.stringify(p.assignment),
    });
  if (ops.length > 0) await writeChunked(client, ops, { guard: { key: keys.leaderToken(prefix), value: leaderToken } });
  return { revision, placements: pass.placements.length, deletes: pass.deletes.length };
}
