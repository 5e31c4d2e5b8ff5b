import "server-only";
// "Step back / forward one change" on the overview (console-api.md "Time"): the overview
// reads every family, and a live fleet writes one of them at nearly every revision (a
// writer's flush, a heartbeat), so a step by key writes moves one revision at a time while
// the page stays the same. A step here lands where what the overview states changes: its
// counts, the placements in planner order, the stuck criticals, the leader, the executors'
// totals and the shadow comparison (its face), each revision evaluated at its own time.
// Each face is a pinned plan (about a second on the production fleet), so the search
// gallops away from the start (doubling the distance) until the face differs, then halves
// the interval until the first (forward) or last (back) revision that differs; past the
// budget it answers the differing end it holds: a change, maybe not the nearest one.
import { demandQuerySchema } from "@/lib/schema/api/demand";
import { selectTables } from "@/lib/scheduler/demand";
import { executorsResponse } from "@/lib/scheduler/executors";
import { fleetView } from "@/lib/live/fleet-view";
import { shadowFor } from "@/lib/live/plan";
import { skippedSummary } from "@/lib/scheduler/skipped";

/** how many placements and stuck criticals the overview lists (components/fleet/overview.tsx) */
const LISTED = 10;
const PLACED = demandQuerySchema.parse({ verdict: "would_place" });
const STUCK = demandQuerySchema.parse({ class: ["recovery", "critical"], verdict: "would_skip" });
/** the halving stops after this long; the galloping does not (it is logarithmic in the distance) */
const BISECT_BUDGET_MS = 8000;

/** What the overview states at a revision, as one comparable string (waits and bytes, which move with the clock, left out). */
async function overviewFace(revision: number): Promise<string> {
  const planned = await shadowFor(await fleetView(revision, { keep: false }), undefined);
  const { view, plan, comparison, pass, evaluation } = planned;
  const leader = view.snapshot.leader?.record ?? null;
  const placed = selectTables(plan.tables, PLACED);
  const totals = executorsResponse(view, evaluation, plan).totals;
  return JSON.stringify([
    plan.total_tables,
    plan.tables_with_pending,
    plan.clock_skew_tables,
    plan.counts,
    skippedSummary(view.snapshot),
    leader && [leader.instance, leader.token],
    placed.length,
    placed.slice(0, LISTED).map((t) => t.target),
    selectTables(plan.tables, STUCK)
      .slice(0, LISTED)
      .map((t) => t.target),
    [totals.executors, totals.draining, totals.orphans, totals.slots_free],
    comparison.counts,
    pass.placements.map((p) => [p.unit.target, p.executor]),
  ]);
}

export interface StepBounds {
  /** the oldest readable revision and the newest one */
  oldest: number;
  newest: number;
}

/**
 * The revision one overview change away from `from`, or null when nothing it states changed
 * in that direction. `firstWrite` is the neighbouring key write (./changes.ts), the nearest
 * place a change can be: forward the first revision that differs; back the last one that
 * differs, moved to the write that began what it shows (`writeBefore`).
 */
export async function overviewStep(
  from: number,
  direction: "back" | "forward",
  firstWrite: number,
  bounds: StepBounds,
  writeBefore: (revision: number) => Promise<number | null>,
): Promise<number | null> {
  const base = await overviewFace(from);
  const differs = async (revision: number) => (await overviewFace(revision)) !== base;
  // nothing is written between `from` and the neighbouring write: when it differs, it is the step
  if (await differs(firstWrite)) return firstWrite;
  const forward = direction === "forward";
  const edge = forward ? bounds.newest : bounds.oldest;
  // `same` holds the start's face, `other` a differing one
  let same = firstWrite;
  let other: number;
  if (same === edge) return null;
  let gap = Math.abs(firstWrite - from) * 2;
  for (let at = forward ? Math.min(from + gap, edge) : Math.max(from - gap, edge); ;) {
    if (await differs(at)) {
      other = at;
      break;
    }
    same = at;
    if (at === edge) return null;
    gap *= 2;
    at = forward ? Math.min(from + gap, edge) : Math.max(from - gap, edge);
  }
  const deadline = Date.now() + BISECT_BUDGET_MS;
  while (Math.abs(other - same) > 1 && Date.now() < deadline) {
    const mid = Math.floor((same + other) / 2);
    if (await differs(mid)) other = mid;
    else same = mid;
  }
  if (forward) return other;
  // back: the write that began the state shown at `other` (its face is the same content)
  return (await writeBefore(other + 1)) ?? other;
}
