import "server-only";
// GET /api/v1/scheduler/executors: heartbeats with headroom from assignments (§5.2, never
// from bytes_free_sample) and orphan rows for assignments whose executor has no heartbeat.
import { bytesFree, foldHeadroom, slotsFree } from "@/lib/planner/headroom";
import type { TaskKind } from "@/lib/schema/kinds";
import type { ExecutorRow, ExecutorsResponse } from "@/lib/schema/api/executors";
import type { FleetView } from "@/lib/live/cache";
import { snapshotMeta, type Evaluation } from "./meta";

export function executorsResponse(view: FleetView, evaluation?: Evaluation): ExecutorsResponse {
  const { snapshot } = view;
  const heartbeats = new Map(snapshot.executors.map((e) => [e.id, e.heartbeat]));
  const rows = foldHeadroom(snapshot.executors, snapshot.assignments.map((a) => a.assignment));
  const executors: ExecutorRow[] = rows.map((row) => {
    const hb = heartbeats.get(row.executor);
    const kinds = new Set<string>([...Object.keys(row.slots_total), ...Object.keys(row.slots_reserved)]);
    const slots_free: Record<string, number> = {};
    for (const k of kinds) slots_free[k] = slotsFree(row, k as TaskKind);
    return {
      id: row.executor,
      kind: row.kind,
      instance: hb?.instance ?? null,
      version: hb?.version ?? null,
      kinds: hb?.kinds ?? [],
      draining: row.draining,
      orphan: row.orphan,
      heartbeat_ms: hb?.heartbeat_ms ?? null,
      slots_total: row.slots_total as Record<string, number>,
      slots_reserved: row.slots_reserved as Record<string, number>,
      slots_free,
      bytes_total: row.bytes_total,
      bytes_reserved: row.bytes_reserved,
      bytes_free: bytesFree(row),
      bytes_free_sample: hb?.bytes_free_sample ?? null,
      assignments: row.assignments,
    };
  });
  const totalSlots: Record<string, number> = {};
  let freeBytes = 0;
  for (const e of executors) {
    if (e.draining) continue; // draining and orphan rows take nothing (§5.5)
    for (const [k, n] of Object.entries(e.slots_free)) totalSlots[k] = (totalSlots[k] ?? 0) + n;
    freeBytes += e.bytes_free;
  }
  return {
    ...snapshotMeta(view, evaluation),
    executors,
    totals: {
      executors: executors.filter((e) => !e.orphan).length,
      draining: executors.filter((e) => e.draining && !e.orphan).length,
      orphans: executors.filter((e) => e.orphan).length,
      slots_free: totalSlots,
      bytes_free: freeBytes,
    },
  };
}
