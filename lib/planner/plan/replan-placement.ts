// The placement half of a re-plan (replan.ts): the greedy pass (§5.4, §5.5) and each
// candidate's place in line, re-run over the patched candidate order only where they can
// differ from the previous plan, writing rows copy-on-write.
import { cloneRow, type HeadroomRow } from "../headroom";
import { compareDrafts, copyTablePlan, internAnswer } from "./plan-fleet";
import { etaOf, PlacementPass } from "./placement-pass";
import type { FleetWide, RetainedPlan } from "./retained";
import { lowerBound } from "./sorted-patch";
import type { Outcome, TableDraft } from "./table";
import type { FleetPlan, PlannedPlacement, TablePlan } from "./types";

/**
 * The rows of the new plan: the previous plan's until one is re-drafted or copied here
 * (copy-on-write). Every row in `changed` belongs to the new plan alone and may be written.
 */
export class RowsDraft {
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
    const copy = copyTablePlan(row);
    this.changed.set(target, copy);
    this.replaced.set(row, copy);
    return copy;
  }

  /** The row of `target`, writable. */
  own(target: string): TablePlan {
    return this.changed.get(target) ?? this.copy(target, this.previous.get(target)!);
  }
}

export interface CandidateChange {
  /** drafts of the previous plan no longer in the candidate order */
  removed: ReadonlySet<TableDraft>;
  /** new drafts in it */
  inserted: ReadonlySet<TableDraft>;
}

/** The changed candidates' keys (previous and new), in planner order. */
export function changedKeys(change: CandidateChange): TableDraft[] {
  return [...change.removed, ...change.inserted].sort(compareDrafts);
}

/** Candidates per kind after the change. */
export function countsAfter(counts: ReadonlyMap<string, number>, change: CandidateChange): Map<string, number> {
  const out = new Map(counts);
  for (const d of change.removed) out.set(d.candidate!.kind, out.get(d.candidate!.kind)! - 1);
  for (const d of change.inserted) out.set(d.candidate!.kind, (out.get(d.candidate!.kind) ?? 0) + 1);
  return out;
}

/** Kinds whose candidate count changed (every candidate of such a kind moves in line). */
export function netChangedKinds(change: CandidateChange): Set<string> {
  const net = new Map<string, number>();
  for (const d of change.removed) net.set(d.candidate!.kind, (net.get(d.candidate!.kind) ?? 0) - 1);
  for (const d of change.inserted) net.set(d.candidate!.kind, (net.get(d.candidate!.kind) ?? 0) + 1);
  return new Set([...net].filter(([, n]) => n !== 0).map(([kind]) => kind));
}

/** Same capacity change: the state after a placement depends only on these. */
function sameEffect(a: PlannedPlacement, b: PlannedPlacement | undefined): boolean {
  return b !== undefined && a.executor === b.executor && a.kind === b.kind && a.reserved_bytes === b.reserved_bytes;
}

export interface Placed {
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
export function rerunPlacement(
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
      if (k === keys.length)
        return { placements: pass.placements.concat(oldPlacements.slice(made)), rows: prev.rows, inStepFrom: i };
      const key = keys[k];
      while (
        pass.placements.length < oldPlacements.length &&
        compareDrafts(placedBy[pass.placements.length], key) < 0
      ) {
        pass.replay(oldPlacements[pass.placements.length]);
        matched++;
      }
      i = lowerBound(ordered, key, compareDrafts, i + 1);
      continue;
    }
    const outcome = pass.next(d);
    if (pass.placements.length > made && matched === made && sameEffect(pass.placements[made], oldPlacements[made]))
      matched++;
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

export interface Lineup {
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
export function relineup(
  prev: FleetPlan,
  state: RetainedPlan,
  wide: FleetWide,
  ordered: readonly TableDraft[],
  rows: RowsDraft,
  lineup: Lineup,
): void {
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
    while (before < oldPlacements.length && compareDrafts(placedBy(before), d) < 0)
      counter(oldPlacements[before++].kind).placedBefore++;
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
