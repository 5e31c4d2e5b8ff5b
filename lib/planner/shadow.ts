// Shadow pass and comparison with reality (scheduler-model.md §6.2).
import type { Assignment, TaskRecord } from "@/lib/schema";
import { foldHeadroom, type HeadroomRow, type HeartbeatEntry } from "./headroom";
import { compareTargets, sortPlannerOrder } from "./order";
import { place, type Placement } from "./placement";
import type { Scored } from "./score";

export const SHADOW_OUTCOMES = ["running", "queued_only", "discovery_miss", "placement_gap", "phantom_task"] as const;
export type ShadowOutcome = (typeof SHADOW_OUTCOMES)[number];

export interface ShadowComparison {
  counts: Record<ShadowOutcome, number>;
  /** targets per outcome: in the order of `scored` (planner order when given the pass's
   * `ordered`, so the most urgent come first); phantom tasks in byte order */
  targets: Record<ShadowOutcome, string[]>;
  /** discovery_miss + phantom_task (`planner_shadow_disagreements_last_pass`) */
  disagreements: number;
}

export interface MergeTasks {
  queued: ReadonlySet<string>;
  running: ReadonlySet<string>;
}

/** Targets of `kind == "merge_wal"` records (from `queue/` or `running/`). */
export function mergeTaskTargets(tasks: Iterable<TaskRecord>): Set<string> {
  const out = new Set<string>();
  for (const t of tasks) if (t.kind === "merge_wal") out.add(t.target);
  return out;
}

/**
 * Compare the planner's view with the live task queue. `scored` = every scored table
 * (tails included); `placed` = targets the planner placed. Returns null when the task
 * read failed (record nothing, not zeros).
 */
export function compareShadow(
  scored: readonly Scored[],
  placed: ReadonlySet<string>,
  reality: MergeTasks | null,
): ShadowComparison | null {
  if (reality === null) return null;
  const targets: Record<ShadowOutcome, string[]> = {
    running: [],
    queued_only: [],
    discovery_miss: [],
    placement_gap: [],
    phantom_task: [],
  };
  // task targets not seen among the scored tables are phantoms (tails are scored: not phantoms)
  const unseen = new Set<string>(reality.queued);
  for (const t of reality.running) unseen.add(t);
  for (const s of scored) {
    unseen.delete(s.target);
    if (s.class === "tail") continue; // only "due" tables are compared
    if (reality.running.has(s.target)) targets.running.push(s.target);
    else if (reality.queued.has(s.target)) targets.queued_only.push(s.target);
    else targets.discovery_miss.push(s.target);
    if (!placed.has(s.target)) targets.placement_gap.push(s.target); // independent of reality
  }
  targets.phantom_task = [...unseen].sort(compareTargets);
  const counts = {} as Record<ShadowOutcome, number>;
  for (const o of SHADOW_OUTCOMES) counts[o] = targets[o].length;
  return { counts, targets, disagreements: counts.discovery_miss + counts.phantom_task };
}

interface AssignmentEntry {
  /** full etcd key of the assignment row */
  key: string;
  assignment: Assignment;
}

export interface ShadowPassInput {
  scored: readonly Scored[];
  heartbeats: Iterable<HeartbeatEntry>;
  assignments: readonly AssignmentEntry[];
  now: number;
  plannerToken: string;
  expectedBytes?: number;
  unitId?: (unit: Scored, index: number) => string;
  /**
   * `scored` already in planner order (e.g. lib/planner/plan's `FleetPlan.merge_order`,
   * which is `sortPlannerOrder(scored)`): skips the sort. Must hold the same units.
   */
  ordered?: readonly Scored[];
}

export interface ShadowPass {
  ordered: Scored[];
  /** `planner_units{class}` */
  units: { critical: number; normal: number; tail: number };
  /** keys of every `state: shadow` row (replaced wholesale each pass) */
  deletes: string[];
  placements: Placement[];
  unplaceable: Scored[];
  /** headroom after the new shadow reservations */
  rows: HeadroomRow[];
}

/** §6.2 steps 1–4 (pure): score order, shadow deletes, headroom without shadow rows, place. */
export function shadowPass(input: ShadowPassInput): ShadowPass {
  const ordered = input.ordered ? input.ordered.slice() : sortPlannerOrder(input.scored);
  const units = { critical: 0, normal: 0, tail: 0 };
  for (const s of ordered) {
    if (s.class === "critical") units.critical++;
    else if (s.class === "normal") units.normal++;
    else if (s.class === "tail") units.tail++;
  }
  const deletes = input.assignments.filter((a) => a.assignment.state === "shadow").map((a) => a.key);
  const rows = foldHeadroom(
    input.heartbeats,
    input.assignments.map((a) => a.assignment),
    { countShadow: false },
  );
  const result = place(ordered, rows, {
    now: input.now,
    plannerToken: input.plannerToken,
    expectedBytes: input.expectedBytes,
    unitId: input.unitId,
  });
  return {
    ordered,
    units,
    deletes,
    placements: result.placements,
    unplaceable: result.unplaceable,
    rows: result.rows,
  };
}
