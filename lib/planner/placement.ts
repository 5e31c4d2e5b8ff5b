// Expected bytes of a merge unit (scheduler-model.md §5.3, the newest rule) and placement
// (§5.4): candidates in planner order, tail skipped; pick the fitting row with the most
// free bytes, ties to the greatest executor id; reserve; emit a shadow Assignment.
import { SHADOW_BIND_DEADLINE_MS, type Assignment, type SlotMap } from "@/lib/schema";
import { bytesFree, cloneRow, fits, reserve, type HeadroomRow } from "./headroom";
import { compareTargets } from "./order";
import { CLASS_RANK, type Scored } from "./score";

/** `ROLLOUT_APPEND_LOCAL_MEMORY_BYTES` default (2 GiB). */
const DEFAULT_LOCAL_BUDGET_BYTES = 2_147_483_648;
/** `ROLLOUT_APPEND_MAX_BYTES` default (64 MiB, the per-pass target). */
const DEFAULT_APPEND_MAX_BYTES = 67_108_864;

export interface ExpectedBytesOptions {
  localBudgetBytes?: number;
  appendMaxBytes?: number;
}

/**
 * Newest planner: always the whole local budget, `max(local, 2 × max_bytes, 1)` —
 * an average per generation is not a maximum, so it cannot size a reservation.
 */
export function expectedMergeBytes(options: ExpectedBytesOptions = {}): number {
  const local = options.localBudgetBytes ?? DEFAULT_LOCAL_BUDGET_BYTES;
  const maxBytes = options.appendMaxBytes ?? DEFAULT_APPEND_MAX_BYTES;
  return Math.max(local, 2 * maxBytes, 1);
}

export type ReservationBasis = "no_size_data" | "average_only";

/** The `planner_shadow_reservation_basis_total{basis}` label of a unit. */
export function reservationBasis(unit: { pending_bytes: number }): ReservationBasis {
  return unit.pending_bytes === 0 ? "no_size_data" : "average_only";
}

/**
 * The row to place on: among rows `accepts` takes, the largest `bytes_free`; ties go to
 * the greatest executor id (Rust `max_by_key` keeps the last maximum). `accepts` is the
 * caller's whole feasibility question (§5.2 `fits`, or the design planner's stages).
 */
export function pickExecutor(rows: readonly HeadroomRow[], accepts: (row: HeadroomRow) => boolean): HeadroomRow | null {
  let best: HeadroomRow | null = null;
  let bestFree = -1;
  for (const row of rows) {
    if (!accepts(row)) continue;
    const free = bytesFree(row);
    if (best === null || free > bestFree || (free === bestFree && compareTargets(row.executor, best.executor) > 0)) {
      best = row;
      bestFree = free;
    }
  }
  return best;
}

export interface Placement {
  unit: Scored;
  executor: string;
  reserved_bytes: number;
  assignment: Assignment;
}

export interface PlaceOptions {
  now: number;
  plannerToken: string;
  expectedBytes?: number;
  /** unit ids are time-ordered ids in the master; default `shadow-<now>-<index>` */
  unitId?: (unit: Scored, index: number) => string;
}

export interface PlaceResult {
  placements: Placement[];
  /** non-tail units with no fitting executor, in planner order */
  unplaceable: Scored[];
  /** the rows after the new reservations (copies; input rows are untouched) */
  rows: HeadroomRow[];
}

const MERGE_SLOTS: Readonly<SlotMap> = Object.freeze({ merge_wal: 1 });

/** Place merge units (`ordered` must already be in planner order), the §5.4 rule. */
export function place(ordered: readonly Scored[], rows: readonly HeadroomRow[], options: PlaceOptions): PlaceResult {
  const expected = options.expectedBytes ?? expectedMergeBytes();
  const working = rows.map(cloneRow);
  const placements: Placement[] = [];
  const unplaceable: Scored[] = [];
  const accepts = (row: HeadroomRow) => fits(row, "merge_wal", expected);
  // every unit asks the same question: once no row fits, none fits for a later unit either
  let exhausted = false;
  for (const unit of ordered) {
    if (unit.class_rank === CLASS_RANK.tail) continue; // the real sweeps do not touch tails
    const row = exhausted ? null : pickExecutor(working, accepts);
    if (row === null) {
      exhausted = true;
      unplaceable.push(unit);
      continue;
    }
    reserve(row, MERGE_SLOTS, expected);
    const unitId = options.unitId?.(unit, placements.length) ?? `shadow-${options.now}-${placements.length}`;
    placements.push({
      unit,
      executor: row.executor,
      reserved_bytes: expected,
      assignment: {
        v: 1,
        unit_id: unitId,
        kind: "merge_wal",
        target: unit.target,
        needs_write_turn: true,
        executor: row.executor,
        planner_token: options.plannerToken,
        reserved_slots: { merge_wal: 1 },
        reserved_bytes: expected,
        state: "shadow",
        created_ms: options.now,
        bind_deadline_ms: options.now + SHADOW_BIND_DEADLINE_MS,
      },
    });
  }
  return { placements, unplaceable, rows: working };
}
