// Each candidate's place in line among the candidates of its kind, in planner order, and
// its ETA (console-api.md `TableSummary.position`, the one-table answer's `eta`). They are
// the plan's, not the rows': a table that moves in line moves every table between its old
// and new place, so rows that held them were copied, encoded again and sent again for every
// such move, and a plan step cost the fleet instead of the change. A plan's line is counted
// from its candidate order once, when first asked, in one pass of integer counts; a row
// names only the kind it waits in line for (`TablePlan.line_kind`).
import { COMPLETION_WINDOW_MS } from "./fairness";
import type { TableDraft } from "./table";
import type { Eta, PlanLine, PlannedPlacement, QueuePosition, TablePlan } from "./types";
import { compareOrderFields } from "../order";
import { plural } from "./why-not";

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
  /** candidates of its kind ahead of it that this plan does not place */
  waiting: Int32Array;
  placed: Uint8Array;
  /** candidates per kind */
  of: Map<string, number>;
  sizes: Readonly<Record<string, number>>;
}

/** A row's place in the candidate order: its key against a candidate's (a candidate is listed by its candidate unit's key). */
function compareToRow(d: TableDraft, t: TablePlan): number {
  const u = d.candidate!;
  const score = typeof t.score === "number" ? t.score : Infinity;
  return compareOrderFields(u.class_rank, u.wait_ms, u.score, d.target, t.class_rank, t.wait_ms, score, t.target);
}

export class Line implements PlanLine {
  private counted: Counted | null = null;
  /** the order's indices by target, made only if a row is not found by its key */
  private at: Map<string, number> | null = null;

  /**
   * @param ordered the candidates in planner order (a draft's `candidate` is set)
   * @param placements the plan's placements (a candidate it places: its verdict is `would_place`)
   * @param completions tasks of each kind finished in the last hour
   */
  constructor(
    private readonly ordered: readonly TableDraft[],
    private readonly placements: readonly PlannedPlacement[],
    private readonly completions: ReadonlyMap<string, number>,
  ) {}

  private count(): Counted {
    if (this.counted) return this.counted;
    const n = this.ordered.length;
    const c: Counted = {
      rank: new Int32Array(n),
      waiting: new Int32Array(n),
      placed: new Uint8Array(n),
      of: new Map(),
      sizes: {},
    };
    // per kind: candidates so far, and how many of them this plan places
    const kinds = new Map<string, { rank: number; placed: number }>();
    const placed = new Set<string>();
    for (const p of this.placements) placed.add(p.target);
    let kind = "";
    let k = { rank: 0, placed: 0 };
    for (let i = 0; i < n; i++) {
      const d = this.ordered[i];
      if (d.candidate!.kind !== kind) {
        kind = d.candidate!.kind;
        let next = kinds.get(kind);
        if (!next) kinds.set(kind, (next = { rank: 0, placed: 0 }));
        k = next;
      }
      const rank = ++k.rank;
      c.rank[i] = rank;
      c.waiting[i] = rank - 1 - k.placed;
      if (placed.size > 0 && placed.has(d.target)) {
        c.placed[i] = 1;
        k.placed++;
      }
    }
    for (const [name, counted] of kinds) c.of.set(name, counted.rank);
    c.sizes = Object.freeze(Object.fromEntries(c.of));
    return (this.counted = c);
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
    const c = this.count();
    const out = new Int32Array(rows.length);
    let next = 0;
    for (let r = 0; r < rows.length; r++) {
      const i = this.indexOf(rows[r], next);
      if (i < 0) continue;
      out[r] = c.rank[i];
      next = i + 1;
    }
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
    const c = this.count();
    const kind = this.ordered[i].candidate!.kind;
    return etaOf(kind, c.placed[i] === 1, c.waiting[i], this.completions.get(kind) ?? 0);
  }

  /** Every candidate's place and ETA in planner order (what two equal plans share, for tests that compare plans as JSON). */
  toJSON(): unknown[] {
    const c = this.count();
    return this.ordered.map((d, i) => {
      const kind = d.candidate!.kind;
      const eta = etaOf(kind, c.placed[i] === 1, c.waiting[i], this.completions.get(kind) ?? 0);
      return [d.target, { kind, rank: c.rank[i], of: c.of.get(kind)! }, eta];
    });
  }
}
