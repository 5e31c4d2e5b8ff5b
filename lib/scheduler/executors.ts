import "server-only";
// GET /api/v1/scheduler/executors: heartbeats with headroom from assignments (§5.2, never
// from bytes_free_sample) and orphan rows for assignments whose executor has no heartbeat.
// One headroom per executor and kind (console-api.md fourth version, "One capacity, one
// write turn"): `slots[kind] = {total, reserved, shadow, free, legacy_running}`, where
// `free = max(0, total − reserved)` is the figure the design verdict uses (the plan's fold
// leaves shadow rows out, §6.2 step 3: lib/planner/plan/full-plan.ts). The older flat fields
// stay for API clients: `slots_free`/`bytes_free` count the master's shadow rows as its own
// fold does, their `_excluding_shadow` twins do not.
import { bytesFree, foldHeadroom, slotsFree, type HeadroomRow } from "@/lib/planner/headroom";
import { IDLE_TIMEOUT_SECS } from "@/lib/planner/progress";
import { UNFINISHED_PHASES, progressState } from "@/lib/planner/plan/write-turn";
import type { TaskKind } from "@/lib/schema/kinds";
import type { Assignment } from "@/lib/schema/assignments";
import type {
  ByteHeadroom,
  ExecutorExecution,
  ExecutorRow,
  ExecutorsResponse,
  SlotHeadroom,
} from "@/lib/schema/api/executors";
import type { ReadQuery } from "@/lib/schema/api/common";
import type { FleetPlan } from "@/lib/planner/plan/types";
import { answerKey, identityOf, viewKey } from "@/lib/http/answer-key";
import { cacheable, type Cacheable } from "@/lib/http/encoded-response";
import { fleetView, type FleetView } from "@/lib/live/fleet-view";
import { snapshotMeta, type Evaluation } from "@/lib/live/evaluation";
import { planFor } from "@/lib/live/plan";

function dedupe(rows: ExecutorExecution[]): ExecutorExecution[] {
  return rows.filter((r, i) => rows.findIndex((x) => x.execution_id === r.execution_id) === i);
}

function slotsFreeOf(row: HeadroomRow, kinds: Iterable<string>): Record<string, number> {
  const free: Record<string, number> = {};
  for (const k of kinds) free[k] = slotsFree(row, k as TaskKind);
  return free;
}

/**
 * GET /scheduler/executors as a cacheable answer, from the same plan the table pages answer
 * from (one answer: a table page's "merge running on worker-1" and the worker-1 card read
 * the same write turn), evaluated at that plan's clock: every relative time counts from the
 * answer's `now_ms` (console-api.md "One answer, as of its moment").
 */
export async function executorsAnswer(query: ReadQuery): Promise<Cacheable> {
  const planned = await planFor(await fleetView(query.revision), { now_ms: query.now_ms, now: query.now });
  const { view, evaluation } = planned;
  return cacheable(answerKey("executors", identityOf(planned.plan), viewKey(view, evaluation)), () =>
    executorsResponse(view, evaluation, planned.plan),
  );
}

/**
 * What runs where (console-api.md "One answer, as of its moment"): the unfinished
 * `merge-executions/` records whose endpoint or instance names the executor, with the write
 * turn's progress judged as the table page's verdict judges it (§7.1, from etcd's history).
 */
