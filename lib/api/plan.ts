import "server-only";
// The planner over one FleetView: planFleet (units, verdicts, why-not, policies) and the
// §6.2 shadow pass. A plan of the production fleet (13,405 tables) is 100–400 ms of
// synchronous CPU, so it is never made per request:
// * live requests without `?now_ms` are answered from the newest completed plan (its own
//   view labels the response: one response, one revision) while at most ONE newer plan is
//   made in the background, and only once the current one is older than
//   max(MIN_REPLAN_MS, REPLAN_FACTOR × its duration) — stale-while-revalidate, bounded rate;
// * `?now_ms=` and pinned `?revision=` requests are planned exactly, kept in a small LRU.
import { planFleet, type FleetPlan } from "@/lib/planner/plan";
import { compareShadow, mergeTaskTargets, shadowPass, type ShadowComparison, type ShadowPass } from "@/lib/planner/shadow";
import type { Scored } from "@/lib/planner/score";
import { liveCache, type FleetView } from "@/lib/live/cache";
import { plannerFleet } from "@/lib/live/planner-input";
import { metrics } from "@/lib/metrics";
import { defaultNow, evaluate, type Evaluation, type NowChoice } from "./meta";

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
}

/** exact (`now_ms` / pinned) plans kept besides the live one */
const EXACT_PLANS = 2;

export { defaultNow, NOW_STEP_MS } from "./meta";

/** While the fleet content is unchanged, the live plan is kept this long (waits move on a scale of minutes). */
export const SAME_CONTENT_REUSE_MS = 5000;
/** A newer live plan is started no sooner than this after the last one completed... */
export const MIN_REPLAN_MS = 1000;
/** ...nor sooner than this many times the last plan's duration (bounds the CPU spent planning). */
export const REPLAN_FACTOR = 2.5;
/** A live plan older than this is not served while a newer one is made: the request waits for it. */
export const MAX_STALE_MS = 5000;

type Entry = { key: string; view: FleetView; planned: Planned; shadow?: ShadowPlanned };

interface LiveEntry {
  entry: Entry;
  /** when the plan completed and how long it took */
  doneMs: number;
  durationMs: number;
}

interface PlanState {
  exact: Map<string, Entry>;
  live: LiveEntry | null;
  /** the one newer live plan being made */
  computing: Promise<LiveEntry> | null;
  /** a replan held back by the rate bound, started once it allows (so the next request is fresh) */
  trailing: NodeJS.Timeout | null;
}

const KEY = Symbol.for("scheduler-console.plan-state");

function state(): PlanState {
  const g = globalThis as unknown as Record<symbol, PlanState | undefined>;
  let s = g[KEY];
  if (!s) {
    const created: PlanState = { exact: new Map(), live: null, computing: null, trailing: null };
    s = g[KEY] = created;
    // `?revision=R` / cursors at a plan's revision answer from the plan's own view (no pinned read)
    liveCache().holdViews((revision) => heldViews(created).find((v) => v.revision === revision));
  }
  return s;
}

function heldViews(s: PlanState): FleetView[] {
  const views = [...s.exact.values()].map((e) => e.view);
  if (s.live) views.push(s.live.entry.view);
  return views;
}

const keyOf = (view: FleetView, now: number) => `${view.contentId}:${now}`;

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

function makeEntry(view: FleetView, now: number): { entry: Entry; durationMs: number } {
  const started = performance.now();
  const plan = planFleet(plannerFleet(view.snapshot, view.tables, view.sequenceClocks), now);
  const durationMs = performance.now() - started;
  metrics().plans.inc();
  const evaluation: Evaluation = { now, now_basis: "server_clock", revision_time: null };
  return { entry: { key: keyOf(view, now), view, planned: { view, now, plan, evaluation } }, durationMs };
}

/** An exact plan for (view content, now): the live plan if it is that one, else the LRU. */
async function exactEntry(view: FleetView, now: number): Promise<Entry> {
  const s = state();
  const key = keyOf(view, now);
  if (s.live?.entry.key === key) return s.live.entry;
  let entry = s.exact.get(key);
  if (entry) {
    s.exact.delete(key); // LRU: most recently used last
    s.exact.set(key, entry);
    return entry;
  }
  await yieldToEventLoop(); // let requests the current plans answer go first
  entry = s.exact.get(key) ?? makeEntry(view, now).entry;
  s.exact.set(key, entry);
  while (s.exact.size > EXACT_PLANS) s.exact.delete(s.exact.keys().next().value!);
  return entry;
}

