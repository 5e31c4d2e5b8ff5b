import "server-only";
// A table's forecasts in the one-table answer (console-api.md "Forecasts, per world, that say
// how often they come true"): both worlds', the acting one first, each interval set from the
// forecast journal stored at the answer's revision (lib/scheduler/forecast-ledger.ts), computed by
// the one function the journal's writer samples with (lib/planner/forecast `rowForecasts`).
// A forecast the journal sampled earlier whose interval ended without the outcome is named
// `overdue` with how long, beside the fresh one.
import { rowForecasts, type TableForecast } from "@/lib/planner/forecast/forecasts";
import { returningTables, type Returning } from "@/lib/planner/forecast/returning";
import type { LegacyLine } from "@/lib/planner/forecast/legacy";
import type { FleetPlan, TablePlan } from "@/lib/planner/plan";
import { CALIBRATION_WINDOW_MS, type ForecastLedger } from "@/lib/journal/forecasts/ledger";
import { legacyLineOf } from "@/lib/snapshot/forecast-inputs";
import type { FleetSnapshot } from "@/lib/snapshot/types";
import { forecastLedgerAt } from "@/lib/scheduler/forecast-ledger";
import type { Planned } from "@/lib/live/plan";

/** An earlier sampled forecast whose interval ended before now without its outcome. */
interface OverdueForecast {
  made_ms: number;
  low_ms: number;
  high_ms: number;
  level: number;
  /** made + high: when the interval ended */
  deadline_ms: number;
  overdue_ms: number;
}

export type ForecastView = TableForecast & { overdue: OverdueForecast | null };

/** One legacy line per snapshot and now (the one-table answers of one view share it). */
const LINES = new WeakMap<FleetSnapshot, { now: number; line: LegacyLine }>();

export function legacyLineAt(snapshot: FleetSnapshot, now: number): LegacyLine {
  const held = LINES.get(snapshot);
  if (held && held.now === now) return held.line;
  const line = legacyLineOf(snapshot, now);
  LINES.set(snapshot, { now, line });
  return line;
}

function overdueOf(ledger: ForecastLedger, f: TableForecast, target: string, now: number): OverdueForecast | null {
  const since = (ledger.lastToMs ?? now) - CALIBRATION_WINDOW_MS;
  const r = ledger.openFor(f.world, target).find((x) => x.f.made_ms >= since && x.end < now);
  if (!r) return null;
  return {
    made_ms: r.f.made_ms,
    low_ms: r.f.low_ms,
    high_ms: r.f.high_ms,
    level: r.f.level,
    deadline_ms: r.end,
    overdue_ms: now - r.end,
  };
}

/** One count of the returning tables per plan: every one-table answer of the plan reads it (13k rows scanned each time otherwise). */
const RETURNING = new WeakMap<FleetPlan, Returning>();

function returningOf(plan: FleetPlan): Returning {
  let returning = RETURNING.get(plan);
  if (!returning) RETURNING.set(plan, (returning = returningTables(plan)));
  return returning;
}

/** The table's forecasts at the planned moment, with the forecast journal's version they rest on. */
export async function forecastsOf(
  planned: Planned,
  t: TablePlan,
): Promise<{ forecasts: ForecastView[]; version: string }> {
  const { view, now, plan } = planned;
  const { ledger, version } = await forecastLedgerAt(view.revision);
  const forecasts = rowForecasts(
    t,
    plan.line,
    returningOf(plan),
    legacyLineAt(view.snapshot, now),
    ledger.calibration(),
  ).map((f) => ({
    ...f,
    overdue: overdueOf(ledger, f, t.target, now),
  }));
  return { forecasts, version };
}
