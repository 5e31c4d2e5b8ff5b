// Re-planning after a change, at the same `now`, in work proportional to the change: the
// result equals `planFleet(next, now)` (byte for byte as JSON), but only the tables whose
// own inputs changed are drafted again (fleet-diff.ts), the candidate order and the
// listed orders are patched by binary search (sorted-patch.ts), the greedy placement
// (§5.4, §5.5) resumes where the first change sits and stops as soon as its state —
// the placements made so far — is again the previous plan's, and rows are copied only
// where a verdict, position or ETA moves. The previous plan is never mutated.
import { LayeredMapWriter } from "../layered-map";
import type { Scored } from "../score";
import { changedTargets, sameFleetWide, type TableChanges } from "./fleet-diff";
import type { PlannerFleet } from "./input";
import { buildPlan, planSteps, type Built } from "./full-plan";
import {
  addCounts,
  compareDrafts,
  comparePlans,
  compareScored,
  hasNaN,
  hasNaNKey,
  planTable,
  policyResolver,
} from "./plan-fleet";
import type { DraftsEdit } from "./drafts";
import type { FleetWide, RetainedPlan } from "./retained";
import { Line } from "./line";
import { changedKeys, rerunPlacement, RowsDraft, type CandidateChange } from "./replan-placement";
import { patchSorted } from "./sorted-patch";
import type { TableDraft } from "./table";
import type { FleetPlan, TablePlan } from "./types";

/**
 * What a patch needs of a plan, and what the patch that made it changed in its rows, kept on
 * the plan itself: lives exactly as long as the plan, with no module state in the planner.
 * Not enumerable, so a plan's JSON and its equality in tests are what they were.
 */
const RETAINED = "plannerRetained";
const ROWS_PATCH = "plannerRowsPatch";

function keepOn(plan: FleetPlan, key: string, value: RetainedPlan | RowsPatch): void {
  Object.defineProperty(plan, key, { value, enumerable: false, writable: true, configurable: true });
}

function keptOn<T extends RetainedPlan | RowsPatch>(plan: FleetPlan, key: string): T | undefined {
  return (plan as unknown as Record<string, T | undefined>)[key];
}

/**
 * A patched plan's `tables` is its previous plan's without `removed` and with `inserted`
 * (sorted by `comparePlans`) in place: lists made of the previous plan's rows in planner
 * order (a filtered listing) can be patched alike instead of made again.
 */
export interface RowsPatch {
  /** the plan patched (held weakly: a chain of patches holds no plan alive) */
  previous: WeakRef<FleetPlan>;
  /** rows of the previous plan this one does not list */
  removed: ReadonlySet<TablePlan>;
  /** rows this plan lists that the previous one did not, in planner order */
  inserted: readonly TablePlan[];
}

/** What the patch that made `plan` changed in its rows; undefined for a full plan. */
export function rowsPatchOf(plan: FleetPlan): RowsPatch | undefined {
  return keptOn<RowsPatch>(plan, ROWS_PATCH);
}

/** Past this share of changed tables a full plan costs no more than the patch. */
const MAX_CHANGED_SHARE = 1 / 8;

/** `planFleet`, remembering what `replanFleet` needs to patch the result later. */
function planFleetRetained(fleet: PlannerFleet, now: number): FleetPlan {
  return remembered(buildPlan(fleet, now, true));
}

function remembered({ plan, retained: kept }: Built): FleetPlan {
  if (kept) keepOn(plan, RETAINED, kept);
  return plan;
}

/**
 * `planFleetRetained` in steps (full-plan.ts `planSteps`): each `next()` plans a slice; the
 * last returns the plan, the same as `planFleetRetained(fleet, now)`.
 */
export function* planFleetInSteps(fleet: PlannerFleet, now: number): Generator<void, FleetPlan> {
  return remembered(yield* planSteps(fleet, now, true));
}

