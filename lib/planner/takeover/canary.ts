// The canary report over a window of shadow-history samples (console-api.md "The takeover
// gate and the canary evidence"). scheduler-model.md §6.2: the outcomes are observations,
// not a gate — the report states levels and trends, never a verdict. Pure.
import { MIN_CANARY_SAMPLES, OUTCOMES, type OutcomeName } from "@/lib/schema/codes";
import { LISTED_OUTCOMES, type CanarySample, type OutcomeTrend } from "@/lib/schema/api/canary";
import type { FleetPlan, TablePlan } from "@/lib/planner/plan";
import type { ShadowComparison } from "@/lib/planner/shadow";

/** A table is chronic when it is in one listed outcome in at least this share of the samples. */
const CHRONIC_SHARE = 0.5;
/** §6.2 canary doc: these should trend down (discovery_miss) or stay ≈ 0 (phantom_task). */
export const SHOULD_FALL = ["discovery_miss", "phantom_task"] as const;

const DAY_MS = 86_400_000;

/** The row's effective mode is planner: the planner runs its merges, so the legacy queue holds no task of it by design (scheduler-model.md §7.3). */
const plannerMode = (row: TablePlan | undefined) => row?.policy.effective.mode === "planner";

/** The table's effective mode is planner (see plannerMode). */
export const inPlannerMode = (plan: Pick<FleetPlan, "byTarget">, target: string) =>
  plannerMode(plan.byTarget.get(target));

/** Of the §6.2 discovery misses, the tables in planner mode (made once per shadow pass, lib/live/plan-entry.ts). */
export function discoveryMissesInPlannerMode(comparison: ShadowComparison, plan: Pick<FleetPlan, "tables">): number {
  // the misses can be most of the fleet: the planner-mode tables are gathered in one walk of
  // the plan's rows (the rows `byTarget` indexes), then each miss is one set lookup
  const planner = new Set<string>();
  for (const t of plan.tables) if (plannerMode(t)) planner.add(t.target);
  if (planner.size === 0) return 0;
  let n = 0;
  for (const t of comparison.targets.discovery_miss) if (planner.has(t)) n++;
  return n;
}

/** The outcomes that should fall, counted among the tables in mode legacy (what the warning and its alert read). */
export function legacyModeOutcomes(
  comparison: ShadowComparison,
  missesInPlannerMode: number,
): Record<(typeof SHOULD_FALL)[number], number> {
  return {
    discovery_miss: comparison.counts.discovery_miss - missesInPlannerMode,
    phantom_task: comparison.counts.phantom_task,
  };
}

/** Least-squares slope of (t, y), per day; null below two distinct times. */
export function trendPerDay(points: ReadonlyArray<{ t: number; y: number }>): number | null {
  if (points.length < 2) return null;
  const n = points.length;
  const mt = points.reduce((s, p) => s + p.t, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  let num = 0;
  let den = 0;
  for (const p of points) {
    num += (p.t - mt) * (p.y - my);
    den += (p.t - mt) ** 2;
  }
  return den === 0 ? null : (num / den) * DAY_MS;
}

export interface CanaryHistoryReport {
  samples: number;
  enough_data: boolean;
  outcomes: Record<OutcomeName, OutcomeTrend>;
  legacy_mode: Record<(typeof SHOULD_FALL)[number], OutcomeTrend>;
  agreement: { placements_agree_share: number | null; samples: number };
  chronic: Array<{ target: string; outcome: (typeof LISTED_OUTCOMES)[number]; share: number; samples: number }>;
  rising: Array<(typeof SHOULD_FALL)[number]>;
}

function trendOf(points: ReadonlyArray<{ t: number; y: number }>): OutcomeTrend {
  return {
    mean: points.length ? points.reduce((a, p) => a + p.y, 0) / points.length : null,
    first: points.length ? points[0].y : null,
    last: points.length ? points[points.length - 1].y : null,
    trend_per_day: trendPerDay(points),
  };
}

/**
 * An outcome that should fall, among the tables in mode legacy: a table in mode planner has
 * no legacy task by design (scheduler-model.md §7.3), so §6.2 counts it as a discovery miss
 * while the planner runs it; moving tables into the canary would read as misses rising.
 */
const inLegacyMode = (s: CanarySample, o: (typeof SHOULD_FALL)[number]) =>
  o === "discovery_miss" ? s.outcomes[o] - (s.discovery_miss_in_planner_mode ?? 0) : s.outcomes[o];

/** The report of `samples` (already cut to the window, oldest first). */
export function canaryHistoryReport(samples: readonly CanarySample[]): CanaryHistoryReport {
  const outcomes = {} as Record<OutcomeName, OutcomeTrend>;
  for (const o of OUTCOMES) outcomes[o] = trendOf(samples.map((s) => ({ t: s.at_ms, y: s.outcomes[o] })));
  const legacyMode = {} as CanaryHistoryReport["legacy_mode"];
  for (const o of SHOULD_FALL) legacyMode[o] = trendOf(samples.map((s) => ({ t: s.at_ms, y: inLegacyMode(s, o) })));
  const withAgreement = samples.filter((s) => s.placements_agree !== undefined);
  const agreed = withAgreement.filter((s) => s.placements_agree).length;
  const listing = samples.filter((s) => s.tables !== undefined);
  const counts = new Map<string, number>();
  for (const s of listing)
    for (const o of LISTED_OUTCOMES)
      for (const t of s.tables?.[o] ?? []) counts.set(`${o}\u0000${t}`, (counts.get(`${o}\u0000${t}`) ?? 0) + 1);
  const chronic = [...counts]
    .map(([k, n]) => {
      const [outcome, target] = k.split("\u0000") as [(typeof LISTED_OUTCOMES)[number], string];
      return { target, outcome, share: n / listing.length, samples: n };
    })
    .filter((c) => c.share >= CHRONIC_SHARE)
    .sort(
      (a, b) =>
        b.share - a.share ||
        (a.target < b.target ? -1 : a.target > b.target ? 1 : 0) ||
        (a.outcome < b.outcome ? -1 : 1),
    );
  // "rises": the window's trend among the tables in mode legacy is up, and it ended above where it began
  const rising = SHOULD_FALL.filter((o) => {
    const t = legacyMode[o];
    return t.trend_per_day !== null && t.trend_per_day > 0 && t.last !== null && t.first !== null && t.last > t.first;
  });
  return {
    samples: samples.length,
    enough_data: samples.length >= MIN_CANARY_SAMPLES,
    outcomes,
    legacy_mode: legacyMode,
    agreement: {
      placements_agree_share: withAgreement.length ? agreed / withAgreement.length : null,
      samples: withAgreement.length,
    },
    chronic,
    rising,
  };
}
