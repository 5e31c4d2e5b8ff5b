import "server-only";
// The planner over one FleetView: planFleet (units, verdicts, why-not, policies) and the
// §6.2 shadow pass. A plan of the production fleet (13,405 tables) is 100–400 ms of
// synchronous CPU, so it is never made per request:
// * live requests without `?now_ms` are answered from the newest completed plan (its own
//   view labels the response: one response, one revision) while at most ONE newer plan is
//   made in the background, and only once the current one is older than
//   max(MIN_REPLAN_MS, REPLAN_FACTOR × its duration) — stale-while-revalidate, bounded rate;
// * a content change of the live view (a watch event) patches the live plan at the plan's
//   own `now` (lib/planner/plan/replan.ts: equal to a full plan at that now, in work
//   proportional to the change), at most once per PATCH_FACTOR × the last patch's
//   duration; the clock moves the live plan on with a full plan every SAME_CONTENT_REUSE_MS;
// * `?now_ms=` and pinned `?revision=` requests are planned exactly, kept in a small LRU
//   (patched from a held plan of the same `now` when there is one).
import { canPatch, replanFleet, type FleetPlan, type PlannerFleet } from "@/lib/planner/plan";
import { liveCache, type FleetView } from "@/lib/live/cache";
import {
  entryOf,
  fleetOf,
  inSlices,
  keyOf,
  makeEntry,
  makeEntryInSlices,
  shadowOf,
  yieldToEventLoop,
  type Entry,
  type Planned,
  type ShadowPlanned,
} from "@/lib/live/plan-entry";
import { readFloor } from "@/lib/live/read-floor";
import { RevisionWaiters } from "@/lib/live/revision-waiters";
import { LRUCache } from "lru-cache";
import { consoleEnv } from "@/lib/config/env";
import { memoryShares, viewBytes } from "@/lib/live/memory-budget";
import { evaluate, type Evaluation, type NowChoice } from "@/lib/live/evaluation";
import { lazily } from "@/lib/util/lazily";

export type { Planned, ShadowPlanned };

/** exact (`now_ms` / pinned) plans kept besides the live one */
const EXACT_PLANS = 2;

/** While the fleet content is unchanged, the live plan is kept this long (waits move on a scale of minutes). */
export const SAME_CONTENT_REUSE_MS = 5000;
/** A newer live plan is started no sooner than this after the last one completed... */
export const MIN_REPLAN_MS = 1000;
/** ...nor sooner than this many times the last plan's duration (bounds the CPU spent planning). */
export const REPLAN_FACTOR = 2.5;
/** A patch for a content change starts no sooner than this many times the last patch's duration after it (at most half the CPU). */
export const PATCH_FACTOR = 1;
/**
 * A live plan older than this is not served while a newer one is made: the request waits for
 * it. Twice the clock's step: while the clock runs (live requests come), the next plan is
 * made before the current one is this old, however long its slices take under load; a
 * console that was idle waits once.
 */
export const MAX_STALE_MS = 2 * SAME_CONTENT_REUSE_MS;
/** The clock keeps the live plan moving on (off the request path) while live requests came within this. */
const CLOCK_IDLE_MS = 2 * SAME_CONTENT_REUSE_MS;

interface LiveEntry {
  entry: Entry;
  /** when the last full plan completed and how long it took (the clock moves on with full plans) */
  doneMs: number;
  durationMs: number;
  /** when the plan was last patched for a content change and how long that took (0: never) */
  patchedMs: number;
  patchMs: number;
}

/**
 * Work a new full plan gets before it goes live, in slices (the services above ask for it:
 * lib/scheduler/demand-stream.ts digests the rows its open listings will send): given the
 * plan and the live one it follows, the steps to run, or null for none.
 */
export type PlanPreparer = (next: Planned, previous: Planned | null) => Iterator<unknown> | null;