/**
 * The plan of `next` at `now` — equal to `planFleet(next, now)` — patched from `previous`
 * when it was made by this module at the same `now` and only per-table inputs changed;
 * otherwise (no previous plan, another clock, a fleet-wide change) a full plan.
 */
export function replanFleet(previous: FleetPlan | null | undefined, next: PlannerFleet, now: number): FleetPlan {
  const state = previous ? keptOn<RetainedPlan>(previous, RETAINED) : undefined;
  if (!previous || !state || state.now !== now || !sameFleetWide(state.fleet, next))
    return planFleetRetained(next, now);
  const changes = changedTargets(state.fleet, next, Math.max(64, next.tables.size * MAX_CHANGED_SHARE));
  const patched = changes && patchPlan(previous, state, next, changes, now);
  if (!patched) return planFleetRetained(next, now);
  keepOn(patched.plan, RETAINED, patched.retained);
  keepOn(patched.plan, ROWS_PATCH, patched.rows);
  return patched.plan;
}

/**
 * Whether a re-plan of `plan` at `now` (to `next`, when given) patches it: the plan keeps
 * the state a patch needs, at that `now`, and no fleet-wide input changed.
 */
export function canPatch(plan: FleetPlan, now: number, next?: PlannerFleet): boolean {
  const state = keptOn<RetainedPlan>(plan, RETAINED);
  return state !== undefined && state.now === now && (next === undefined || sameFleetWide(state.fleet, next));
}

interface Patched {
  plan: FleetPlan;
  retained: RetainedPlan;
  rows: RowsPatch;
}

function patchPlan(
  prev: FleetPlan,
  state: RetainedPlan,
  next: PlannerFleet,
  changes: TableChanges,
  now: number,
): Patched | null {
  const dirty = changes.targets;
  const policiesChanged = state.fleet.policies.tables !== next.policies.tables;
  const wide: FleetWide = policiesChanged
    ? { ...state.fleetWide, policyFor: policyResolver(next.policies) }
    : state.fleetWide;
  const turns = next.turns ?? wide.turns;
  const drafts = state.drafts.edit();
  const rows = new RowsDraft(prev.byTarget);
  const counts = { by_class: { ...prev.counts.by_class }, by_backlog: { ...prev.counts.by_backlog } };
  let withPending = prev.tables_with_pending;
  let skewed = prev.clock_skew_tables;
  const removedRows = new Set<TablePlan>();
  const removedCandidates = new Set<TableDraft>();
  const removedScored = new Set<Scored>();
  const insertedRows: TablePlan[] = [];
  const insertedCandidates: TableDraft[] = [];
  const insertedScored: Scored[] = [];
  for (const target of dirty) {
    const old = state.drafts.get(target);
    if (old !== undefined) {
      const row = prev.byTarget.get(target)!;
      addCounts(counts, row, -1);
      if (row.pending_generations > 0) withPending--;
      if (row.clock_skew !== null) skewed--;
      removedRows.add(row);
      if (old.candidate !== null) removedCandidates.add(old);
      if (old.scored !== null) removedScored.add(old.scored);
      drafts.delete(target);
    }
    const demand = next.tables.get(target);
    if (demand === undefined) continue;
    const d = planTable(target, demand, next, { ...wide, policy: wide.policyFor(target), turns }, now);
    const row = d.plan!;
    if (hasNaNKey(row) || (d.scored !== null && hasNaN(d.scored.class_rank, d.scored.wait_ms, d.scored.score)))
      return null;
    addCounts(counts, row, 1);
    if (row.pending_generations > 0) withPending++;
    if (row.clock_skew !== null) skewed++;
    drafts.set(target, d);
    rows.add(row);
    insertedRows.push(row);
    if (d.candidate !== null) insertedCandidates.push(d);
    if (d.scored !== null) insertedScored.push(d.scored);
  }
  insertedRows.sort(comparePlans);
  insertedCandidates.sort(compareDrafts);
  insertedScored.sort(compareScored);
  const ordered = patchSorted(state.ordered, removedCandidates, insertedCandidates, compareDrafts);
  const change: CandidateChange = { removed: removedCandidates, inserted: new Set(insertedCandidates) };
  const keys = changedKeys(change);
  const placed = rerunPlacement(prev, state, wide, ordered, change, keys, rows);

  const tables = patchSorted(prev.tables, removedRows, insertedRows, comparePlans, rows.replaced);
  const listed = listedInFleetOrder(prev, state, next, changes, drafts, rows);
  const plan: FleetPlan = {
    now_ms: now,
    tables,
    byTarget: listed.byTarget,
    total_tables: tables.length,
    tables_with_pending: withPending,
    clock_skew_tables: skewed,
    counts,
    placements: placed.placements,
    rows: placed.rows,
    scored: listed.scored,
    merge_order: patchSorted(prev.merge_order, removedScored, insertedScored, compareScored),
    // no candidate changed: the placements, and so the line, are the previous plan's
    line:
      keys.length === 0
        ? prev.line
        : new Line(ordered, placed.placements, wide.completions, { line: prev.line, removed: removedCandidates }),
  };
  const kept: RetainedPlan = {
    fleet: next,
    now,
    fleetWide: wide,
    drafts: drafts.done(),
    ordered,
    scoredAt: listed.scoredAt,
  };
  // the rows copied in place count as taken out and put in again
  const removed = new Set(removedRows);
  for (const was of rows.replaced.keys()) removed.add(was);
  const inserted =
    rows.replaced.size === 0 ? insertedRows : [...insertedRows, ...rows.replaced.values()].sort(comparePlans);
  return { plan, retained: kept, rows: { previous: new WeakRef(prev), removed, inserted } };
}