function startLivePlan(s: PlanState, view: FleetView): Promise<LiveEntry> {
  s.computing ??= (async () => {
    await yieldToEventLoop();
    // the newest view once the loop had its turn (the watch may have moved on); else the request's
    const latest = await liveCache().current().catch(() => view);
    await yieldToEventLoop();
    const { entry, durationMs } = makeEntry(latest, Date.now());
    const live = { entry, doneMs: Date.now(), durationMs };
    s.live = live;
    return live;
  })().finally(() => (s.computing = null));
  return s.computing;
}

function liveEntry(view: FleetView): Promise<Entry> | Entry {
  const s = state();
  const live = s.live;
  if (!live) return startLivePlan(s, view).then((l) => l.entry);
  const age = Date.now() - live.doneMs;
  const sameContent = live.entry.view.contentId === view.contentId;
  const outdated = !sameContent || age >= SAME_CONTENT_REUSE_MS;
  if (!outdated) return live.entry;
  const wait = Math.max(MIN_REPLAN_MS, REPLAN_FACTOR * live.durationMs) - age;
  if (wait > 0) {
    s.trailing ??= setTimeout(() => {
      s.trailing = null;
      startLivePlan(s, view).catch(() => undefined);
    }, wait);
    s.trailing.unref();
    return live.entry;
  }
  const next = startLivePlan(s, view);
  if (Date.now() - live.entry.planned.now > MAX_STALE_MS) return next.then((l) => l.entry);
  next.catch(() => undefined); // a failed background plan keeps the current one
  return live.entry;
}

/** `?now_ms` as a number (older callers) or the request's whole choice. */
export type NowRequest = number | NowChoice | undefined;

const choiceOf = (now: NowRequest): NowChoice => (typeof now === "number" ? { now_ms: now } : (now ?? {}));

async function entryForRequest(view: FleetView, now: NowRequest): Promise<{ entry: Entry; evaluation: Evaluation }> {
  const choice = choiceOf(now);
  if (!view.pinned && choice.now_ms === undefined) {
    const entry = await liveEntry(view);
    return { entry, evaluation: { now: entry.planned.now, now_basis: "server_clock", revision_time: null } };
  }
  const evaluation = await evaluate(view, choice);
  return { entry: await exactEntry(view, evaluation.now), evaluation };
}

function answer<T extends Planned>(requested: FleetView, entry: Entry, planned: T, evaluation: Evaluation): T {
  // an answer from the live plan is labeled by the plan's own view (the bytes of its repeats
  // stay the same: ./encoded-response.ts); an exact one at the same content keeps the
  // revision it asked for (pinned) or the newest (`?now_ms` on the live view)
  const fromLivePlan = !requested.pinned && evaluation.now_basis === "server_clock";
  const view = fromLivePlan || entry.view.contentId !== requested.contentId || entry.view === requested ? planned.view : requested;
  return { ...planned, view, evaluation };
}

/**
 * The plan a request asked for: `?now_ms` and pinned revisions exactly (a pinned one at
 * its revision's time, see ./meta.ts `evaluate`); live ones from the newest completed plan
 * (see above). Use the returned `view`: it is the revision the plan was made at (or the
 * request's own when the fleet content is the same).
 */
export async function planFor(view: FleetView, now: NowRequest): Promise<Planned> {
  const { entry, evaluation } = await entryForRequest(view, now);
  return answer(view, entry, entry.planned, evaluation);
}

/** An exact plan at (view, now). */
export async function plannedAt(view: FleetView, now: number): Promise<Planned> {
  return (await exactEntry(view, now)).planned;
}

/** scheduler-model.md §6.2 over the same plan: the master's merge-only shadow pass. */
export async function shadowFor(view: FleetView, now: NowRequest): Promise<ShadowPlanned> {
  const { entry, evaluation } = await entryForRequest(view, now);
  return answer(view, entry, shadowOf(entry), evaluation);
}

function shadowOf(entry: Entry): ShadowPlanned {
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
  const reality = { queued: mergeTaskTargets(snapshot.queue.map((t) => t.task)), running: mergeTaskTargets(snapshot.running.map((t) => t.task)) };
  const comparison = compareShadow(scored, placed, reality)!;
  const m = metrics();
  for (const [outcome, n] of Object.entries(comparison.counts)) m.shadowOutcome.set({ outcome }, n);
  m.shadowDisagreements.set(comparison.disagreements);
  entry.shadow = { ...entry.planned, scored, pass, comparison };
  return entry.shadow;
}
