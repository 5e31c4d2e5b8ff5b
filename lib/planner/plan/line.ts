// Each candidate's place in line among the candidates of its kind, in planner order, and
// its ETA (console-api.md `TableSummary.position`, the one-table answer's `eta`). They are
// the plan's, not the rows': a table that moves in line moves every table between its old
// and new place, so rows that held them were copied, encoded again and sent again for every
// such move, and a plan step cost the fleet instead of the change. A plan's line is counted
// from its candidate order once, when first asked, in one pass of integer counts; a row
// names only the kind it waits in line for (`TablePlan.line_kind`).
import { COMPLETION_WINDOW_MS } from "./fairness";
import type { TableDraft } from "./table";
import type { CarriedPlaces, Eta, LineStanding, PlanLine, PlannedPlacement, QueuePosition, TablePlan } from "./types";
import { compareOrderFields } from "../order";
import { plural } from "./why-not";
import { sameRun } from "@/lib/util/same-run";

const PLACED_NOW = "It would be placed now.";

/**
 * A candidate's ETA from the units of its kind still waiting ahead of it and the kind's
 * completions in the last hour: each waiting unit, and then this one, needs one completion
 * to free a slot. Null without any completion (no rate to go on).
 */
function etaOf(kind: string, placed: boolean, waiting: number, done: number): Eta | null {
  if (placed) return { low_ms: 0, high_ms: 0, basis: PLACED_NOW };
  if (done === 0) return null;
  const per = COMPLETION_WINDOW_MS / done;
  return {
    low_ms: Math.round(waiting * per),
    high_ms: Math.round((waiting + 1) * per),
    basis: `${plural(waiting, `${kind} unit`)} waiting ahead of it; ${plural(done, `${kind} task`)} finished in the last hour.`,
  };
}

interface Counted {
  /** 1-based rank among the candidates of its kind, by index in the order */
  rank: Int32Array;
  /** candidates per kind */
  of: Map<string, number>;
  sizes: Readonly<Record<string, number>>;
}

interface Waiting {
  /** candidates of its kind ahead of it that this plan does not place */
  waiting: Int32Array;
  placed: Uint8Array;
  /** candidates of its kind in planner mode ahead of it */
  planner: Int32Array;
}

/**
 * The kinds of a line's candidates by index, as small numbers: a kind's number is its index
 * in `names`, which lines patched one from another share and only ever extend.
 */
interface Kinds {
  names: string[];
  byName: Map<string, number>;
  of: Uint16Array;
}

/** The line a patched plan's line was made from, and the candidates the patch took out of its order. */
export interface LineBefore {
  line: PlanLine;
  removed: ReadonlySet<TableDraft>;
}

/** A row's place in the candidate order: its key against a candidate's (a candidate is listed by its candidate unit's key). */
function compareToRow(d: TableDraft, t: TablePlan): number {
  const u = d.candidate!;
  const score = typeof t.score === "number" ? t.score : Infinity;
  return compareOrderFields(u.class_rank, u.wait_ms, u.score, d.target, t.class_rank, t.wait_ms, score, t.target);
}

function kindOf(kinds: Kinds, d: TableDraft, shared?: Kinds): number {
  const name = d.candidate!.kind;
  let k = kinds.byName.get(name);
  if (k === undefined) {
    if (shared !== undefined && kinds.names === shared.names) {
      // the first new kind: the names become this line's own
      kinds.names = shared.names.slice();
      kinds.byName = new Map(shared.byName);
    }
    k = kinds.names.length;
    kinds.names.push(name);
    kinds.byName.set(name, k);
  }
  return k;
}

/** Each candidate's kind number, from scratch. */
function kindsOf(ordered: readonly TableDraft[], names: Kinds | null): Kinds {
  const kinds: Kinds = names
    ? { names: names.names.slice(), byName: new Map(names.byName), of: new Uint16Array(ordered.length) }
    : { names: [], byName: new Map(), of: new Uint16Array(ordered.length) };
  for (let i = 0; i < ordered.length; i++) kinds.of[i] = kindOf(kinds, ordered[i]);
  return kinds;
}

/**
 * Each candidate's kind number carried over from the line before (the same draft objects,
 * by one walk of both orders), and where each of its candidates now sits (-1: taken out).
 * Null when `ordered` is not the line before's order without `removed` and with new drafts
 * in between (then the kinds are counted from scratch).
 */