/**
 * `byTarget` and `scored` in the order of `next.tables`, as a full plan builds them. With
 * the same keys in the same order (a watch event changed tables in place), the previous
 * map is copied and patched, and `scored` is patched at the remembered positions while no
 * table gained or lost its merge score; otherwise both are listed again.
 */
function listedInFleetOrder(
  prev: FleetPlan,
  state: RetainedPlan,
  next: PlannerFleet,
  changes: TableChanges,
  drafts: DraftsEdit,
  rows: RowsDraft,
) {
  const changed = rows.changed;
  if (changes.sameKeys) {
    // the previous rows with the changed ones in place, at a cost proportional to the change
    const rowsByTarget = new LayeredMapWriter(prev.byTarget);
    for (const [target, row] of changed) rowsByTarget.set(target, row);
    const byTarget = rowsByTarget.publish();
    let samePositions = true;
    for (const target of changes.targets) {
      if ((state.drafts.get(target)?.scored == null) !== (drafts.get(target)?.scored == null)) samePositions = false;
    }
    if (samePositions) {
      const scoredAt = state.scoredAt ?? scoredPositions(prev.scored);
      const scored = prev.scored.slice();
      for (const target of changes.targets) {
        const s = drafts.get(target)?.scored;
        if (s != null) scored[scoredAt.get(target)!] = s;
      }
      return { byTarget, scored, scoredAt };
    }
    return { byTarget, scored: scoredInOrder(next, drafts), scoredAt: null };
  }
  const byTarget = new Map<string, TablePlan>();
  const previousRows = prev.byTarget;
  for (const target of next.tables.keys()) byTarget.set(target, changed.get(target) ?? previousRows.get(target)!);
  return { byTarget, scored: scoredInOrder(next, drafts), scoredAt: null };
}

function scoredInOrder(next: PlannerFleet, drafts: DraftsEdit): Scored[] {
  const scored: Scored[] = [];
  for (const target of next.tables.keys()) {
    const s = drafts.get(target)!.scored;
    if (s !== null) scored.push(s);
  }
  return scored;
}

/** Where each target's merge score sits in `scored` (built once, kept while positions hold). */
function scoredPositions(scored: readonly Scored[]): Map<string, number> {
  const at = new Map<string, number>();
  for (let i = 0; i < scored.length; i++) at.set(scored[i].target, i);
  return at;
}
