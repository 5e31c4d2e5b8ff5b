// The demand side of the live world: each table's shards as stored (the §3.5 join of every
// event published), its writers' flushes, and the merged marks its finished merges publish.
// The planner's own fold and scoring (§3.2, §4.1) say how far a table is from due, so the
// legacy sweep (./legacy.ts) queues a table before the console calls it due.
// Tables seeded with a large backlog keep it: their writers are hot and each pass merges
// what arrived since the last one, plus a share of the way back to the seeded backlog
// (README.md "Rates"). The other tables seeded with pending work are written to now and
// then and merged whole; the idle tail stays idle. `incident/…` tables move only by their
// lives (lib/sim/README.md "Incident lives").
import { foldEvent } from "@/lib/planner/fold";
import { executorMergedEvent, joinEvent, writerEvent } from "@/lib/planner/join";
import { scoreTable, type Scored } from "@/lib/planner/score";
import { emptyTableDemand, type DemandEvent, type TableDemand } from "@/lib/schema/demand";
import { SealedTimes } from "@/lib/schema/sealed-times";
import type { WorldRates } from "./rates";

/** A demand event to publish (read–join–CAS, §3.5): the world already holds its join. */
export interface Publish {
  target: string;
  event: DemandEvent;
}

interface Shard {
  id: string;
  stored: DemandEvent;
}

type Role = "backlogged" | "active" | "incident";

interface Table {
  target: string;
  role: Role;
  shards: Shard[];
  demand: TableDemand;
  /** flushes per tick */
  rate: number;
  /** the pending generations it was seeded with (a backlogged table keeps them) */
  keep: number;
  /** generations flushed since the world started, and at its last pass's start */
  flushed: number;
  flushedAtPass: number;
}

export interface SeededEvent {
  target: string;
  shard: string;
  event: DemandEvent;
}

const BYTES_PER_GENERATION = 1_048_576;
const isIncident = (target: string) => target.startsWith("incident/");

export class Writers {
  private readonly tables = new Map<string, Table>();
  /** writer tables by cumulative flush rate, for drawing who flushes */
  private readonly drawn: Table[] = [];
  private readonly cumulative: number[] = [];
  private revision = 0;

  /** `flushesPerTick`: scales every writer's rate so that they flush this many times a tick in all */
  constructor(
    events: Iterable<SeededEvent>,
    private readonly rates: Readonly<WorldRates>,
    flushesPerTick?: number,
  ) {
    for (const { target, shard, event } of events) {
      let t = this.tables.get(target);
      if (!t) {
        t = {
          target,
          role: "active",
          shards: [],
          demand: emptyTableDemand(),
          rate: 0,
          keep: 0,
          flushed: 0,
          flushedAtPass: 0,
        };
        this.tables.set(target, t);
      }
      t.shards.push({ id: shard, stored: event });
      foldEvent(t.demand, event, ++this.revision, 0);
    }
    let total = 0;
    for (const t of [...this.tables.values()]) {
      t.keep = this.pending(t.target);
      if (isIncident(t.target)) t.role = "incident";
      else if (t.keep === 0)
        this.tables.delete(t.target); // the idle tail: nobody writes there
      else if (t.keep >= rates.backloggedPending) t.role = "backlogged";
      t.rate = t.role === "backlogged" ? rates.backloggedFlushes : t.role === "active" ? rates.activeFlushes : 0;
      if (t.rate <= 0) continue;
      total += t.rate;
      this.drawn.push(t);
      this.cumulative.push(total);
    }
    if (flushesPerTick !== undefined && total > 0)
      for (let i = 0; i < this.cumulative.length; i++) this.cumulative[i] *= flushesPerTick / total;
  }

  /** Targets the world writes or merges (not the idle tail). */
  targets(): IterableIterator<string> {
    return this.tables.keys();
  }

  /** Tables with pending work, and the seeded backlog they keep (for the README's figures and tests). */
  roleOf(target: string): Role | null {
    return this.tables.get(target)?.role ?? null;
  }

  pending(target: string): number {
    const t = this.tables.get(target);
    if (!t) return 0;
    let n = 0;
    for (const s of t.shards) n += Math.max(0, s.stored.sealed_through - (s.stored.merged_through ?? 0));
    return n;
  }

  /** Σ pending generations of the tables the writers write (not the incidents'). */
  totalPending(): number {
    let n = 0;
    for (const t of this.tables.values()) if (t.role !== "incident") n += this.pending(t.target);
    return n;
  }

