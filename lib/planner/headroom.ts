// Headroom fold (scheduler-model.md §2.6, §5.2): one row per heartbeat, plus every
// non-released assignment's reservation (shadow, assigned and bound all hold capacity).
// Never derived from `bytes_free_sample` (§12).
import { U64_MAX, type Assignment, type ExecutorKind, type Heartbeat, type SlotMap, type TaskKind } from "@/lib/schema";
import { compareTargets } from "./order";

export interface HeadroomRow {
  executor: string;
  kind: ExecutorKind;
  draining: boolean;
  slots_total: SlotMap;
  slots_reserved: SlotMap;
  /** 0 = unknown/unbounded: no byte check */
  bytes_total: number;
  bytes_reserved: number;
  /** capacity-holding assignments counted on this row */
  assignments: number;
  /** created by an assignment whose executor has no heartbeat: draining, takes nothing */
  orphan: boolean;
}

export interface HeartbeatEntry {
  /** the key suffix of `P/executors/<id>` */
  id: string;
  heartbeat: Heartbeat;
}

const saturatingAdd = (a: number, b: number): number => Math.min(U64_MAX, a + b);

export function slotsFree(row: HeadroomRow, kind: TaskKind): number {
  return Math.max(0, (row.slots_total[kind] ?? 0) - (row.slots_reserved[kind] ?? 0));
}

export function bytesFree(row: HeadroomRow): number {
  return Math.max(0, row.bytes_total - row.bytes_reserved);
}

/** Why a row cannot take a unit under §5.2, in the order the checks apply. */
export type HeadroomRejection = "orphan" | "draining" | "no_free_slot" | "insufficient_bytes";

/** §5.2 `fits(kind, bytes)` as a reason: null when the row fits. The one question both
 * placement and its explanation ask (the design planner adds its stages around it). */
export function headroomRejection(row: HeadroomRow, kind: TaskKind, bytes: number): HeadroomRejection | null {
  if (row.orphan) return "orphan";
  if (row.draining) return "draining";
  if (slotsFree(row, kind) <= 0) return "no_free_slot";
  if (row.bytes_total !== 0 && bytesFree(row) < bytes) return "insufficient_bytes";
  return null;
}

/** §5.2 `fits(kind, bytes)`. */
export function fits(row: HeadroomRow, kind: TaskKind, bytes: number): boolean {
  return headroomRejection(row, kind, bytes) === null;
}

/** Add a reservation to a row (mutates; saturating). */
export function reserve(row: HeadroomRow, slots: SlotMap, bytes: number): void {
  for (const k in slots) {
    const kind = k as TaskKind;
    row.slots_reserved[kind] = saturatingAdd(row.slots_reserved[kind] ?? 0, slots[kind] ?? 0);
  }
  row.bytes_reserved = saturatingAdd(row.bytes_reserved, bytes);
  row.assignments += 1;
}

export function cloneRow(row: HeadroomRow): HeadroomRow {
  return { ...row, slots_total: { ...row.slots_total }, slots_reserved: { ...row.slots_reserved } };
}

function orphanRow(executor: string): HeadroomRow {
  return {
    executor,
    kind: "resident_master",
    draining: true,
    slots_total: {},
    slots_reserved: {},
    bytes_total: 0,
    bytes_reserved: 0,
    assignments: 0,
    orphan: true,
  };
}

export interface HeadroomOptions {
  /**
   * Whether shadow assignments hold capacity. The loader counts them (default true); the
   * shadow pass re-adds only non-shadow ones (§6.2 step 3). Orphan rows are created from
   * every non-released assignment either way.
   */
  countShadow?: boolean;
}

/** Rows in ascending executor-id (byte) order; the fold is order-independent. */
export function foldHeadroom(
  heartbeats: Iterable<HeartbeatEntry>,
  assignments: Iterable<Assignment>,
  options: HeadroomOptions = {},
): HeadroomRow[] {
  const countShadow = options.countShadow ?? true;
  const rows = new Map<string, HeadroomRow>();
  for (const { id, heartbeat } of heartbeats) {
    rows.set(id, {
      executor: id,
      kind: heartbeat.kind,
      draining: heartbeat.draining,
      slots_total: { ...heartbeat.slots_total },
      slots_reserved: {},
      bytes_total: heartbeat.bytes_total,
      bytes_reserved: 0,
      assignments: 0,
      orphan: false,
    });
  }
  for (const a of assignments) {
    if (a.state === "released") continue;
    let row = rows.get(a.executor);
    if (row === undefined) {
      row = orphanRow(a.executor);
      rows.set(a.executor, row);
    }
    if (a.state === "shadow" && !countShadow) continue;
    reserve(row, a.reserved_slots, a.reserved_bytes);
  }
  return [...rows.values()].sort((x, y) => compareTargets(x.executor, y.executor));
}
