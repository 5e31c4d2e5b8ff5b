// What the journal's writer records of forecasts at each evaluation (console-api.md
// "Forecasts …": sampled at most once a minute per table, resolved when the outcome happens).
// Pure: the writer (lib/live/forecast-journal.ts) and the benchmark (bench/forecasts.ts) hand
// in the plan, the legacy queue and the calibration of one moment; the forecasts are the very
// ones the one-table answer gives (lib/planner/forecast `rowForecasts`).
// Outcomes are looked for only for the tables it sampled this term (the sampler remembers
// them; a new term starts after a gap, where the ledger counts the older ones lost):
// * legacy: the queued task the forecast ranked started (its `running/` copy or its `tasks/`
//   record carries `started_at`) → a turn at that time; it went without starting → withdrawn;
// * planner: the plan places the table → a turn at this evaluation; it is no longer a
//   candidate → withdrawn. A table in planner mode is the planner's to place: its turn is the
//   planner's own placement (a non-shadow assignment, or the execution it started, holding its
//   write turn), not the console's plan saying it would, dated as the legacy world's turns are
//   by their record: the assignment's `created_ms` (the leader's cycle that placed it), not
//   when this evaluation came to see it (at most the evaluation, at least the sample).
import type { FleetPlan } from "@/lib/planner/plan/types";
import type { Calibration } from "@/lib/planner/forecast/calibration";
import type { LegacyLine } from "@/lib/planner/forecast/legacy";
import { rowForecasts } from "@/lib/planner/forecast/forecasts";
import { heldByPlanner, returningTables } from "@/lib/planner/forecast/returning";
import { DEFAULT_FORECAST_LEVEL } from "@/lib/schema/forecast-codes";
import type { TaskRecord } from "@/lib/schema/tasks";
import type { ForecastEvaluation, ForecastOutcome, SampledForecast } from "./records";

/** console-api.md: at most one forecast a minute per table. */
const SAMPLE_EVERY_MS = 60_000;
/**
 * At most this many tables are sampled a minute (a budget refilled evenly), the least recently
 * sampled first: a queue thousands long (the demo's grows to 3,000) would otherwise journal
 * ~4 MB an hour; 300 keeps it near 0.6 MB, and still samples a few hundred tables in line about
 * once a minute. Which tables is not decided by how they fare, so the score stays unbiased.
 */
export const SAMPLE_TABLES_PER_MINUTE = 300;

