import "server-only";
// GET /api/v1/scheduler/executors: heartbeats with headroom from assignments (§5.2, never
// from bytes_free_sample) and orphan rows for assignments whose executor has no heartbeat.
// Headroom is shown both ways (console-api.md "Headroom is shown both ways"): the master's
// fold counts `shadow` rows, the design planner leaves them out (§6.2 step 3).
import { bytesFree, foldHeadroom, slotsFree, type HeadroomRow } from "@/lib/planner/headroom";
import type { TaskKind } from "@/lib/schema/kinds";
import type { ExecutorRow, ExecutorsResponse } from "@/lib/schema/api/executors";
import type { ReadQuery } from "@/lib/schema/api/common";
import { answerKey, viewKey } from "./answer-key";
import { cacheable, type Cacheable } from "./encoded-response";
import { fleetView, type FleetView } from "./fleet";
import { evaluate, snapshotMeta, type Evaluation } from "./meta";
import { planFor } from "./plan";

function slotsFreeOf(row: HeadroomRow, kinds: Iterable<string>): Record<string, number> {
  const free: Record<string, number> = {};
  for (const k of kinds) free[k] = slotsFree(row, k as TaskKind);
  return free;
}

/**
 * GET /scheduler/executors as a cacheable answer. A live read answers from the live plan's
 * view (the revision every other live page shows, and a read time that does not move with
 * each confirmation that it is current) evaluated at its read time: the answer holds no
 * wall-clock field of its own, so its bytes follow from the view.
 */
export async function executorsAnswer(query: ReadQuery): Promise<Cacheable> {
  const requested = await fleetView(query.revision);
  const live = !requested.pinned && query.now_ms === undefined;
  const view = live ? (await planFor(requested, {})).view : requested;
  const evaluation = await evaluate(view, query, view.readAtMs);
  return cacheable(answerKey("executors", viewKey(view, evaluation)), () => executorsResponse(view, evaluation));
}

export function executorsResponse(view: FleetView, evaluation?: Evaluation): ExecutorsResponse {
  const { snapshot } = view;
  const heartbeats = new Map(snapshot.executors.map((e) => [e.id, e.heartbeat]));
  const assignments = snapshot.assignments.map((a) => a.assignment);
  const rows = foldHeadroom(snapshot.executors, assignments);
  const withoutShadow = new Map(foldHeadroom(snapshot.executors, assignments, { countShadow: false }).map((r) => [r.executor, r]));
  const shadowCount = new Map<string, number>();
  for (const a of assignments) if (a.state === "shadow") shadowCount.set(a.executor, (shadowCount.get(a.executor) ?? 0) + 1);
  const executors: ExecutorRow[] = rows.map((row) => {
    const hb = heartbeats.get(row.executor);
    const bare = withoutShadow.get(row.executor)!;
    const kinds = new Set<string>([...Object.keys(row.slots_total), ...Object.keys(row.slots_reserved)]);
    return {
      id: row.executor,
      kind: row.kind,
      instance: hb?.instance ?? null,
      version: hb?.version ?? null,
      kinds: hb?.kinds ?? [],
      // an orphan takes nothing because it has no heartbeat, not because it drains (§5.2)
      draining: row.draining && !row.orphan,
      orphan: row.orphan,
      heartbeat_ms: hb?.heartbeat_ms ?? null,
      slots_total: row.slots_total as Record<string, number>,
      slots_reserved: row.slots_reserved as Record<string, number>,
      slots_free: slotsFreeOf(row, kinds),
      bytes_total: row.bytes_total,
      bytes_reserved: row.bytes_reserved,
      bytes_free: bytesFree(row),
      bytes_free_sample: hb?.bytes_free_sample ?? null,
      assignments: row.assignments,
      slots_reserved_excluding_shadow: bare.slots_reserved as Record<string, number>,
      slots_free_excluding_shadow: slotsFreeOf(bare, kinds),
      bytes_reserved_excluding_shadow: bare.bytes_reserved,
      bytes_free_excluding_shadow: bytesFree(bare),
      shadow_assignments: shadowCount.get(row.executor) ?? 0,
      overcommitted_bytes: row.bytes_total > 0 ? Math.max(0, row.bytes_reserved - row.bytes_total) : 0,
    };
  });
  const totalSlots: Record<string, number> = {};
  let freeBytes = 0;
  let freeBytesBare = 0;
  let totalBytes = 0;
  let unbudgeted = 0;
  for (const e of executors) {
    if (e.orphan) continue;
    if (e.bytes_total === 0) unbudgeted++;
    if (e.draining) continue; // draining and orphan rows take nothing (§5.5)
    for (const [k, n] of Object.entries(e.slots_free)) totalSlots[k] = (totalSlots[k] ?? 0) + n;
    // bytes_total = 0 means "no byte check", not "0 B free": such executors stay out of byte totals
    if (e.bytes_total === 0) continue;
    freeBytes += e.bytes_free;
    freeBytesBare += e.bytes_free_excluding_shadow;
    totalBytes += e.bytes_total;
  }
  return {
    ...snapshotMeta(view, evaluation),
    executors,
    totals: {
      executors: executors.filter((e) => !e.orphan).length,
      draining: executors.filter((e) => e.draining).length,
      orphans: executors.filter((e) => e.orphan).length,
      unbudgeted,
      slots_free: totalSlots,
      bytes_free: freeBytes,
      bytes_free_excluding_shadow: freeBytesBare,
      bytes_total: totalBytes,
      overcommitted: executors.filter((e) => e.overcommitted_bytes > 0).length,
    },
  };
}
