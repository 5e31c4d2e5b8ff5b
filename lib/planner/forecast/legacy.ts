// The legacy world's standing of a table (console-api.md "Forecasts, per world …", `legacy`):
// its rank among the queued `queue/` tasks of its head unit's kind in id order (the order the
// legacy claimers take them, scheduler-model.md §1.2), and the ETA from the legacy workers'
// recent throughput of that kind: `tasks/` records finished in the last hour. Pure.
import type { TaskRecord } from "@/lib/schema/tasks";
import { COMPLETION_WINDOW_MS } from "../plan/fairness";
import { normalQuantile } from "./conformal";
import type { BasisPart, Standing } from "./standing";
import type { QueuePosition } from "../plan/types";
import { legacyBasis } from "./basis";
import { plannerCycles, type PlannerCycles } from "./planner-cycles";

/** Fewer finishes than this in the last hour give no rate (one or two say little of the next hundred). */
export const MIN_FINISHES = 5;

/** The legacy queue at one revision, indexed once for every table's standing. */
export interface LegacyLine {
  /** kind → target → 1-based rank among the queued tasks of that kind, in id order */
  rank: ReadonlyMap<string, ReadonlyMap<string, number>>;
  /** kind → target → the id of its queued task of that kind (the one whose start is its turn) */
  ids: ReadonlyMap<string, ReadonlyMap<string, string>>;
  /** kind → queued tasks of that kind */
  queued: ReadonlyMap<string, number>;
  /** kind → target → the started_at of its running task of that kind (null: not dated) */
  running: ReadonlyMap<string, ReadonlyMap<string, number | null>>;
  /** kind → tasks that finished (done or failed) in (now − 1 h, now] */
  finished: ReadonlyMap<string, number>;
  /**
   * kind → the mean time between those finishes: (last − first) ÷ (n − 1), or the hour for a
   * single one. Measured between finishes, not as n per hour, so a fleet observed for less
   * than an hour (the `tasks/` records go back no further) is not read as slower than it is.
   */
  gap_ms: ReadonlyMap<string, number>;
  /** kind → slots of non-draining heartbeating executors not taken by a running task */
  free: ReadonlyMap<string, number>;
  /** kind → target → the end of a cooldown still running (the legacy sweep skips it until then) */
  cooling: ReadonlyMap<string, ReadonlyMap<string, number>>;
  /**
   * kind → the planner's own placements made in (now − 1 h, now]: non-shadow assignments
   * (§2.5) created then, what the tables in planner mode go by (./planner-world.ts)
   */
  placed: ReadonlyMap<string, number>;
  /** kind → the leader's cycles that placed them (./planner-cycles.ts), null with fewer than two */
  cycles: ReadonlyMap<string, PlannerCycles | null>;
}

export interface LegacyInputs {
  /** `queue/` records (any order: ranked here by id) */
  queue: Iterable<TaskRecord>;
  /** `running/` records */
  running: Iterable<TaskRecord>;
  /** `tasks/` records of the read's window */
  tasks: Iterable<TaskRecord>;
  /** slots per kind of the non-draining heartbeating executors */
  slots: ReadonlyMap<string, number>;
  /** cooldowns: kind, target and `until_ms` */
  cooldowns: Iterable<{ kind: string; target: string; until_ms: number | null }>;
  /** assignments (§2.5): kind, state and `created_ms` (shadow rows are not placements) */
  assignments?: Iterable<{ kind: string; state: string; created_ms: number }>;
}

/** How many moments of each kind fell in (now − 1 h, now], and the mean time between them (the hour for one). */
function rateOf(moments: Iterable<{ kind: string; at: number }>, now: number) {
  const count = new Map<string, number>();
  const first = new Map<string, number>();
  const last = new Map<string, number>();
  for (const { kind, at } of moments) {
    if (at > now || at <= now - COMPLETION_WINDOW_MS) continue;
    count.set(kind, (count.get(kind) ?? 0) + 1);
    first.set(kind, Math.min(first.get(kind) ?? at, at));
    last.set(kind, Math.max(last.get(kind) ?? at, at));
  }
  const gap = new Map<string, number>();
  for (const [kind, n] of count) {
    const between = last.get(kind)! - first.get(kind)!;
    gap.set(kind, n >= 2 && between > 0 ? between / (n - 1) : COMPLETION_WINDOW_MS);
  }
  return { count, gap };
}

function nested<V>(map: Map<string, Map<string, V>>, kind: string): Map<string, V> {
  let inner = map.get(kind);
  if (!inner) map.set(kind, (inner = new Map()));
  return inner;
}