interface PlanState {
  /** by name: one per service (a module loaded again replaces its own) */
  preparers: Map<string, PlanPreparer>;
  exact: LRUCache<string, Entry>;
  live: LiveEntry | null;
  /** the one newer live plan being made */
  computing: Promise<LiveEntry> | null;
  /** a replan held back by the rate bound, started once it allows (so the next request is fresh) */
  trailing: NodeJS.Timeout | null;
  /** the same for a patch */
  trailingPatch: NodeJS.Timeout | null;
  /** the clock's next full re-plan, made ahead of the requests (see armClock) */
  clock: NodeJS.Timeout | null;
  /** when a live request last asked for the live plan (the clock runs while they come) */
  askedMs: number;
  /** the planner input of the newest view a patch was considered for */
  input: { view: FleetView; fleet: PlannerFleet } | null;
  /** counts the live plans set (a relabel of the same plan does not count); awaitLivePlan waits on it */
  generation: number;
  waiters: RevisionWaiters;
}

const state = lazily<PlanState>(() => ({
  preparers: new Map(),
  // the pinned views they hold count against the budget's share for held views; a plan
  // whose view is over it is made for its request and not kept
  exact: new LRUCache({
    max: EXACT_PLANS,
    maxSize: memoryShares(consoleEnv().memoryBudgetBytes).heldViews,
    sizeCalculation: (e) => (e.view.pinned ? viewBytes(e.view.snapshot) : 1),
  }),
  live: null,
  computing: null,
  trailing: null,
  trailingPatch: null,
  clock: null,
  askedMs: 0,
  input: null,
  generation: 0,
  waiters: new RevisionWaiters(),
}));

/**
 * Tells the live cache which views the plans hold after each change of them, so
 * `?revision=R` / cursors at a plan's revision answer from the plan's own view (no pinned read).
 */
function publishHeld(s: PlanState): void {
  const views = [...s.exact.values()].map((e) => e.view);
  if (s.live) views.push(s.live.entry.view);
  liveCache().holdViews("plans", views);
}

function setLive(s: PlanState, live: LiveEntry): void {
  const another = s.live?.entry.key !== live.entry.key;
  s.live = live;
  publishHeld(s);
  if (another) s.waiters.wake(++s.generation);
}

/** Forgets the plans kept for exact `?revision=&now_ms=` asks (tests compare them with plans made afresh). */
export function forgetExactPlans(): void {
  state().exact.clear();
}

/**
 * Resolves true once the live plan is another than the one keyed `key` (a patch for a
 * content change, or the clock's next full plan), false at the deadline. Data, not a
 * callback: the one reader that steps with the live plan (lib/scheduler/demand-stream.ts) waits here.
 */
export function awaitLivePlan(key: string | null, timeoutMs: number): Promise<boolean> {
  const s = state();
  if (s.live && s.live.entry.key !== key) return Promise.resolve(true);
  return s.waiters.wait(s.generation + 1, timeoutMs);
}

/** `prepare` runs on each new full live plan before it goes live (a preparer of the same name is replaced). */
export function prepareFullPlans(name: string, prepare: PlanPreparer): void {
  state().preparers.set(name, prepare);
}

/** The key a live answer's plan is held by (what `awaitLivePlan` compares). */
export const planKeyOf = (planned: Planned): string => keyOf(planned.view, planned.now);

/** The live plan patched to `view`'s fleet (newer content, same `now`). */
function patchLive(s: PlanState, live: LiveEntry, view: FleetView, fleet: PlannerFleet): LiveEntry {
  const started = performance.now();
  const { now, plan } = live.entry.planned;
  const patched = replanFleet(plan, fleet, now);
  const next: LiveEntry = {
    ...live,
    entry: entryOf(view, now, patched),
    patchedMs: Date.now(),
    patchMs: performance.now() - started,
  };
  setLive(s, next);
  return next;
}

/** The planner input of `view`, when the live plan can follow it by a patch (same clock, newer revision, per-table changes only). */
function followable(s: PlanState, live: LiveEntry, view: FleetView): PlannerFleet | null {
  const { planned } = live.entry;
  if (view.revision <= live.entry.view.revision || Date.now() - planned.now > MAX_STALE_MS) return null;
  if (s.input?.view !== view) s.input = { view, fleet: fleetOf(view) };
  return canPatch(planned.plan, planned.now, s.input.fleet) ? s.input.fleet : null;
}

