// One cycle of the simulated leader, as the master runs it every PLANNER_RECONCILE_SECS
// (scheduler-model.md §6.1): the demand cache reconciled (./reconcile.ts), the shadow pass's
// rows replaced (./shadow-pass.ts), unbound assignments released at their bind deadline
// (./bind-deadlines.ts) and, once the planner canary has started, the planner-mode tables'
// merges placed by the plan (./canary.ts), from one read at one revision, written under the
// leader's token.
import type { TableDemand } from "@/lib/schema/demand";
import { foldSnapshot } from "@/lib/snapshot/demand-index";
import type { EtcdClient as Etcd3 } from "@/lib/etcd/client";
import { readPrefixesAtRevision } from "@/lib/etcd/paged-read";
import { writeChunked } from "@/lib/etcd/writes";
import { KEY_DIRS, keys } from "@/lib/schema/keys";
import { buildSnapshot, groupByFamily } from "@/lib/snapshot/build";
import type { FleetSnapshot } from "@/lib/snapshot/types";
import { bindDeadlineOps } from "./bind-deadlines";
import type { World } from "./world";
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
  /** planner-mode merges assigned (the canary) */
  assigned: number;
}

/** The world whose planner canary the cycle places for (./world.ts `plannerCycle`). */
type CycleWorld = Pick<World, "canary" | "plannerCycle">;

/** The families a cycle reads. */
const CYCLE_FAMILIES = (prefix: string) => [
  keys.demandEvents(prefix),
  keys.demandTables(prefix),
  keys.executors(prefix),
  keys.assignments(prefix),
];

/**
 * And what the plan reads besides, once tables are in planner mode: policies, the legacy
 * queue and fences (not `tasks/`: the turn history matters to a table with units of two
 * kinds, and the canary's have merges only).
 */
const PLAN_FAMILIES = [
  KEY_DIRS.policies,
  KEY_DIRS.queue,
  KEY_DIRS.running,
  KEY_DIRS.cooldown,
  KEY_DIRS.mergeFailures,
  KEY_DIRS.targetLocks,
  KEY_DIRS.mergeExecutions,
  KEY_DIRS.mergeProgress,
  KEY_DIRS.claims,
  KEY_DIRS.mergeClaims,
  KEY_DIRS.catchupActive,
  KEY_DIRS.compactPreparations,
  KEY_DIRS.compactCommitReady,
];

/** A cycle's writes for one snapshot of its families (`folded`: its demand events folded, once for the cycle). */
function masterCycleOps(
  snapshot: FleetSnapshot,
  folded: ReadonlyMap<string, TableDemand>,
  leaderToken: string,
  now: number,
) {
  const cache = reconcileOps(snapshot, now, folded);
  const shadow = shadowPassOps(snapshot, leaderToken, now, folded);
  const released = bindDeadlineOps(snapshot.assignments, now);
  return { cache, shadow, released, all: [...cache, ...shadow, ...released] as SimOp[] };
}

export async function runMasterCycle(
  client: Etcd3,
  prefix: string,
  leaderToken: string,
  now: number,
  world?: CycleWorld,
): Promise<CycleResult> {
  const planning = world?.canary.started === true;
  const families = [...CYCLE_FAMILIES(prefix), ...(planning ? PLAN_FAMILIES.map((d) => `${prefix}/${d}`) : [])];
  const { revision, kvsByPrefix } = await readPrefixesAtRevision(client, families, { probePrefix: prefix });
  const snapshot = buildSnapshot(prefix, revision, groupByFamily(prefix, [...kvsByPrefix.values()].flat()));
  const folded = foldSnapshot(snapshot);
  const ops = masterCycleOps(snapshot, folded, leaderToken, now);
  const placed = planning ? world.plannerCycle(snapshot, now, folded) : { ops: [], assigned: [] };
  const all = [...ops.all, ...placed.ops];
  if (all.length > 0) await writeChunked(client, all, { guard: { key: keys.leaderToken(prefix), value: leaderToken } });
  // written: the executors bind them from their next tick
  world?.canary.assigned(placed.assigned);
  return {
    revision,
    cache: ops.cache.length,
    placements: ops.shadow.filter((op) => op.type === "put").length,
    released: ops.released.length,
    assigned: placed.assigned.length,
  };
}
