// Each candidate's place in line among the candidates of its kind, in planner order, and
// its ETA (console-api.md `TableSummary.position`, the one-table answer's `eta`). They are
// the plan's, not the rows': a table that moves in line moves every table between its old
// and new place, so rows that held them were copied, encoded again and sent again for every
// such move, and a plan step cost the fleet instead of the change. A plan's line is counted
// from its candidate order once, when first asked, in one pass of integer counts; a row
// names only the kind it waits in line for (`TablePlan.line_kind`).
import { COMPLETION_WINDOW_MS } from "./fairness";
import type { TableDraft } from "./table";
import type { Eta, PlanLine, PlannedPlacement, QueuePosition } from "./types";
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
  /** index in the order, by target */
  at: Map<string, number>;
  /** 1-based rank among the candidates of its kind */
  rank: Int32Array;
  /** candidates of its kind ahead of it that this plan does not place */
  waiting: Int32Array;
  placed: Uint8Array;
  /** candidates per kind */
  of: Map<string, number>;
  sizes: Readonly<Record<string, number>>;
}

export class Line implements PlanLine {
  private counted: Counted | null = null;

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
      at: new Map(),
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
    for (let i = 0; i < n; i++) {
      const d = this.ordered[i];
      const kind = d.candidate!.kind;
      let k = kinds.get(kind);
      if (!k) kinds.set(kind, (k = { rank: 0, placed: 0 }));
      const rank = ++k.rank;
      c.at.set(d.target, i);
      c.rank[i] = rank;
      c.waiting[i] = rank - 1 - k.placed;
      if (placed.has(d.target)) {
        c.placed[i] = 1;
        k.placed++;
      }
    }
    for (const [kind, k] of kinds) c.of.set(kind, k.rank);
    c.sizes = Object.freeze(Object.fromEntries(c.of));
    return (this.counted = c);
  }

  /** `target`'s place in line, null when it is not a candidate. */
  positionOf(target: string): QueuePosition | null {
    const c = this.count();
    const i = c.at.get(target);
    if (i === undefined) return null;
    const kind = this.ordered[i].candidate!.kind;
    return { kind, rank: c.rank[i], of: c.of.get(kind)! };
  }

  /** Candidates per kind (the `of` of every place in line of that kind); never mutated. */
  sizes(): Readonly<Record<string, number>> {
    return this.count().sizes;
  }

  /** `target`'s ETA, null when it is not a candidate or nothing finished in the last hour to go on. */
  etaOf(target: string): Eta | null {
    const c = this.count();
    const i = c.at.get(target);
    if (i === undefined) return null;
    const kind = this.ordered[i].candidate!.kind;
    return etaOf(kind, c.placed[i] === 1, c.waiting[i], this.completions.get(kind) ?? 0);
  }

  /** Every candidate's place and ETA in planner order (what two equal plans share, for tests that compare plans as JSON). */
  toJSON(): unknown[] {
    return this.ordered.map((d) => [d.target, this.positionOf(d.target), this.etaOf(d.target)]);
  }
}
