import "server-only";
// The planner over one FleetView: planFleet (units, verdicts, why-not, policies) and the
// §6.2 shadow pass, computed once per (fleet content, now) and shared by every request
// that asks for the same pair.
import { planFleet, type FleetPlan } from "@/lib/planner/plan";
import { mergeThresholds } from "@/lib/planner/plan/table";
import { scoreTables, type Scored } from "@/lib/planner/score";
import { compareShadow, mergeTaskTargets, shadowPass, type ShadowComparison, type ShadowPass } from "@/lib/planner/shadow";
import { DEFAULT_MERGE_THRESHOLDS } from "@/lib/planner/score";
import type { FleetView } from "@/lib/live/cache";
import { plannerFleet } from "@/lib/live/planner-input";
import { metrics } from "./metrics";

export interface Planned {
  view: FleetView;
  now: number;
  plan: FleetPlan;
}

export interface ShadowPlanned extends Planned {
  scored: Scored[];
  pass: ShadowPass;
  comparison: ShadowComparison;
}

const MAX_PLANS = 4;
const KEY = Symbol.for("scheduler-console.plans");

interface PlanCache {
  entries: Map<string, Entry>;
}

function cache(): PlanCache {
  const g = globalThis as unknown as Record<symbol, PlanCache | undefined>;
  return (g[KEY] ??= { entries: new Map() });
}

/**
 * A pinned request without `?now_ms` plans at the server clock rounded down to
 * NOW_STEP_MS, so its pages and repeats share one plan; the response's `now_ms` says which.
 */
export const NOW_STEP_MS = 2000;

export function defaultNow(): number {
  return Math.floor(Date.now() / NOW_STEP_MS) * NOW_STEP_MS;
}

/**
 * Live requests without `?now_ms` reuse the newest live plan while it is of the current
 * fleet content and younger than SAME_REVISION_REUSE_MS (waits move on a scale of minutes), or,
 * under a stream of writes, younger than ANY_REVISION_REUSE_MS (each response still shows
 * one revision: the plan's own view). Otherwise a new plan is made at the server clock.
 */
export const SAME_REVISION_REUSE_MS = 5000;
export const ANY_REVISION_REUSE_MS = 250;

type Entry = { view: FleetView; planned: Planned; shadow?: ShadowPlanned };

interface LiveSlot {
  latest: { entry: Entry; atMs: number } | null;
}

const LIVE_KEY = Symbol.for("scheduler-console.live-plan");

function liveSlot(): LiveSlot {
  const g = globalThis as unknown as Record<symbol, LiveSlot | undefined>;
  return (g[LIVE_KEY] ??= { latest: null });
}

function entryFor(view: FleetView, now: number): Entry {
  const { entries } = cache();
  // views of equal content (live revisions that only moved keys the console ignores) share plans
  const key = `${view.contentId}:${now}`;
  let entry = entries.get(key);
  if (!entry) {
    const plan = planFleet(plannerFleet(view.snapshot, view.tables), now);
    metrics().plans.inc();
    entry = { view, planned: { view, now, plan } };
    entries.set(key, entry);
    while (entries.size > MAX_PLANS) entries.delete(entries.keys().next().value!);
  } else {
    entries.delete(key); // LRU: most recently used last
    entries.set(key, entry);
  }
  return entry;
}

function entryForRequest(view: FleetView, nowMs: number | undefined): Entry {
  if (nowMs !== undefined) return entryFor(view, nowMs);
  if (view.pinned) return entryFor(view, defaultNow());
  const slot = liveSlot();
  const latest = slot.latest;
  const age = latest ? Date.now() - latest.atMs : Infinity;
  if (latest && ((latest.entry.view.contentId === view.contentId && age < SAME_REVISION_REUSE_MS) || age < ANY_REVISION_REUSE_MS)) {
    return latest.entry;
  }
  const entry = entryFor(view, Date.now());
  slot.latest = { entry, atMs: Date.now() };
  return entry;
}

/**
 * The plan a request asked for: `?now_ms` and pinned revisions exactly; live ones possibly
 * shared (see above). Use the returned `view`: it is the revision the plan was made at.
 */
export function planFor(view: FleetView, nowMs: number | undefined): Planned {
  const entry = entryForRequest(view, nowMs);
  // same content: answer with the request's (possibly newer) revision; else the plan's own view
  return entry.view === view || entry.view.contentId !== view.contentId ? entry.planned : { ...entry.planned, view };
}

export function plannedAt(view: FleetView, now: number): Planned {
  return entryFor(view, now).planned;
}

/** scheduler-model.md §6.2 over the same plan: the master's merge-only shadow pass. */
export function shadowFor(view: FleetView, nowMs: number | undefined): ShadowPlanned {
  const entry = entryForRequest(view, nowMs);
  const shadow = shadowOf(entry);
  return entry.view === view || entry.view.contentId !== view.contentId ? shadow : { ...shadow, view };
}

function shadowOf(entry: Entry): ShadowPlanned {
  if (entry.shadow) return entry.shadow;
  const { view, now } = entry.planned;
  const { plan } = entry.planned;
  const { snapshot } = view;
  const thresholds = (target: string) => {
    const t = plan.byTarget.get(target);
    return t ? mergeThresholds(t.policy.effective) : DEFAULT_MERGE_THRESHOLDS;
  };
  const scored = scoreTables(view.tables, now, thresholds);
  const pass = shadowPass({
    scored,
    heartbeats: snapshot.executors,
    assignments: snapshot.assignments.map((a) => ({ key: a.key, assignment: a.assignment })),
    now,
    plannerToken: snapshot.leaderToken ?? "console",
  });
  const placed = new Set(pass.placements.map((p) => p.unit.target));
  const reality = { queued: mergeTaskTargets(snapshot.queue.map((t) => t.task)), running: mergeTaskTargets(snapshot.running.map((t) => t.task)) };
  const comparison = compareShadow(scored, placed, reality)!;
  const m = metrics();
  for (const [outcome, n] of Object.entries(comparison.counts)) m.shadowOutcome.set({ outcome }, n);
  m.shadowDisagreements.set(comparison.disagreements);
  entry.shadow = { ...entry.planned, scored, pass, comparison };
  return entry.shadow;
}
