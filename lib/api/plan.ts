import "server-only";
// The planner over one FleetView: planFleet (units, verdicts, why-not, policies) and the
// §6.2 shadow pass, computed once per (revision, now) and shared by every request that
// asks for the same pair. `now` defaults to the server clock rounded down to the second,
// so concurrent requests in one second share one plan.
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
  entries: Map<string, { view: FleetView; planned: Planned; shadow?: ShadowPlanned }>;
}

function cache(): PlanCache {
  const g = globalThis as unknown as Record<symbol, PlanCache | undefined>;
  return (g[KEY] ??= { entries: new Map() });
}

/** The default `now`: the server clock to the second (console-api.md `?now_ms`). */
export function defaultNow(): number {
  return Math.floor(Date.now() / 1000) * 1000;
}

function entryFor(view: FleetView, now: number) {
  const { entries } = cache();
  // one revision of one prefix is the same fleet however it was obtained (live or pinned)
  const key = `${view.revision}:${now}`;
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

export function plannedAt(view: FleetView, now: number): Planned {
  return entryFor(view, now).planned;
}

/** scheduler-model.md §6.2 over the same plan: the master's merge-only shadow pass. */
export function shadowAt(view: FleetView, now: number): ShadowPlanned {
  const entry = entryFor(view, now);
  if (entry.shadow) return entry.shadow;
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