/** An exact plan for (view content, now): the live plan if it is that one, else the LRU. */
async function exactEntry(view: FleetView, now: number): Promise<Entry> {
  const s = state();
  const key = keyOf(view, now);
  if (s.live?.entry.key === key) return s.live.entry;
  let entry = s.exact.get(key); // LRU: now the most recently used (planOnce's read is not a use)
  if (entry) {
    publishHeld(s);
    return entry;
  }
  await yieldToEventLoop(); // let requests the current plans answer go first
  entry = s.exact.peek(key) ?? makeEntry(view, now, heldPlanAt(s, now)).entry;
  s.exact.set(key, entry);
  publishHeld(s);
  return entry;
}

/** A plan this process holds at `now` (a patch of it is exact at that now too). */
function heldPlanAt(s: PlanState, now: number): FleetPlan | undefined {
  if (s.live?.entry.planned.now === now) return s.live.entry.planned.plan;
  for (const e of s.exact.values()) if (e.planned.now === now) return e.planned.plan;
  return undefined;
}

function startLivePlan(s: PlanState, view: FleetView): Promise<LiveEntry> {
  s.computing ??= (async () => {
    await yieldToEventLoop();
    // the newest view once the loop had its turn (the watch may have moved on); else the request's
    const latest = await liveCache()
      .current()
      .catch(() => view);
    const made = await makeEntryInSlices(latest, Date.now());
    const { entry } = made;
    let durationMs = made.durationMs;
    for (const prepare of s.preparers.values()) {
      try {
        const steps = prepare(entry.planned, s.live?.entry.planned ?? null);
        if (steps) durationMs += (await inSlices(steps)).durationMs;
      } catch {
        // a preparer only saves later work: the plan goes live without it
      }
    }
    const newer = s.live && s.live.entry.view.revision > latest.revision ? s.live.entry.view : null;
    const live: LiveEntry = { entry, doneMs: Date.now(), durationMs, patchedMs: 0, patchMs: 0 };
    setLive(s, live);
    armClock(s, live);
    // a patch made the live plan newer while this one waited for its turn: keep that content
    const fleet = newer && followable(s, live, newer);
    return fleet ? patchLive(s, live, newer!, fleet) : live;
  })().finally(() => (s.computing = null));
  return s.computing;
}

/**
 * The clock's full re-plan, off the request path and ahead of need: the next plan is started
 * by a timer as long before the live plan's `now` is SAME_CONTENT_REUSE_MS old as the last
 * full plan took from start to finish (its slices share the thread with requests), so it is
 * finished about then, and a request finds it made instead of waiting for it (as the rate
 * bound allows). It runs while live requests come (CLOCK_IDLE_MS); an idle console plans
 * nothing, and its next request starts again.
 */
function armClock(s: PlanState, live: LiveEntry): void {
  if (s.clock) clearTimeout(s.clock);
  const { now } = live.entry.planned;
  const took = live.doneMs - now; // this plan's own start to finish (its `now` is its start)
  const due = Math.max(
    now + SAME_CONTENT_REUSE_MS - took,
    live.doneMs + Math.max(MIN_REPLAN_MS, REPLAN_FACTOR * live.durationMs),
  );
  s.clock = setTimeout(
    () => {
      s.clock = null;
      if (Date.now() - s.askedMs > CLOCK_IDLE_MS) return;
      liveCache()
        .current()
        .then((view) => startLivePlan(s, view))
        .catch(() => undefined); // etcd away: the next request starts again
    },
    Math.max(0, due - Date.now()),
  );
  s.clock.unref();
}

