// Re-planning after a change, at the same `now`, in work proportional to the change: the
// result equals `planFleet(next, now)` (byte for byte as JSON), but only the tables whose
// own inputs changed are drafted again (fleet-diff.ts), the candidate order and the
// listed orders are patched by binary search (sorted-patch.ts), the greedy placement
// (§5.4, §5.5) resumes where the first change sits and stops as soon as its state —
// the placements made so far — is again the previous plan's, and rows are copied only
// where a verdict, position or ETA moves. The previous plan is never mutated.
import { cloneRow } from "../headroom";
import type { Scored } from "../score";
import { changedTargets, sameFleetWide, type TableChanges } from "./fleet-diff";
import type { PlannerFleet } from "./input";
import {
  addCounts, buildPlan, compareDrafts, comparePlans, compareScored, hasNaN, hasNaNKey, internAnswer, planTable, policyResolver,
} from "./plan-fleet";
import type { DraftsEdit } from "./drafts";
import { etaOf, PlacementPass } from "./placement-pass";
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
  const changes = changedTargets(state.fleet, next, Math.max(64, next.tables.size * MAX_CHANGED_SHARE));
  const patched = changes && patchPlan(previous, state, next, changes, now);
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
 * (copy-on-write). Every row in `changed` belongs to the new plan alone and may be written.
 */
class RowsDraft {
  readonly changed = new Map<string, TablePlan>();
  /** previous row → its copy (same sort key) */
  readonly replaced = new Map<TablePlan, TablePlan>();

  constructor(readonly previous: ReadonlyMap<string, TablePlan>) {}

  /** A newly drafted row. */
  add(row: TablePlan): void {
    this.changed.set(row.target, row);
  }

  /** A writable copy of `row`, the previous plan's row of `target`. */
  copy(target: string, row: TablePlan): TablePlan {
    const copy = { ...row };
    this.changed.set(target, copy);
    this.replaced.set(row, copy);
    return copy;
  }

  /** The row of `target`, writable. */
  own(target: string): TablePlan {
    return this.changed.get(target) ?? this.copy(target, this.previous.get(target)!);
  }
}

interface Patched {
  plan: FleetPlan;
  retained: RetainedPlan;
}

function patchPlan(prev: FleetPlan, state: RetainedPlan, next: PlannerFleet, changes: TableChanges, now: number): Patched | null {
  const dirty = changes.targets;
  const policiesChanged = state.fleet.policies.tables !== next.policies.tables;
  const wide: FleetWide = policiesChanged ? { ...state.fleetWide, policyFor: policyResolver(next.policies) } : state.fleetWide;
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
  const keys = changedKeys(change);
  const placed = rerunPlacement(prev, state, wide, ordered, change, keys, rows);
  const kindCounts = countsAfter(state.kindCounts, change);
  const from = keys.length === 0 ? ordered.length : lowerBound(ordered, keys[0], compareDrafts);
  const afterChanges = keys.length === 0 ? ordered.length : lowerBound(ordered, keys[keys.length - 1], compareDrafts) + 1;
  if (keys.length > 0) relineup(prev, state, wide, ordered, rows, { firstKey: keys[0], from, settledFrom: Math.max(afterChanges, placed.inStepFrom), kindCounts, netChanged: netChangedKinds(change) });

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
  };
  const kept: RetainedPlan = { fleet: next, now, fleetWide: wide, drafts: drafts.done(), ordered, kindCounts, scoredAt: listed.scoredAt };
  return { plan, retained: kept };
}

/**
 * `byTarget` and `scored` in the order of `next.tables`, as a full plan builds them. With
 * the same keys in the same order (a watch event changed tables in place), the previous
 * map is copied and patched, and `scored` is patched at the remembered positions while no
 * table gained or lost its merge score; otherwise both are listed again.
 */
