// Re-planning after a change, at the same `now`, in work proportional to the change: the
// result equals `planFleet(next, now)` (byte for byte as JSON), but only the tables whose
// own inputs changed are drafted again (fleet-diff.ts), the candidate order and the
// listed orders are patched by binary search (sorted-patch.ts), the greedy placement
// (§5.4, §5.5) resumes where the first change sits and stops as soon as its state —
// the placements made so far — is again the previous plan's, and rows are copied only
// where a verdict, position or ETA moves. The previous plan is never mutated.
import { cloneRow } from "../headroom";
import type { Scored } from "../score";
import { changedTargets, sameFleetWide } from "./fleet-diff";
import type { PlannerFleet } from "./input";
import {
  addCounts, buildPlan, compareDrafts, comparePlans, compareScored, hasNaN, hasNaNKey, internAnswer, planTable, policyResolver,
} from "./plan-fleet";
import { countByKind, etaOf, PlacementPass } from "./placement-pass";
import type { FleetWide, RetainedPlan } from "./retained";
import { lowerBound, patchSorted } from "./sorted-patch";
import type { Outcome, TableDraft } from "./table";
import type { FleetPlan, PlannedPlacement, TablePlan } from "./types";
import type { HeadroomRow } from "../headroom";

const retained = new WeakMap<FleetPlan, RetainedPlan>();

/** Past this share of changed tables a full plan costs no more than the patch. */
const MAX_CHANGED_SHARE = 1 / 8;

/** `planFleet`, remembering what `replanFleet` needs to patch the result later. */
export function planFleetRetained(fleet: PlannerFleet, now: number): FleetPlan {
  const { plan, retained: kept } = buildPlan(fleet, now, true);
  if (kept) retained.set(plan, kept);
  return plan;
}

/**
 * The plan of `next` at `now` — equal to `planFleet(next, now)` — patched from `previous`
 * when it was made by this module at the same `now` and only per-table inputs changed;
 * otherwise (no previous plan, another clock, a fleet-wide change) a full plan.
 */
export function replanFleet(previous: FleetPlan | null | undefined, next: PlannerFleet, now: number): FleetPlan {
  const state = previous ? retained.get(previous) : undefined;
  if (!previous || !state || state.now !== now || !sameFleetWide(state.fleet, next)) return planFleetRetained(next, now);
  const dirty = changedTargets(state.fleet, next, Math.max(64, next.tables.size * MAX_CHANGED_SHARE));
  const patched = dirty && patchPlan(previous, state, next, dirty, now);
  if (!patched) return planFleetRetained(next, now);
  retained.set(patched.plan, patched.retained);
  return patched.plan;
}

/**
 * Whether a re-plan of `plan` at `now` (to `next`, when given) patches it: the plan keeps
 * the state a patch needs, at that `now`, and no fleet-wide input changed.
 */
export function canPatch(plan: FleetPlan, now: number, next?: PlannerFleet): boolean {
  const state = retained.get(plan);
  return state !== undefined && state.now === now && (next === undefined || sameFleetWide(state.fleet, next));
}

/**
 * The rows of the new plan: the previous plan's until one is re-drafted or copied here
 * (copy-on-write; `fresh` rows belong to the new plan alone and may be written).
 */
class RowsDraft {
  readonly changed = new Map<string, TablePlan>();
  /** previous row → its copy (same sort key) */
  readonly replaced = new Map<TablePlan, TablePlan>();
  private readonly fresh = new Set<TablePlan>();

  constructor(private readonly previous: ReadonlyMap<string, TablePlan>) {}

  get(target: string): TablePlan {
    return this.changed.get(target) ?? this.previous.get(target)!;
  }

  isFresh(row: TablePlan): boolean {
    return this.fresh.has(row);
  }

  /** A newly drafted row. */
  add(row: TablePlan): void {
    this.changed.set(row.target, row);
    this.fresh.add(row);
  }

  /** The row of `target`, writable. */
  own(target: string): TablePlan {
    const row = this.get(target);
    if (this.fresh.has(row)) return row;
    const copy = { ...row };
    this.changed.set(target, copy);
    this.replaced.set(row, copy);
    this.fresh.add(copy);
    return copy;
  }
}