function liveEntry(view: FleetView): Promise<Entry> | Entry {
  const s = state();
  s.askedMs = Date.now();
  let live = s.live;
  if (!live) return startLivePlan(s, view).then((l) => l.entry);
  // a view older than the live plan's (a caller that read it before a patch moved the plan
  // on) is answered by the newer plan, as an unchanged one is: not by a full plan
  let sameContent = live.entry.view.contentId === view.contentId || view.revision < live.entry.view.revision;
  const fleet = sameContent ? null : followable(s, live, view);
  const canFollow = fleet !== null;
  if (canFollow) {
    // bounded by the patch's own cost, so a steady writer cannot keep the process planning
    const wait = PATCH_FACTOR * live.patchMs - (Date.now() - live.patchedMs);
    if (wait <= 0) {
      live = patchLive(s, live, view, fleet);
      sameContent = true;
    } else if (!s.trailingPatch) {
      s.trailingPatch = setTimeout(() => {
        s.trailingPatch = null;
        liveCache()
          .current()
          .then(liveEntry)
          .catch(() => undefined);
      }, wait);
      s.trailingPatch.unref();
    }
  }
  const age = Date.now() - live.doneMs;
  const outdated = (!sameContent && !canFollow) || age >= SAME_CONTENT_REUSE_MS;
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

/**
 * The live plan for a request that must include revision `floor` (`?min_revision`, see
 * ./read-floor.ts) once its view holds it: a live plan older than the floor catches up now
 * instead of in the background — relabelled by the view when the content is the same,
 * patched when it can follow, else the next full plan (one in flight may predate the floor).
 */
async function liveEntryAtLeast(view: FleetView, floor: number | null): Promise<Entry> {
  let entry = await liveEntry(view);
  if (floor === null || view.revision < floor) return entry;
  const s = state();
  for (let tries = 0; tries < 2 && entry.view.revision < floor; tries++) {
    const live = s.live;
    if (live && live.entry.view.revision >= floor) return live.entry;
    if (live && live.entry.view.contentId === view.contentId) {
      const { now, plan } = live.entry.planned;
      setLive(s, { ...live, entry: entryOf(view, now, plan) });
      return s.live!.entry;
    }
    const fleet = live && followable(s, live, view);
    entry = live && fleet ? patchLive(s, live, view, fleet).entry : (await startLivePlan(s, view)).entry;
  }
  return entry;
}

/** `?now_ms` as a number (older callers) or the request's whole choice. */
export type NowRequest = number | NowChoice | undefined;

const choiceOf = (now: NowRequest): NowChoice => (typeof now === "number" ? { now_ms: now } : (now ?? {}));

async function entryForRequest(view: FleetView, now: NowRequest): Promise<{ entry: Entry; evaluation: Evaluation }> {
  const choice = choiceOf(now);
  if (!view.pinned && choice.now_ms === undefined) {
    const entry = await liveEntryAtLeast(view, readFloor());
    return { entry, evaluation: { now: entry.planned.now, now_basis: "server_clock", revision_time: null } };
  }
  const evaluation = await evaluate(view, choice);
  return { entry: await exactEntry(view, evaluation.now), evaluation };
}

function answer<T extends Planned>(requested: FleetView, entry: Entry, planned: T, evaluation: Evaluation): T {
  // an answer from the live plan is labeled by the plan's own view (the bytes of its repeats
  // stay the same: lib/http/encoded-response.ts); an exact one at the same content keeps the
  // revision it asked for (pinned) or the newest (`?now_ms` on the live view)
  const fromLivePlan = !requested.pinned && evaluation.now_basis === "server_clock";
  const view =
    fromLivePlan || entry.view.contentId !== requested.contentId || entry.view === requested ? planned.view : requested;
  return { ...planned, view, evaluation };
}

/**
 * The plan a request asked for: `?now_ms` and pinned revisions exactly (a pinned one at
 * its revision's time, see ./evaluation.ts `evaluate`); live ones from the newest completed plan
 * (see above). Use the returned `view`: it is the revision the plan was made at (or the
 * request's own when the fleet content is the same).
 */
export async function planFor(view: FleetView, now: NowRequest): Promise<Planned> {
  const { entry, evaluation } = await entryForRequest(view, now);
  return answer(view, entry, entry.planned, evaluation);
}

/**
 * The exact plan at (view, now) a pinned page would show, made without keeping it (a
 * history point, one of many): the held plan when this process has it, else the same
 * `makeEntry` the pages' exact plans come from.
 */
export function planOnce(view: FleetView, now: number): FleetPlan {
  const s = state();
  const key = keyOf(view, now);
  if (s.live?.entry.key === key) return s.live.entry.planned.plan;
  const held = s.exact.peek(key);
  if (held) return held.planned.plan;
  return makeEntry(view, now, heldPlanAt(s, now)).entry.planned.plan;
}

/** scheduler-model.md §6.2 over the same plan: the master's merge-only shadow pass. */
export async function shadowFor(view: FleetView, now: NowRequest): Promise<ShadowPlanned> {
  const { entry, evaluation } = await entryForRequest(view, now);
  return answer(view, entry, shadowOf(entry), evaluation);
}