function kindsCarried(
  ordered: readonly TableDraft[],
  before: Line,
  removed: ReadonlySet<TableDraft>,
): { kinds: Kinds; moved: Int32Array } | null {
  const old = before.orderedDrafts();
  const oldKinds = before.kindNumbers();
  // the kind names are the line before's until a new kind turns up (`kindOf` copies them then)
  const kinds: Kinds = { names: oldKinds.names, byName: oldKinds.byName, of: new Uint16Array(ordered.length) };
  const moved = new Int32Array(old.length); // every index is set below, or the walk fails
  let i = 0;
  let k = 0;
  while (k < ordered.length) {
    const run = sameRun(old, i, ordered, k);
    if (run > 0) {
      kinds.of.set(oldKinds.of.subarray(i, i + run), k);
      for (let r = 0; r < run; r++) moved[i + r] = k + r;
      i += run;
      k += run;
    } else if (i < old.length && removed.has(old[i])) moved[i++] = -1;
    else kinds.of[k] = kindOf(kinds, ordered[k++], oldKinds); // a new draft (a kept one is never passed over: see below)
  }
  while (i < old.length && removed.has(old[i])) moved[i++] = -1;
  // every draft of the line before is either taken out or found in order; else count afresh
  return i === old.length ? { kinds, moved } : null;
}

/**
 * `line` as a Line, by its shape: a plan's line is a PlanLine to its readers, a Line to the
 * patch that continues it.
 */
function asLine(line: PlanLine | undefined): Line | null {
  return line !== undefined && typeof (line as Partial<Line>).kindNumbers === "function" ? (line as Line) : null;
}

export class Line implements PlanLine {
  /** names this line (a later line patched from it knows it by this, without holding it) */
  readonly token: object = {};
  private counted: Counted | null = null;
  private waited: Waiting | null = null;
  private readonly kinds: Kinds;
  /** the token of the line this one was patched from, and where each of its candidates sits here (-1: gone) */
  private readonly before: { token: object; moved: Int32Array } | null = null;
  /** the order's indices by target, made only if a row is not found by its key */
  private at: Map<string, number> | null = null;

  /**
   * @param ordered the candidates in planner order (a draft's `candidate` is set)
   * @param placements the plan's placements (a candidate it places: its verdict is `would_place`)
   * @param completions tasks of each kind finished in the last hour
   * @param patchedFrom the line of the plan this one's was patched from: candidates it shares
   *   keep their kind numbers, and rows that a listing shares with one of that line carry
   *   their places (`placesAlong`)
   */
  constructor(
    private readonly ordered: readonly TableDraft[],
    private readonly placements: readonly PlannedPlacement[],
    private readonly completions: ReadonlyMap<string, number>,
    patchedFrom?: LineBefore,
  ) {
    const before = asLine(patchedFrom?.line);
    const carried = before && kindsCarried(ordered, before, patchedFrom!.removed);
    if (carried) {
      this.kinds = carried.kinds;
      this.before = { token: before!.token, moved: carried.moved };
    } else this.kinds = kindsOf(ordered, before && before.kindNumbers());
  }

  /** @internal the candidate order (for the line patched from this one) */
  orderedDrafts(): readonly TableDraft[] {
    return this.ordered;
  }

  /** @internal each candidate's kind number (for the line patched from this one) */
  kindNumbers(): Kinds {
    return this.kinds;
  }

  private count(): Counted {
    if (this.counted) return this.counted;
    const n = this.ordered.length;
    const kinds = this.kinds.of;
    const rank = new Int32Array(n);
    const so = new Int32Array(this.kinds.names.length);
    const seen: number[] = []; // kinds in order of their first candidate
    for (let i = 0; i < n; i++) {
      const k = kinds[i];
      if (so[k] === 0) seen.push(k);
      rank[i] = ++so[k];
    }
    const of = new Map<string, number>();
    for (const k of seen) of.set(this.kinds.names[k], so[k]);
    return (this.counted = { rank, of, sizes: Object.freeze(Object.fromEntries(of)) });
  }

  /** How many of each candidate's kind ahead of it this plan does not place (asked for ETAs only). */
  private waiting(): Waiting {
    if (this.waited) return this.waited;
    const n = this.ordered.length;
    const kinds = this.kinds.of;
    const w: Waiting = { waiting: new Int32Array(n), placed: new Uint8Array(n), planner: new Int32Array(n) };
    const placed = new Set<string>();
    for (const p of this.placements) placed.add(p.target);
    const so = new Int32Array(this.kinds.names.length);
    const placedSo = new Int32Array(this.kinds.names.length);
    const plannerSo = new Int32Array(this.kinds.names.length);
    for (let i = 0; i < n; i++) {
      const k = kinds[i];
      w.waiting[i] = so[k]++ - placedSo[k];
      w.planner[i] = plannerSo[k];
      if (this.ordered[i].policy.effective.mode === "planner") plannerSo[k]++;
      if (placed.size > 0 && placed.has(this.ordered[i].target)) {
        w.placed[i] = 1;
        placedSo[k]++;
      }
    }
    return (this.waited = w);
  }