interface Patched {
  plan: FleetPlan;
  retained: RetainedPlan;
}

function patchPlan(prev: FleetPlan, state: RetainedPlan, next: PlannerFleet, dirty: ReadonlySet<string>, now: number): Patched | null {
  const policiesChanged = state.fleet.policies.tables !== next.policies.tables;
  const wide: FleetWide = policiesChanged ? { ...state.fleetWide, policyFor: policyResolver(next.policies) } : state.fleetWide;
  const turns = next.turns ?? wide.turns;
  const drafts = new Map(state.drafts);
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
    if (hasNaNKey(row) || (d.scored !== null && hasNaN(d.scored.class_rank, d.scored.wait_ms, d.scored.score))) return null;
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
  const placed = rerunPlacement(prev, state, wide, ordered, change, rows);
  relineup(prev, state, wide, ordered, rows);

  const tables = patchSorted(prev.tables, removedRows, insertedRows, comparePlans, rows.replaced);
  // byTarget and scored follow the order of next.tables, as a full plan builds them
  const byTarget = new Map<string, TablePlan>();
  const scored: Scored[] = [];
  const changed = rows.changed;
  const previousRows = prev.byTarget;
  for (const target of next.tables.keys()) {
    byTarget.set(target, changed.get(target) ?? previousRows.get(target)!);
    const s = drafts.get(target)!.scored;
    if (s !== null) scored.push(s);
  }
  const plan: FleetPlan = {
    now_ms: now,
    tables,
    byTarget,
    total_tables: tables.length,
    tables_with_pending: withPending,
    clock_skew_tables: skewed,
    counts,
    placements: placed.placements,
    rows: placed.rows,
    scored,
    merge_order: patchSorted(prev.merge_order, removedScored, insertedScored, compareScored),
  };
  return { plan, retained: { fleet: next, now, fleetWide: wide, drafts, ordered } };
}

interface CandidateChange {
  /** drafts of the previous plan no longer in the candidate order */
  removed: ReadonlySet<TableDraft>;
  /** new drafts in it */
  inserted: ReadonlySet<TableDraft>;
}

/** Same capacity change: the state after a placement depends only on these. */
function sameEffect(a: PlannedPlacement, b: PlannedPlacement | undefined): boolean {
  return b !== undefined && a.executor === b.executor && a.kind === b.kind && a.reserved_bytes === b.reserved_bytes;
}

/**
 * The greedy placement over the patched candidate order, run only where it can differ:
 * from the first changed key, with the capacity the previous plan's earlier placements
 * left; wherever the placements made so far equal the previous plan's (same executors,
 * kinds and bytes, in order), every candidate up to the next changed key decides as it
 * did before, so the pass jumps there, replaying the placements in between. Past the
 * last change, once in step, the rest of the previous plan holds as it was.
 */
function rerunPlacement(
  prev: FleetPlan,
  state: RetainedPlan,
  wide: FleetWide,
  ordered: readonly TableDraft[],
  change: CandidateChange,
  rows: RowsDraft,
): { placements: PlannedPlacement[]; rows: HeadroomRow[] } {
  if (change.removed.size === 0 && change.inserted.size === 0) return { placements: prev.placements, rows: prev.rows };
  const changedKeys = [...change.removed, ...change.inserted].sort(compareDrafts);
  const oldPlacements = prev.placements;
  // the previous plan's placements by the (previous) draft that made them, in planner order
  const placedBy = oldPlacements.map((p) => state.drafts.get(p.target)!);
  const first = changedKeys[0];
  const pass = new PlacementPass(wide.baseRows.map(cloneRow), new Map(wide.index.recentPlacements), wide.limits, {
    cycle: wide.cycle,
    intern: (a) => internAnswer(wide.pool, a),
  });
  while (pass.placements.length < oldPlacements.length && compareDrafts(placedBy[pass.placements.length], first) < 0) {
    pass.replay(oldPlacements[pass.placements.length]);
  }
  let matched = pass.placements.length; // leading placements with the previous plan's effect
  let before = matched; // previous placements made before ordered[i]
  let k = 0; // changedKeys[k] is the first changed key not before ordered[i]
  let i = lowerBound(ordered, first, compareDrafts);
  while (i < ordered.length) {
    const d = ordered[i];
    while (before < oldPlacements.length && compareDrafts(placedBy[before], d) < 0) before++;
    while (k < changedKeys.length && compareDrafts(changedKeys[k], d) < 0) k++;
    const made = pass.placements.length;
    if (!change.inserted.has(d) && matched === made && before === made) {
      // in step with the previous plan: nothing differs before the next changed key
      if (k === changedKeys.length) return { placements: pass.placements.concat(oldPlacements.slice(made)), rows: prev.rows };
      const key = changedKeys[k];
      while (pass.placements.length < oldPlacements.length && compareDrafts(placedBy[pass.placements.length], key) < 0) {
        pass.replay(oldPlacements[pass.placements.length]);
        matched++;
      }
      i = lowerBound(ordered, key, compareDrafts, i + 1);
      continue;
    }
    const outcome = pass.next(d);
    if (pass.placements.length > made && matched === made && sameEffect(pass.placements[made], oldPlacements[made])) matched++;
    decide(rows, d.target, outcome);
    i++;
  }
  return { placements: pass.placements, rows: pass.rows };
}