/** A stable order among tables last sampled at the same time (FNV-1a of the name): not rank, not fate. */
function tieBreak(target: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < target.length; i++) h = Math.imul(h ^ target.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

export interface SamplerInputs {
  now: number;
  plan: FleetPlan;
  legacy: LegacyLine;
  /** a `tasks/` record by id (null: not in the read's window) */
  taskById: (id: string) => TaskRecord | null;
  /** when the planner placed the table's live unit (its non-shadow assignment's `created_ms`; null: none in the read) */
  placedAt: (target: string) => number | null;
  calibration: Calibration;
  level?: number;
}

export class ForecastSampler {
  private readonly lastSampled = new Map<string, number>();
  /** target → the kind and queued task id its legacy forecasts ranked */
  private readonly legacyOpen = new Map<string, { kind: string; id: string }>();
  private readonly plannerOpen = new Set<string>();
  /** tables that may still be sampled (refilled at SAMPLE_TABLES_PER_MINUTE) and the evaluation it was counted at */
  private allowance = SAMPLE_TABLES_PER_MINUTE;
  private allowanceAt: number | null = null;

  /** A new term (after a gap): nothing sampled before is looked for. */
  reset(): void {
    this.allowance = SAMPLE_TABLES_PER_MINUTE;
    this.allowanceAt = null;
    this.lastSampled.clear();
    this.legacyOpen.clear();
    this.plannerOpen.clear();
  }

  evaluate(inputs: SamplerInputs): ForecastEvaluation {
    const now = inputs.now;
    return { now_ms: now, outcomes: this.outcomes(inputs), forecasts: this.sample(inputs) };
  }

  private outcomes({ now, plan, legacy, taskById, placedAt }: SamplerInputs): ForecastOutcome[] {
    const out: ForecastOutcome[] = [];
    for (const [target, { kind, id }] of this.legacyOpen) {
      const running = legacy.running.get(kind)?.get(target);
      let at: number | null | undefined;
      if (running !== undefined) at = running ?? now;
      else if (legacy.ids.get(kind)?.get(target) === id)
        continue; // still queued
      else at = taskById(id)?.started_at;
      out.push({ target, world: "legacy", what: at == null ? "withdrawn" : "turn", kind, at_ms: at ?? now });
      this.legacyOpen.delete(target);
    }
    if (this.plannerOpen.size > 0) {
      const placed = new Set(plan.placements.map((p) => p.target));
      for (const target of this.plannerOpen) {
        const row = plan.byTarget.get(target);
        const acting = row?.policy.effective.mode === "planner";
        if (acting ? heldByPlanner(row!) : placed.has(target)) {
          const sampled = this.lastSampled.get(target) ?? now;
          const at = acting ? Math.min(now, Math.max(sampled, placedAt(target) ?? now)) : now;
          out.push({ target, world: "planner", what: "turn", kind: null, at_ms: at });
        } else if (!row || row.line_kind === null)
          out.push({ target, world: "planner", what: "withdrawn", kind: null, at_ms: now });
        else continue;
        this.plannerOpen.delete(target);
      }
    }
    return out;
  }

  /**
   * The tables due (none sampled in the last minute) in either world's line, the least recently
   * sampled first, within the minute's budget: each world's estimate.
   */
  private sample({ now, plan, legacy, calibration, level }: SamplerInputs): SampledForecast[] {
    if (this.allowanceAt !== null)
      this.allowance = Math.min(
        SAMPLE_TABLES_PER_MINUTE,
        this.allowance + (SAMPLE_TABLES_PER_MINUTE * Math.max(0, now - this.allowanceAt)) / SAMPLE_EVERY_MS,
      );
    this.allowanceAt = now;
    const due = new Set<string>();
    const isDue = (target: string) => now - (this.lastSampled.get(target) ?? -Infinity) >= SAMPLE_EVERY_MS;
    for (const byTarget of legacy.rank.values())
      for (const target of byTarget.keys()) if (isDue(target)) due.add(target);
    for (const t of plan.tables) if (t.line_kind !== null && isDue(t.target)) due.add(t.target);
    const last = (target: string) => this.lastSampled.get(target) ?? -Infinity;
    const order = [...due].sort((a, b) => last(a) - last(b) || tieBreak(a) - tieBreak(b) || (a < b ? -1 : 1));
    const out: SampledForecast[] = [];
    const returning = returningTables(plan);
    for (const target of order) {
      if (this.allowance < 1) break;
      const t = plan.byTarget.get(target);
      if (!t) continue;
      let sampled = false;
      for (const f of rowForecasts(t, plan.line, returning, legacy, calibration, level ?? DEFAULT_FORECAST_LEVEL)) {
        if (f.basis_code !== "estimate" || f.eta === null || f.position === null || f.point_ms === null) continue;
        const id = f.world === "legacy" ? legacy.ids.get(f.position.kind)?.get(target) : undefined;
        if (f.world === "legacy" && id === undefined) continue;
        out.push({
          target,
          world: f.world,
          kind: f.position.kind,
          made_ms: now,
          point_ms: f.point_ms,
          low_ms: f.eta.low_ms,
          high_ms: f.eta.high_ms,
          level: f.eta.level,
          rank: f.position.rank,
          of: f.position.of,
          calibrated: f.calibration?.calibrated ?? false,
          acting: f.acting,
        });
        if (f.world === "legacy") this.legacyOpen.set(target, { kind: f.position.kind, id: id! });
        else this.plannerOpen.add(target);
        sampled = true;
      }
      // looked at: not again within the minute, whether it had an estimate to record or not
      this.lastSampled.set(target, now);
      if (sampled) this.allowance -= 1;
    }
    return out;
  }
}
