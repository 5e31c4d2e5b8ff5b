// What changed between two PlannerFleets, for a re-plan (replan.ts). Per-table inputs —
// the folded demand, the per-table policy document, the fence records, the write-turn
// history given as `turns` — are compared per target: by identity (the live cache hands
// out the same object for a table a watch event did not touch), fences by value (they are
// rebuilt from their records every revision). Any fleet-wide input decides for every table
// (capacity, rates, the default policy, task history behind turns and ETAs, limits).
import { layeredDifference } from "../layered-map";
import type { PlannerFleet, PlannerLimits } from "./input";

/** Fleet-wide inputs are the same (by identity; limits by value; executors and assignments as the planner reads them). */
export function sameFleetWide(a: PlannerFleet, b: PlannerFleet): boolean {
  return (
    sameCapacity(a.heartbeats, b.heartbeats) &&
    sameAssignments(a.assignments, b.assignments) &&
    a.policies.default === b.policies.default &&
    a.tasks.queued === b.tasks.queued &&
    a.tasks.running === b.tasks.running &&
    a.cooldowns === b.cooldowns &&
    a.failures === b.failures &&
    a.history === b.history &&
    (a.turns === undefined) === (b.turns === undefined) &&
    sameLimits(a.limits, b.limits)
  );
}

/**
 * The planner reads a heartbeat's kind, draining flag, slots and bytes (§5.2 headroom);
 * a heartbeat that only moved its clock (`heartbeat_ms`, the free-bytes sample) plans the same.
 */
function sameCapacity(a: PlannerFleet["heartbeats"], b: PlannerFleet["heartbeats"]): boolean {
  if (a === b) return true;
  if (a.size !== b.size) return false;
  for (const [id, x] of a) {
    const y = b.get(id);
    if (y === undefined) return false;
    if (x === y) continue;
    if (
      x.kind !== y.kind ||
      x.draining !== y.draining ||
      x.bytes_total !== y.bytes_total ||
      !sameRecord(x.slots_total, y.slots_total)
    )
      return false;
  }
  return true;
}

/**
 * Shadow assignments are the master's own plan, rewritten every pass (§6.2): the planner
 * reads them only as executors an orphan row stands for (lib/planner/headroom.ts). Every
 * other assignment must be the same object in the same place.
 */
function sameAssignments(a: PlannerFleet["assignments"], b: PlannerFleet["assignments"]): boolean {
  if (a === b) return true;
  const shadowA = new Set<string>();
  const shadowB = new Set<string>();
  let i = 0;
  let j = 0;
  for (;;) {
    while (i < a.length && a[i].state === "shadow") shadowA.add(a[i++].executor);
    while (j < b.length && b[j].state === "shadow") shadowB.add(b[j++].executor);
    if (i === a.length || j === b.length) {
      if (i !== a.length || j !== b.length) return false;
      break;
    }
    if (a[i++] !== b[j++]) return false;
  }
  if (shadowA.size !== shadowB.size) return false;
  for (const executor of shadowA) if (!shadowB.has(executor)) return false;
  return true;
}

function sameLimits(a: Partial<PlannerLimits> | undefined, b: Partial<PlannerLimits> | undefined): boolean {
  if (a === b) return true;
  const x: Partial<PlannerLimits> = a ?? {};
  const y: Partial<PlannerLimits> = b ?? {};
  const keys = new Set([...Object.keys(x), ...Object.keys(y)] as (keyof PlannerLimits)[]);
  for (const k of keys) if (x[k] !== y[k]) return false;
  return true;
}

/** Two records with the same keys and values (nested values compared as JSON). */
function sameRecord(a: object | undefined, b: object | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined) return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const keys = Object.keys(x);
  if (keys.length !== Object.keys(y).length) return false;
  for (const k of keys) {
    const u = x[k];
    const v = y[k];
    if (u === v) continue;
    if (
      u === null ||
      v === null ||
      typeof u !== "object" ||
      typeof v !== "object" ||
      JSON.stringify(u) !== JSON.stringify(v)
    )
      return false;
  }
  return true;
}

/** Adds to `out` every key whose value differs between `a` and `b` (or is in one only); stops past `limit`. */
function diffMaps<V>(
  a: ReadonlyMap<string, V>,
  b: ReadonlyMap<string, V>,
  same: (x: V, y: V) => boolean,
  out: Set<string>,
  limit = Infinity,
): void {
  if (a === b) return;
  let common = 0;
  for (const [key, value] of b) {
    const was = a.get(key);
    if (was === undefined && !a.has(key)) out.add(key);
    else {
      common++;
      if (!same(was as V, value)) out.add(key);
    }
    if (out.size > limit) return;
  }
  if (common < a.size) for (const key of a.keys()) if (!b.has(key)) out.add(key);
}

const identical = <V>(x: V, y: V) => x === y;

/**
 * `diffMaps` for the tables: from the layers of two layered maps over one base, else
 * walking both in step while their keys agree (no lookups); true when `b` has exactly
 * `a`'s keys in `a`'s order.
 */
function diffTables<V>(a: ReadonlyMap<string, V>, b: ReadonlyMap<string, V>, out: Set<string>, limit: number): boolean {
  if (a === b) return true;
  // two hand-outs of one demand index: what differs is in their layers (lib/planner/layered-map.ts)
  const layered = layeredDifference(a, b);
  if (layered) {
    for (const key of layered.keys) out.add(key);
    return layered.sameOrder;
  }
  if (a.size === b.size) {
    const entries = a.entries();
    let aligned = true;
    for (const [key, value] of b) {
      const [was, wasValue] = entries.next().value as [string, V];
      if (was !== key) {
        aligned = false;
        break;
      }
      if (wasValue !== value) {
        out.add(key);
        if (out.size > limit) return true;
      }
    }
    if (aligned) return true;
    out.clear();
  }
  diffMaps(a, b, identical, out, limit);
  return false;
}

export interface TableChanges {
  /** targets whose per-table inputs differ (added and removed tables included) */
  targets: Set<string>;
  /** the tables are listed with the same keys in the same order */
  sameKeys: boolean;
}

/**
 * What changed per table; null when more than `limit` tables did (a full plan is then as
 * cheap). Call only when `sameFleetWide`.
 */
export function changedTargets(a: PlannerFleet, b: PlannerFleet, limit: number): TableChanges | null {
  const out = new Set<string>();
  const sameKeys = diffTables(a.tables, b.tables, out, limit);
  if (out.size > limit) return null;
  diffMaps(a.policies.tables, b.policies.tables, identical, out);
  diffMaps(a.fences, b.fences, sameRecord, out);
  if (a.turns && b.turns) diffMaps(a.turns, b.turns, identical, out);
  return out.size > limit ? null : { targets: out, sameKeys };
}