function executionsByExecutor(view: FleetView, now: number, plan?: FleetPlan): Map<string, ExecutorExecution[]> {
  const { snapshot } = view;
  const turns = new Map(
    (plan?.tables ?? []).flatMap((t) =>
      t.write_turn ? [[t.write_turn.execution_id, t.write_turn.progress] as const] : [],
    ),
  );
  const sequences = new Map(snapshot.mergeProgress.map((p) => [p.executionId, p.progress.sequence]));
  const out = new Map<string, ExecutorExecution[]>();
  const sorted = [...snapshot.mergeExecutions].sort((a, b) =>
    a.execution.id < b.execution.id ? -1 : a.execution.id > b.execution.id ? 1 : 0,
  );
  for (const { execution: e } of sorted) {
    if (!UNFINISHED_PHASES.has(e.phase)) continue;
    const sequence = sequences.get(e.id) ?? null;
    const row: ExecutorExecution = {
      execution_id: e.id,
      target: e.target,
      kind: e.maintenance ?? "merge_wal",
      phase: e.phase,
      progress:
        turns.get(e.id) ?? progressState(view.progress.get(e.id), e.idle_timeout_secs || IDLE_TIMEOUT_SECS, now),
      sequence,
    };
    for (const name of new Set([e.endpoint, e.instance].filter(Boolean)))
      out.set(name, [...(out.get(name) ?? []), row]);
  }
  return out;
}

/** The master's last shadow rows on each executor: slots per kind and bytes (§6.2: replaced every pass). */
function shadowHeld(assignments: readonly Assignment[]): Map<string, { slots: Record<string, number>; bytes: number }> {
  const out = new Map<string, { slots: Record<string, number>; bytes: number }>();
  for (const a of assignments) {
    if (a.state !== "shadow") continue;
    const held = out.get(a.executor) ?? { slots: {}, bytes: 0 };
    for (const [k, n] of Object.entries(a.reserved_slots)) held.slots[k] = (held.slots[k] ?? 0) + (n ?? 0);
    held.bytes += a.reserved_bytes;
    out.set(a.executor, held);
  }
  return out;
}

const coverKey = (executor: string, target: string, kind: string) => `${executor}\u0000${target}\u0000${kind}`;

/**
 * Per kind, the executions running on `executor` outside any live, non-shadow assignment there
 * for the same table and kind: the legacy queue's work, which P1's planner does not count
 * (scheduler-model.md §5.4: legacy workers become their own executor kind in the design).
 */
function legacyRunning(
  executions: readonly ExecutorExecution[],
  executor: string,
  covered: ReadonlySet<string>,
): Record<string, number> {
  const out: Record<string, number> = {};
  for (const x of executions)
    if (!covered.has(coverKey(executor, x.target, x.kind))) out[x.kind] = (out[x.kind] ?? 0) + 1;
  return out;
}

/** The one headroom of each kind: `free` from the non-shadow reservations, the parts beside it. */
function slotHeadroom(
  bare: HeadroomRow,
  kinds: Iterable<string>,
  shadow: Record<string, number>,
  legacy: Record<string, number>,
): Record<string, SlotHeadroom> {
  const out: Record<string, SlotHeadroom> = {};
  for (const k of kinds) {
    out[k] = {
      total: bare.slots_total[k as TaskKind] ?? 0,
      reserved: bare.slots_reserved[k as TaskKind] ?? 0,
      shadow: shadow[k] ?? 0,
      free: slotsFree(bare, k as TaskKind),
      legacy_running: legacy[k] ?? 0,
    };
  }
  return out;
}

function addSlots(sum: Record<string, SlotHeadroom>, add: Record<string, SlotHeadroom>): void {
  for (const [k, h] of Object.entries(add)) {
    const s = (sum[k] ??= { total: 0, reserved: 0, shadow: 0, free: 0, legacy_running: 0 });
    s.total += h.total;
    s.reserved += h.reserved;
    s.shadow += h.shadow;
    s.free += h.free;
    s.legacy_running += h.legacy_running;
  }
}