  /** The planner's score of the table now (§4.1), null when nothing is pending. */
  scored(target: string, now: number): Scored | null {
    const t = this.tables.get(target);
    return t ? scoreTable(target, t.demand, now) : null;
  }

  /** Whether the legacy sweep queues it now: at `sweepAhead` of the planner's due point. */
  sweepDue(target: string, now: number): boolean {
    const s = this.scored(target, now);
    if (s === null) return false;
    const ahead = this.rates.sweepAhead;
    return s.class_rank < 5 || s.score >= ahead || (s.wait_ms ?? 0) >= ahead * 3_600_000;
  }

  /** This tick's writer flushes: a Poisson number of them, each on a table drawn by its rate. */
  flushTick(now: number, random: () => number): Publish[] {
    const total = this.cumulative.at(-1) ?? 0;
    const out: Publish[] = [];
    for (let n = poisson(total, random); n > 0; n--) {
      const x = random() * total;
      let lo = 0;
      let hi = this.cumulative.length - 1;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (this.cumulative[mid] <= x) lo = mid + 1;
        else hi = mid;
      }
      const t = this.drawn[lo];
      const [min, max] = this.rates.flushGenerations;
      out.push(...this.flush(t.target, min + Math.floor(random() * (max - min + 1)), now, random));
    }
    return out;
  }

  /** `generations` new generations on one of the table's shards, flushed now (a writer event). */
  flush(target: string, generations: number, now: number, random: () => number): Publish[] {
    const t = this.tables.get(target);
    if (!t || generations <= 0) return [];
    const s = t.shards[Math.floor(random() * t.shards.length)];
    const from = s.stored.sealed_through;
    const sealed = from + generations;
    const times: [number, number][] = [];
    for (let g = from + 1; g <= sealed; g++) times.push([g, now - (sealed - g) * 50]);
    t.flushed += generations;
    return this.publish(
      t,
      s,
      writerEvent({
        shard: s.id,
        sealed,
        bytes: sealed * BYTES_PER_GENERATION,
        epoch: s.stored.writer_epoch,
        flushedAtMs: now,
        sealedTimes: SealedTimes.fromEntries(times),
      }),
      now,
    );
  }

  /**
   * How many generations a pass starting now merges: all that is pending (up to a pass's
   * worth), or for a backlogged table what arrived since its last pass plus a share of the
   * way back to its seeded backlog, so the backlog reverts to it instead of walking away.
   */
  startPass(target: string): number {
    const t = this.tables.get(target);
    if (!t) return 0;
    const pending = this.pending(target);
    const arrived = t.flushed - t.flushedAtPass;
    t.flushedAtPass = t.flushed;
    const most = Math.min(pending, this.rates.passGenerations);
    if (t.role !== "backlogged") return most;
    const take = arrived + Math.round((pending - t.keep) / this.rates.keepGain);
    return Math.max(Math.min(1, most), Math.min(most, take));
  }

  /** A finished merge: the `generations` oldest pending, fullest shards first, as executor merged marks. */
  merge(target: string, generations: number, now: number): Publish[] {
    const t = this.tables.get(target);
    if (!t) return [];
    const out: Publish[] = [];
    const shards = t.shards
      .map((s) => ({ s, pending: s.stored.sealed_through - (s.stored.merged_through ?? 0) }))
      .filter((x) => x.pending > 0)
      .sort((a, b) => b.pending - a.pending);
    let take = generations;
    for (const { s, pending } of shards) {
      if (take <= 0) break;
      const step = Math.min(take, pending);
      take -= step;
      out.push(...this.publish(t, s, executorMergedEvent(s.id, (s.stored.merged_through ?? 0) + step, now), now));
    }
    return out;
  }

  private publish(t: Table, s: Shard, event: DemandEvent, now: number): Publish[] {
    const joined = joinEvent(s.stored, event);
    if (joined === "unchanged") return [];
    s.stored = joined;
    foldEvent(t.demand, joined, ++this.revision, now);
    return [{ target: t.target, event }];
  }
}

/** Knuth's Poisson draw (small means). */
function poisson(mean: number, random: () => number): number {
  const limit = Math.exp(-mean);
  let k = 0;
  for (let p = random(); p > limit; p *= random()) k++;
  return k;
}