export function legacyLine(input: LegacyInputs, now: number): LegacyLine {
  const queued = [...input.queue].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const rank = new Map<string, Map<string, number>>();
  const ids = new Map<string, Map<string, string>>();
  for (const t of queued) {
    const byTarget = nested(rank, t.kind);
    if (byTarget.has(t.target)) continue;
    byTarget.set(t.target, byTarget.size + 1);
    nested(ids, t.kind).set(t.target, t.id);
  }
  const running = new Map<string, Map<string, number | null>>();
  const busy = new Map<string, number>();
  for (const t of input.running) {
    nested(running, t.kind).set(t.target, t.started_at ?? null);
    busy.set(t.kind, (busy.get(t.kind) ?? 0) + 1);
  }
  const finishes: { kind: string; at: number }[] = [];
  for (const t of input.tasks)
    if (t.finished_at != null && (t.state === "done" || t.state === "failed"))
      finishes.push({ kind: t.kind, at: t.finished_at });
  const { count: finished, gap } = rateOf(finishes, now);
  const placements: { kind: string; at: number }[] = [];
  for (const a of input.assignments ?? [])
    if (a.state !== "shadow" && a.created_ms <= now && a.created_ms > now - COMPLETION_WINDOW_MS)
      placements.push({ kind: a.kind, at: a.created_ms });
  const placed = new Map<string, number>();
  for (const p of placements) placed.set(p.kind, (placed.get(p.kind) ?? 0) + 1);
  const cycles = new Map<string, PlannerCycles | null>();
  for (const kind of placed.keys())
    cycles.set(
      kind,
      plannerCycles(
        placements.filter((p) => p.kind === kind).map((p) => p.at),
        now,
      ),
    );
  const free = new Map<string, number>();
  for (const [kind, slots] of input.slots) free.set(kind, Math.max(0, slots - (busy.get(kind) ?? 0)));
  const cooling = new Map<string, Map<string, number>>();
  for (const c of input.cooldowns)
    if (c.until_ms !== null && c.until_ms > now) nested(cooling, c.kind).set(c.target, c.until_ms);
  const sizes = new Map<string, number>();
  for (const [kind, byTarget] of rank) sizes.set(kind, byTarget.size);
  return {
    rank,
    ids,
    queued: sizes,
    running,
    finished,
    gap_ms: gap,
    free,
    cooling,
    placed,
    cycles,
  };
}

/**
 * The spread of an interval not calibrated yet: the time to the k-th completion of a steady
 * stream at the hour's rate (a Gamma, read by its normal approximation) at `level`.
 */
export function throughputSpread(needed: number, gapMs: number, level: number): { low_ms: number; high_ms: number } {
  const z = normalQuantile(1 - (1 - level) / 2);
  const k = Math.max(needed, 1);
  return {
    low_ms: Math.round(Math.max(0, needed - z * Math.sqrt(k)) * gapMs),
    high_ms: Math.round((needed + z * Math.sqrt(k)) * gapMs),
  };
}

/** A table's standing in the legacy world; `kind`: its head unit's kind (null: nothing pending). */
export function legacyStanding(line: LegacyLine, target: string, kind: string | null, level: number): Standing {
  /** no ETA, with the reason */
  const none = (position: QueuePosition | null, basis: BasisPart): Standing => ({
    world: "legacy",
    kind,
    position,
    point_ms: null,
    spread: null,
    ...basis,
  });
  if (kind === null) return none(null, legacyBasis.nothingPending());
  const started = line.running.get(kind)?.get(target);
  if (started !== undefined) return none(null, legacyBasis.running(kind, started));
  const r = line.rank.get(kind)?.get(target);
  if (r === undefined) {
    const until = line.cooling.get(kind)?.get(target);
    return none(null, until !== undefined ? legacyBasis.cooling(kind, until) : legacyBasis.notQueued(kind));
  }
  const position = { kind, rank: r, of: line.queued.get(kind) ?? r };
  const done = line.finished.get(kind) ?? 0;
  if (done < MIN_FINISHES) return none(position, legacyBasis.noThroughput(kind, done));
  const gap = line.gap_ms.get(kind)!;
  const free = line.free.get(kind) ?? 0;
  // the r-th queued task starts once the free slots are taken and r − free more tasks finished
  const needed = Math.max(0, r - free);
  return {
    world: "legacy",
    kind,
    position,
    point_ms: Math.round(needed * gap),
    spread: throughputSpread(needed, gap, level),
    ...legacyBasis.estimate(kind, position, done, gap, free),
  };
}
