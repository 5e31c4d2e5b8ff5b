import "server-only";
// One plan as lib/live/plan.ts holds it (an entry: the view, its `now`, the plan, and the
// §6.2 shadow pass once asked), and the ways one is made: at once (a patch, a pinned page's
// plan) or in slices (the clock's full plan of 13k tables, with the event loop's turn
// between them).
import { planFleetInSteps, replanFleet, type FleetPlan } from "@/lib/planner/plan";
import {
  compareShadow,
  mergeTaskTargets,
  shadowPass,
  type ShadowComparison,
  type ShadowPass,
} from "@/lib/planner/shadow";
import type { Scored } from "@/lib/planner/score";
import type { FleetView } from "@/lib/live/cache";
import { plannerFleet } from "@/lib/snapshot/planner-input";
import { metrics } from "@/lib/metrics";
import { discoveryMissesInPlannerMode, legacyModeOutcomes } from "@/lib/planner/takeover/canary";
import type { Evaluation } from "@/lib/live/evaluation";

export interface Planned {
  view: FleetView;
  now: number;
  plan: FleetPlan;
  /** the clock this plan ran at and why (console-api.md "Time") */
  evaluation: Evaluation;
}

export interface ShadowPlanned extends Planned {
  scored: Scored[];
  pass: ShadowPass;
  comparison: ShadowComparison;
  /** of `comparison`'s discovery misses, the tables in planner mode (the canary's legacy-mode figures) */
  missesInPlannerMode: number;
}

export type Entry = { key: string; view: FleetView; planned: Planned; shadow?: ShadowPlanned };

export const keyOf = (view: FleetView, now: number) => `${view.contentId}:${now}`;

export const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export function entryOf(view: FleetView, now: number, plan: FleetPlan): Entry {
  const evaluation: Evaluation = { now, now_basis: "server_clock", revision_time: null };
  return { key: keyOf(view, now), view, planned: { view, now, plan, evaluation } };
}

export const fleetOf = (view: FleetView) => plannerFleet(view);

/** A plan of `view` at `now`: patched from `base` when it can be (same now), else a full plan. */
export function makeEntry(view: FleetView, now: number, base?: FleetPlan): { entry: Entry; durationMs: number } {
  const started = performance.now();
  const plan = replanFleet(base, fleetOf(view), now);
  const durationMs = performance.now() - started;
  metrics().plans.inc();
  return { entry: entryOf(view, now, plan), durationMs };
}

/** A full plan holds the thread no longer than this at a time (the event loop's turn comes between slices). */
const SLICE_MS = 8;

/**
 * Runs `steps` to their end, holding the thread no longer than SLICE_MS at a time: the event
 * loop has its turn between slices. Its duration is the time spent running, not the time it took.
 */
export async function inSlices<T>(steps: Iterator<unknown, T>): Promise<{ value: T; durationMs: number }> {
  let durationMs = 0;
  let slice = performance.now();
  for (;;) {
    const step = steps.next();
    if (step.done) return { value: step.value, durationMs: durationMs + performance.now() - slice };
    if (performance.now() - slice < SLICE_MS) continue;
    durationMs += performance.now() - slice;
    await yieldToEventLoop();
    slice = performance.now();
  }
}

/**
 * A full plan of `view` at `now` (the clock's, or the first), made in slices with the event
 * loop's turn between them: the requests and the stream's steps that come meanwhile are
 * answered from the current plan instead of waiting behind this one.
 */
export async function makeEntryInSlices(view: FleetView, now: number): Promise<{ entry: Entry; durationMs: number }> {
  const { value: plan, durationMs } = await inSlices(planFleetInSteps(fleetOf(view), now));
  metrics().plans.inc();
  return { entry: entryOf(view, now, plan), durationMs };
}

/** scheduler-model.md §6.2 over an entry's plan: the master's merge-only shadow pass (made once per entry). */
export function shadowOf(entry: Entry): ShadowPlanned {
  if (entry.shadow) return entry.shadow;
  const { view, now, plan } = entry.planned;
  const { snapshot } = view;
  // the plan already scored every table with its effective thresholds (FleetPlan.scored)
  const scored = plan.scored;
  const pass = shadowPass({
    scored,
    ordered: plan.merge_order,
    heartbeats: snapshot.executors,
    assignments: snapshot.assignments.map((a) => ({ key: a.key, assignment: a.assignment })),
    now,
    plannerToken: snapshot.leaderToken ?? "console",
  });
  const placed = new Set(pass.placements.map((p) => p.unit.target));
  const reality = {
    queued: mergeTaskTargets(snapshot.queue.map((t) => t.task)),
    running: mergeTaskTargets(snapshot.running.map((t) => t.task)),
  };
  const comparison = compareShadow(scored, placed, reality)!;
  const m = metrics();
  for (const [outcome, n] of Object.entries(comparison.counts)) m.shadowOutcome.set({ outcome }, n);
  const missesInPlannerMode = discoveryMissesInPlannerMode(comparison, plan);
  for (const [outcome, n] of Object.entries(legacyModeOutcomes(comparison, missesInPlannerMode)))
    m.shadowOutcomeLegacyMode.set({ outcome }, n);
  m.shadowDisagreements.set(comparison.disagreements);
  entry.shadow = { ...entry.planned, scored, pass, comparison, missesInPlannerMode };
  return entry.shadow;
}