  /**
   * Where row `t` sits in the candidate order, -1 when it is not a candidate: found by its key
   * (binary search), or by its target when its key does not find it (another plan's row of
   * the table). `from`: a first guess (the next candidate, for rows listed in planner order).
   */
  private indexOf(t: TablePlan, from = -1): number {
    if (t.line_kind === null) return -1;
    const ordered = this.ordered;
    if (from >= 0 && from < ordered.length && ordered[from].target === t.target) return from;
    let lo = 0;
    let hi = ordered.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareToRow(ordered[mid], t) < 0) lo = mid + 1;
      else hi = mid;
    }
    if (lo < ordered.length && ordered[lo].target === t.target) return lo;
    if (this.at === null) {
      this.at = new Map();
      for (let i = 0; i < ordered.length; i++) this.at.set(ordered[i].target, i);
    }
    return this.at.get(t.target) ?? -1;
  }

  /** Row `t`'s place in line, null when it is not a candidate. */
  positionOf(t: TablePlan): QueuePosition | null {
    const i = this.indexOf(t);
    if (i < 0) return null;
    const c = this.count();
    const kind = this.ordered[i].candidate!.kind;
    return { kind, rank: c.rank[i], of: c.of.get(kind)! };
  }

  /** Each row's rank in line (0: not a candidate), for rows in any order; fastest in planner order. */
  ranksAlong(rows: readonly TablePlan[]): Int32Array {
    return this.ranksAt(this.placesAlong(rows));
  }

  /**
   * Each row's index in the candidate order (-1: not a candidate), for rows in any order. A
   * row that `carried` knew as the very same object, in this line or in the one this line was
   * patched from, keeps its place (moved as the patch moved it) without being looked for: a
   * listing of a patched plan shares all but a few rows with the listing before it.
   */
  placesAlong(rows: readonly TablePlan[], carried?: CarriedPlaces): Int32Array {
    const moved =
      carried === undefined
        ? undefined
        : carried.line === this.token
          ? null
          : carried.line === this.before?.token
            ? this.before.moved
            : undefined;
    const out = new Int32Array(rows.length);
    let next = 0;
    for (let r = 0; r < rows.length; r++) {
      const k = moved === undefined ? -1 : carried!.kept[r];
      let i: number;
      if (k >= 0) {
        const was = carried!.places[k];
        i = was < 0 ? -1 : moved ? moved[was] : was;
      } else i = this.indexOf(rows[r], next);
      out[r] = i;
      if (i >= 0) next = i + 1;
    }
    return out;
  }

  /** The rank in line at each index of the candidate order (0 at -1: not a candidate). */
  ranksAt(places: Int32Array): Int32Array {
    const rank = this.count().rank;
    const out = new Int32Array(places.length);
    for (let r = 0; r < places.length; r++) if (places[r] >= 0) out[r] = rank[places[r]];
    return out;
  }

  /** Candidates per kind (the `of` of every place in line of that kind); never mutated. */
  sizes(): Readonly<Record<string, number>> {
    return this.count().sizes;
  }

  /** Row `t`'s ETA, null when it is not a candidate or nothing finished in the last hour to go on. */
  etaOf(t: TablePlan): Eta | null {
    const i = this.indexOf(t);
    if (i < 0) return null;
    const w = this.waiting();
    const kind = this.ordered[i].candidate!.kind;
    return etaOf(kind, w.placed[i] === 1, w.waiting[i], this.completions.get(kind) ?? 0);
  }

  /** Row `t`'s place, the units of its kind waiting ahead of it, whether placed, and its kind's completions; null when not a candidate. */
  standingOf(t: TablePlan): LineStanding | null {
    const i = this.indexOf(t);
    if (i < 0) return null;
    const c = this.count();
    const w = this.waiting();
    const kind = this.ordered[i].candidate!.kind;
    return {
      position: { kind, rank: c.rank[i], of: c.of.get(kind)! },
      waiting: w.waiting[i],
      planner_ahead: w.planner[i],
      placed: w.placed[i] === 1,
      done: this.completions.get(kind) ?? 0,
    };
  }

  /** Every candidate's place and ETA in planner order (what two equal plans share, for tests that compare plans as JSON). */
  toJSON(): unknown[] {
    const c = this.count();
    const w = this.waiting();
    return this.ordered.map((d, i) => {
      const kind = d.candidate!.kind;
      const eta = etaOf(kind, w.placed[i] === 1, w.waiting[i], this.completions.get(kind) ?? 0);
      return [d.target, { kind, rank: c.rank[i], of: c.of.get(kind)! }, eta];
    });
  }
}