function sameList<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The row already says `outcome` (shared answers are the same objects, see internAnswer). */
function says(row: TablePlan, outcome: Outcome): boolean {
  const a = row.verdict;
  const b = outcome.verdict;
  if (a !== b) {
    if (a.state === "would_place" && b.state === "would_place") {
      if (a.executor !== b.executor || a.reserved_bytes !== b.reserved_bytes || a.kind !== b.kind) return false;
    } else if (a.state === "would_skip" && b.state === "would_skip") {
      if (a.code !== b.code || a.message !== b.message) return false;
    } else return false;
  }
  return sameList(row.why_not, outcome.whyNot);
}

function decide(rows: RowsDraft, target: string, outcome: Outcome): void {
  const row = rows.get(target);
  if (!rows.isFresh(row) && says(row, outcome)) return;
  const own = rows.own(target);
  own.verdict = outcome.verdict;
  own.why_not = outcome.whyNot;
}

/**
 * Place in line and ETA (placement-pass.ts `placeInLine`) over the patched order; a row is
 * copied only when its rank, count or units waiting ahead differ from the previous plan's.
 */
function relineup(prev: FleetPlan, state: RetainedPlan, wide: FleetWide, ordered: readonly TableDraft[], rows: RowsDraft): void {
  const of = countByKind(ordered);
  const seen = new Map<string, { rank: number; placed: number; placedBefore: number }>();
  const oldPlacements = prev.placements;
  let before = 0;
  for (const d of ordered) {
    const kind = d.candidate!.kind;
    let s = seen.get(kind);
    if (!s) seen.set(kind, (s = { rank: 0, placed: 0, placedBefore: 0 }));
    s.rank++;
    // previous placements before d (an unchanged draft keeps its key)
    while (before < oldPlacements.length && compareDrafts(state.drafts.get(oldPlacements[before].target)!, d) < 0) {
      const p = seen.get(oldPlacements[before].kind);
      if (p) p.placedBefore++;
      else seen.set(oldPlacements[before].kind, { rank: 0, placed: 0, placedBefore: 1 });
      before++;
    }
    let row = rows.get(d.target);
    const placed = row.verdict.state === "would_place";
    const waiting = s.rank - 1 - s.placed;
    const done = wide.completions.get(kind) ?? 0;
    if (!rows.isFresh(row)) {
      // same verdict as before (else the row was copied): the ETA moves only with the wait
      const pos = row.position!;
      const sameEta = placed || done === 0 || pos.rank - 1 - s.placedBefore === waiting;
      if (pos.rank === s.rank && pos.of === of.get(kind) && sameEta) {
        if (placed) s.placed++;
        continue;
      }
      row = rows.own(d.target);
    }
    row.position = { kind, rank: s.rank, of: of.get(kind)! };
    row.eta = etaOf(kind, placed, waiting, done);
    if (placed) s.placed++;
  }
}
