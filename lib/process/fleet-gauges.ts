import "server-only";
// One scrape of GET /api/metrics: the fleet gauges from the live plan, reduced by the same
// DTO builders the API answers with, so a gauge always equals what the pages show. The
// live plan is the one requests share (lib/live/plan.ts): a scrape never starts a plan of
// its own beyond what a live page request would. It lives in lib/process, not lib/metrics:
// lib/live records metrics, so lib/metrics holds only the metrics and their setters.
import type { FleetPlan, TablePlan } from "@/lib/planner/plan";
import { waitPromotes } from "@/lib/planner/plan/units";
import { fleetView, liveCache } from "@/lib/live/cache";
import { metrics, recordRevisionClockError } from "@/lib/metrics";
import { EXECUTOR_STATES, recordFleet, type ExecutorState, type FleetFacts } from "@/lib/metrics/fleet";
import type { ExecutorsResponse } from "@/lib/schema/api/executors";
import { DeadlineExceeded, withDeadline } from "@/lib/util/deadline";
import { shadowFor } from "@/lib/live/plan";
import { legacyModeOutcomes } from "@/lib/planner/takeover/canary";
import { revisionClock } from "@/lib/live/revision-clock";
import { executorsResponse } from "@/lib/scheduler/executors";
import { cooldownRows, failureRows } from "@/lib/scheduler/failures";

const starving = (t: TablePlan) => t.units.some((u) => waitPromotes(u.wait_ms, u.kind, t.policy.effective));

/** The per-table part of the facts: one pass over the plan's rows. */
function tableFacts(
  plan: FleetPlan,
): Pick<
  FleetFacts,
  | "tablesByClass"
  | "tablesByBacklog"
  | "tablesWithPending"
  | "longestWaitMsByClass"
  | "starving"
  | "wouldPlace"
  | "wouldSkipByCode"
> {
  const longest: Record<string, number> = {};
  const wouldSkipByCode: Record<string, number> = {};
  let starvingCount = 0;
  let wouldPlace = 0;
  for (const t of plan.tables) {
    if (t.wait_ms !== null) longest[t.class] = Math.max(longest[t.class] ?? 0, t.wait_ms);
    if (starving(t)) starvingCount++;
    if (t.verdict.state === "would_place") wouldPlace++;
    else wouldSkipByCode[t.verdict.code] = (wouldSkipByCode[t.verdict.code] ?? 0) + 1;
  }
  return {
    tablesByClass: plan.counts.by_class,
    tablesByBacklog: plan.counts.by_backlog,
    tablesWithPending: plan.tables_with_pending,
    longestWaitMsByClass: longest,
    starving: starvingCount,
    wouldPlace,
    wouldSkipByCode,
  };
}

/** Executors by state and their headroom, exactly as GET /scheduler/executors totals them. */
function executorFacts(
  response: ExecutorsResponse,
): Pick<FleetFacts, "executorsByState" | "freeSlotsByKind" | "freeBytes"> {
  const byState = Object.fromEntries(EXECUTOR_STATES.map((s) => [s, 0])) as Record<ExecutorState, number>;
  for (const e of response.executors) byState[e.orphan ? "orphan" : e.draining ? "draining" : "live"]++;
  return {
    executorsByState: byState,
    // `free` as every verdict uses it (console-api.md "One capacity"), never the shadow-counting slots_free
    freeSlotsByKind: Object.fromEntries(Object.entries(response.totals.slots).map(([k, h]) => [k, h.free])),
    freeBytes: response.totals.bytes.free,
  };
}

/**
 * A scrape waits at most this for the fleet (the first one after start reads and plans the
 * whole prefix); past it the exposition carries the last values and the plan lands later.
 */
const REFRESH_DEADLINE_MS = 3000;

/**
 * Refresh the fleet gauges. When the fleet cannot be read (etcd away) the fleet gauges keep
 * their last values, and the snapshot gauges say how old they are: an alert on the fleet
 * must not fire (or clear) because the console lost etcd; the staleness alert does.
 */
export async function refreshFleetGauges(): Promise<void> {
  await withDeadline(recordFromLivePlan(), REFRESH_DEADLINE_MS, "fleet gauges").catch((e: unknown) => {
    if (!(e instanceof DeadlineExceeded)) throw e;
  });
  const m = metrics();
  const status = liveCache().status();
  m.snapshotAge.set(status.age_ms === null ? Number.NaN : status.age_ms / 1000);
  m.snapshotLive.set(status.live ? 1 : 0);
}

async function recordFromLivePlan(): Promise<void> {
  const m = metrics();
  try {
    // the live plan and its §6.2 shadow pass (cached with the plan)
    const { view, now, plan, comparison, missesInPlannerMode } = await shadowFor(await fleetView(), undefined);
    const facts: FleetFacts = {
      planNowMs: now,
      ...tableFacts(plan),
      failuresNeedingAttention: failureRows(view, now).filter((f) => f.needs_attention).length,
      cooldownsActive: cooldownRows(view, now).filter((c) => c.cooling).length,
      ...executorFacts(executorsResponse(view)),
      shadowOutcomes: comparison.counts,
      shadowOutcomesLegacyMode: legacyModeOutcomes(comparison, missesInPlannerMode),
      shadowDisagreements: comparison.disagreements,
    };
    recordFleet(m, facts, Date.now());
    // how far off the wall time of the live revision may be (unknown basis: NaN); the view
    // is in memory, so this needs no compaction check, only the clock's samples (read on
    // from the newest one, at most once a second, shared with every page)
    const clock = await revisionClock().timeOfHeld(view.revision);
    recordRevisionClockError(clock.basis === "unknown" ? null : clock.error_ms);
  } catch {
    // keep the last values (see above); the failure shows as snapshot age and live = 0
  }
}