export function executorsResponse(view: FleetView, evaluation?: Evaluation, plan?: FleetPlan): ExecutorsResponse {
  const { snapshot } = view;
  const now = evaluation?.now ?? view.readAtMs;
  const running = executionsByExecutor(view, now, plan);
  const heartbeats = new Map(snapshot.executors.map((e) => [e.id, e.heartbeat]));
  const assignments = snapshot.assignments.map((a) => a.assignment);
  const rows = foldHeadroom(snapshot.executors, assignments);
  const withoutShadow = new Map(
    foldHeadroom(snapshot.executors, assignments, { countShadow: false }).map((r) => [r.executor, r]),
  );
  const shadowCount = new Map<string, number>();
  for (const a of assignments)
    if (a.state === "shadow") shadowCount.set(a.executor, (shadowCount.get(a.executor) ?? 0) + 1);
  const shadow = shadowHeld(assignments);
  const covered = new Set(
    assignments
      .filter((a) => a.state !== "shadow" && a.state !== "released")
      .map((a) => coverKey(a.executor, a.target, a.kind)),
  );
  const executors: ExecutorRow[] = rows.map((row) => {
    const hb = heartbeats.get(row.executor);
    const bare = withoutShadow.get(row.executor)!;
    const kinds = new Set<string>([...Object.keys(row.slots_total), ...Object.keys(row.slots_reserved)]);
    const executions = dedupe([
      ...(running.get(row.executor) ?? []),
      ...(hb?.instance && hb.instance !== row.executor ? (running.get(hb.instance) ?? []) : []),
    ]);
    const legacy = legacyRunning(executions, row.executor, covered);
    const held = shadow.get(row.executor) ?? { slots: {}, bytes: 0 };
    const bytes: ByteHeadroom = {
      total: bare.bytes_total,
      reserved: bare.bytes_reserved,
      shadow: held.bytes,
      free: bytesFree(bare),
    };
    return {
      id: row.executor,
      kind: row.kind,
      instance: hb?.instance ?? null,
      version: hb?.version ?? null,
      kinds: hb?.kinds ?? [],
      // the master's fold (§5.2): an orphan row is draining; pages say "orphan"
      draining: row.draining,
      orphan: row.orphan,
      heartbeat_ms: hb?.heartbeat_ms ?? null,
      heartbeat_age_ms: hb ? Math.max(0, now - hb.heartbeat_ms) : null,
      executions,
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
      slots: slotHeadroom(bare, new Set([...kinds, ...Object.keys(legacy)]), held.slots, legacy),
      bytes,
    };
  });
  const totalSlots: Record<string, number> = {};
  let freeBytes = 0;
  let freeBytesBare = 0;
  let totalBytes = 0;
  let unbudgeted = 0;
  const slotsSum: Record<string, SlotHeadroom> = {};
  const bytesSum: ByteHeadroom = { total: 0, reserved: 0, shadow: 0, free: 0 };
  for (const e of executors) {
    if (e.orphan) continue;
    if (e.bytes_total === 0) unbudgeted++;
    if (e.draining) continue; // draining and orphan rows take nothing (§5.5)
    for (const [k, n] of Object.entries(e.slots_free)) totalSlots[k] = (totalSlots[k] ?? 0) + n;
    addSlots(slotsSum, e.slots);
    if (e.bytes_total > 0) {
      bytesSum.total += e.bytes.total;
      bytesSum.reserved += e.bytes.reserved;
      bytesSum.shadow += e.bytes.shadow;
      bytesSum.free += e.bytes.free;
    }
    // bytes_total = 0 means "no byte check", not "0 B free": such executors stay out of byte totals
    if (e.bytes_total === 0) continue;
    freeBytes += e.bytes_free;
    freeBytesBare += e.bytes_free_excluding_shadow;
    totalBytes += e.bytes_total;
  }
  return {
    ...snapshotMeta(view, evaluation),
    now_ms: now,
    executors,
    totals: {
      executors: executors.filter((e) => !e.orphan).length,
      draining: executors.filter((e) => e.draining && !e.orphan).length,
      orphans: executors.filter((e) => e.orphan).length,
      unbudgeted,
      slots_free: totalSlots,
      bytes_free: freeBytes,
      bytes_free_excluding_shadow: freeBytesBare,
      bytes_total: totalBytes,
      overcommitted: executors.filter((e) => e.overcommitted_bytes > 0).length,
      slots: slotsSum,
      bytes: bytesSum,
    },
  };
}
