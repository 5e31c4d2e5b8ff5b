// One cycle of the simulated leader, as the master runs it every PLANNER_RECONCILE_SECS
// (scheduler-model.md §6.1): the demand cache reconciled (./reconcile.ts), the shadow pass's
// rows replaced (./shadow-pass.ts) and unbound assignments released at their bind deadline
// (./bind-deadlines.ts), from one read at one revision, written under the leader's token.
import type { EtcdClient as Etcd3 } from "@/lib/etcd/client";
import { readPrefixesAtRevision } from "@/lib/etcd/paged-read";
import { writeChunked } from "@/lib/etcd/writes";
import { keys } from "@/lib/schema/keys";
import { buildSnapshot, groupByFamily } from "@/lib/snapshot/build";
import type { FleetSnapshot } from "@/lib/snapshot/types";
import { bindDeadlineOps } from "./bind-deadlines";
import type { SimOp } from "./ops";
import { reconcileOps } from "./reconcile";
import { shadowPassOps } from "./shadow-pass";

export interface CycleResult {
  revision: number;
  /** cache rows put or deleted */
  cache: number;
  /** shadow rows placed */
  placements: number;
  /** assignments released or deleted */
  released: number;
}

/** The families a cycle reads. */
const CYCLE_FAMILIES = (prefix: string) => [
  keys.demandEvents(prefix),
  keys.demandTables(prefix),
  keys.executors(prefix),
  keys.assignments(prefix),
];

/** A cycle's writes for one snapshot of its families. */
function masterCycleOps(snapshot: FleetSnapshot, leaderToken: string, now: number) {
  const cache = reconcileOps(snapshot, now);
  const shadow = shadowPassOps(snapshot, leaderToken, now);
  const released = bindDeadlineOps(snapshot.assignments, now);
  return { cache, shadow, released, all: [...cache, ...shadow, ...released] as SimOp[] };
}

export async function runMasterCycle(
  client: Etcd3,
  prefix: string,
  leaderToken: string,
  now: number,
): Promise<CycleResult> {
  const { revision, kvsByPrefix } = await readPrefixesAtRevision(client, CYCLE_FAMILIES(prefix), {
    probePrefix: prefix,
  });
  const snapshot = buildSnapshot(prefix, revision, groupByFamily(prefix, [...kvsByPrefix.values()].flat()));
  const ops = masterCycleOps(snapshot, leaderToken, now);
  if (ops.all.length > 0)
    await writeChunked(client, ops.all, { guard: { key: keys.leaderToken(prefix), value: leaderToken } });
  return {
    revision,
    cache: ops.cache.length,
    placements: ops.shadow.filter((op) => op.type === "put").length,
    released: ops.released.length,
  };
}
