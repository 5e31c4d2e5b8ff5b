// The placement half of a re-plan (replan.ts): the greedy pass (§5.4, §5.5) and each
// candidate's place in line, re-run over the patched candidate order only where they can
// differ from the previous plan, writing rows copy-on-write.
import { cloneRow, type HeadroomRow } from "../headroom";
import { compareDrafts, copyTablePlan, internAnswer } from "./plan-fleet";
import { PlacementPass } from "./placement-pass";
import type { FleetWide, RetainedPlan } from "./retained";
import { lowerBound } from "./sorted-patch";
import type { Decision, TableDraft } from "./table";
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

/** Same capacity change: the state after a placement depends only on these. */
function sameEffect(a: PlannedPlacement, b: PlannedPlacement | undefined): boolean {
  return b !== undefined && a.executor === b.executor && a.kind === b.kind && a.reserved_bytes === b.reserved_bytes;
}

export interface Placed {
  placements: PlannedPlacement[];
  rows: HeadroomRow[];
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
  if (keys.length === 0) return { placements: prev.placements, rows: prev.rows };
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
      if (k === keys.length) return { placements: pass.placements.concat(oldPlacements.slice(made)), rows: prev.rows };
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
  return { placements: pass.placements, rows: pass.rows };
}

function sameList<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The row already says `outcome` (shared answers are the same objects, see internAnswer). */
function says(row: TablePlan, outcome: Decision): boolean {
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

function decide(rows: RowsDraft, target: string, outcome: Decision): void {
  let row = rows.changed.get(target);
  if (row === undefined) {
    const previous = rows.previous.get(target)!;
    if (says(previous, outcome)) return;
    row = rows.copy(target, previous);
  }
  row.verdict = outcome.verdict;
  row.why_not = outcome.whyNot;
}