function listedInFleetOrder(prev: FleetPlan, state: RetainedPlan, next: PlannerFleet, changes: TableChanges, drafts: DraftsEdit, rows: RowsDraft) {
  const changed = rows.changed;
  if (changes.sameKeys) {
    const byTarget = new Map(prev.byTarget);
    for (const [target, row] of changed) byTarget.set(target, row);
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

interface CandidateChange {
  /** drafts of the previous plan no longer in the candidate order */
  removed: ReadonlySet<TableDraft>;
  /** new drafts in it */
  inserted: ReadonlySet<TableDraft>;
}

/** The changed candidates' keys (previous and new), in planner order. */
function changedKeys(change: CandidateChange): TableDraft[] {
  return [...change.removed, ...change.inserted].sort(compareDrafts);
}

/** Candidates per kind after the change. */
function countsAfter(counts: ReadonlyMap<string, number>, change: CandidateChange): Map<string, number> {
  const out = new Map(counts);
  for (const d of change.removed) out.set(d.candidate!.kind, out.get(d.candidate!.kind)! - 1);
  for (const d of change.inserted) out.set(d.candidate!.kind, (out.get(d.candidate!.kind) ?? 0) + 1);
  return out;
}

/** Kinds whose candidate count changed (every candidate of such a kind moves in line). */
function netChangedKinds(change: CandidateChange): Set<string> {
  const net = new Map<string, number>();
  for (const d of change.removed) net.set(d.candidate!.kind, (net.get(d.candidate!.kind) ?? 0) - 1);
  for (const d of change.inserted) net.set(d.candidate!.kind, (net.get(d.candidate!.kind) ?? 0) + 1);
  return new Set([...net].filter(([, n]) => n !== 0).map(([kind]) => kind));
}

/** Same capacity change: the state after a placement depends only on these. */
function sameEffect(a: PlannedPlacement, b: PlannedPlacement | undefined): boolean {
  return b !== undefined && a.executor === b.executor && a.kind === b.kind && a.reserved_bytes === b.reserved_bytes;
}

interface Placed {
  placements: PlannedPlacement[];
  rows: HeadroomRow[];
  /** from this index of the order on, placements and verdicts are the previous plan's */
  inStepFrom: number;
}

/**
 * The greedy placement over the patched candidate order, run only where it can differ:
 * from the first changed key, with the capacity the previous plan's earlier placements
 * left; wherever the placements made so far equal the previous plan's (same executors,
 * kinds and bytes, in order), every candidate up to the next changed key decides as it
 * did before, so the pass jumps there, replaying the placements in between. Past the
 * last change, once in step, the rest of the previous plan holds as it was. Out of step,
 * it runs to the end; past the point where no executor fits any kind, each candidate's
 * verdict is a remembered no-fit answer (or the cycle limit) after its own blockers.
 */
function rerunPlacement(
  prev: FleetPlan,
  state: RetainedPlan,
  wide: FleetWide,
  ordered: readonly TableDraft[],
  change: CandidateChange,
  keys: readonly TableDraft[],
  rows: RowsDraft,
): Placed {
  if (keys.length === 0) return { placements: prev.placements, rows: prev.rows, inStepFrom: 0 };
  const oldPlacements = prev.placements;
  // the previous plan's placements by the (previous) draft that made them, in planner order
  const placedBy = oldPlacements.map((p) => state.drafts.get(p.target)!);
  const first = keys[0];
  const pass = new PlacementPass(wide.baseRows.map(cloneRow), new Map(wide.index.recentPlacements), wide.limits, {
    cycle: wide.cycle,
    intern: (a) => internAnswer(wide.pool, a),
  });
  while (pass.placements.length < oldPlacements.length && compareDrafts(placedBy[pass.placements.length], first) < 0) {
    pass.replay(oldPlacements[pass.placements.length]);
  }
  let matched = pass.placements.length; // leading placements with the previous plan's effect
  let before = matched; // previous placements made before ordered[i]
  let k = 0; // keys[k] is the first changed key not before ordered[i]
  let i = lowerBound(ordered, first, compareDrafts);
  while (i < ordered.length) {
    const d = ordered[i];
    while (before < oldPlacements.length && compareDrafts(placedBy[before], d) < 0) before++;
    while (k < keys.length && compareDrafts(keys[k], d) < 0) k++;
    const made = pass.placements.length;
    if (!change.inserted.has(d) && matched === made && before === made) {
      // in step with the previous plan: nothing differs before the next changed key
      if (k === keys.length) return { placements: pass.placements.concat(oldPlacements.slice(made)), rows: prev.rows, inStepFrom: i };
      const key = keys[k];
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
  return { placements: pass.placements, rows: pass.rows, inStepFrom: ordered.length };
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
  let row = rows.changed.get(target);
  if (row === undefined) {
    const previous = rows.previous.get(target)!;
    if (says(previous, outcome)) return;
    row = rows.copy(target, previous);
  }
  row.verdict = outcome.verdict;
  row.why_not = outcome.whyNot;
}

interface Lineup {
  /** the first changed key, and where it sits in the new order (ordered.length: no candidate changed) */
  firstKey: TableDraft;
  from: number;
  /** past the last changed key and in step with the previous placements */
  settledFrom: number;
  kindCounts: ReadonlyMap<string, number>;
  /** kinds whose count changed: all their candidates move in line */
  netChanged: ReadonlySet<string>;
}

/**
 * Place in line and ETA (placement-pass.ts `placeInLine`) where they can move: from the
 * first changed key on; before it and once the changes and placements are behind, only
 * for kinds whose count changed. A row is copied only when its rank, count or units waiting ahead
 * differ from the previous plan's.
 */
function relineup(prev: FleetPlan, state: RetainedPlan, wide: FleetWide, ordered: readonly TableDraft[], rows: RowsDraft, lineup: Lineup): void {
  const { from, settledFrom, kindCounts, netChanged } = lineup;
  const seen = new Map<string, { rank: number; placed: number; placedBefore: number }>();
  const counter = (kind: string) => {
    let c = seen.get(kind);
    if (!c) seen.set(kind, (c = { rank: 0, placed: 0, placedBefore: 0 }));
    return c;
  };
  for (let i = 0; i < from && i < ordered.length; i++) {
    const d = ordered[i];
    const kind = d.candidate!.kind;
    const rank = ++counter(kind).rank;
    // before the first change only the count of a kind can move
    if (netChanged.has(kind)) rows.own(d.target).position = { kind, rank, of: kindCounts.get(kind)! };
  }
  const oldPlacements = prev.placements;
  const placedBy = (m: number) => state.drafts.get(oldPlacements[m].target)!;
  let before = 0;
  // before the first changed key the plans agree: those placements count for both
  while (before < oldPlacements.length && compareDrafts(placedBy(before), lineup.firstKey) < 0) {
    const c = counter(oldPlacements[before].kind);
    c.placed++;
    c.placedBefore++;
    before++;
  }
  for (let i = from; i < ordered.length; i++) {
    const d = ordered[i];
    const kind = d.candidate!.kind;
    if (i >= settledFrom && !netChanged.has(kind)) {
      if (netChanged.size === 0) break;
      continue;
    }
    const s = counter(kind);
    s.rank++;
    // previous placements before d, by kind (an unchanged draft keeps its key)
    while (before < oldPlacements.length && compareDrafts(placedBy(before), d) < 0) counter(oldPlacements[before++].kind).placedBefore++;
    const mine = rows.changed.get(d.target);
    let row = mine ?? rows.previous.get(d.target)!;
    const placed = row.verdict.state === "would_place";
    const waiting = s.rank - 1 - s.placed;
    const done = wide.completions.get(kind) ?? 0;
    const of = kindCounts.get(kind)!;
    if (mine === undefined) {
      // same verdict as before (else the row was copied): the ETA moves only with the wait
      const pos = row.position!;
      const sameEta = placed || done === 0 || pos.rank - 1 - s.placedBefore === waiting;
      if (pos.rank === s.rank && pos.of === of && sameEta) {
        if (placed) s.placed++;
        continue;
      }
      row = rows.copy(d.target, row);
    }
    row.position = { kind, rank: s.rank, of };
    row.eta = etaOf(kind, placed, waiting, done);
    if (placed) s.placed++;
  }
}
