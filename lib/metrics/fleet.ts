import "server-only";
// Fleet gauges: what an alert about the fleet needs, from the live plan (console-api.md
// "GET /api/metrics"). Label values come from fixed lists (classes, backlog classes,
// verdict codes, executor states, task kinds, shadow outcomes): never a table or an
// executor id, so 13,405 tables cost the same series as 10.
import { Gauge, type Registry } from "prom-client";
import { BACKLOG_CLASSES, CLASS_NAMES, WHY_NOT_CODES } from "@/lib/schema/codes";
import { TASK_KINDS } from "@/lib/schema/kinds";

export const EXECUTOR_STATES = ["live", "draining", "orphan"] as const;
export type ExecutorState = (typeof EXECUTOR_STATES)[number];

/** What one scrape knows about the fleet, already reduced to bounded counts. */
export interface FleetFacts {
  /** the plan's wall time (its `now_ms`) */
  planNowMs: number;
  tablesByClass: Record<string, number>;
  tablesByBacklog: Record<string, number>;
  tablesWithPending: number;
  /** longest `wait_ms` per class; classes without a known wait are absent */
  longestWaitMsByClass: Record<string, number>;
  starving: number;
  wouldPlace: number;
  wouldSkipByCode: Record<string, number>;
  failuresNeedingAttention: number;
  cooldownsActive: number;
  executorsByState: Record<ExecutorState, number>;
  freeSlotsByKind: Record<string, number>;
  freeBytes: number;
  shadowOutcomes: Record<string, number>;
  /** discovery_miss and phantom_task among the tables in mode legacy (lib/planner/takeover/canary.ts) */
  shadowOutcomesLegacyMode: Record<string, number>;
  shadowDisagreements: number;
}

export function fleetGauges(registers: Registry[]) {
  const gauge = (name: string, help: string, labelNames: string[] = []) =>
    new Gauge({ name, help, labelNames, registers });
  return {
    tables: gauge("console_tables", "Tables by planner class in the live plan (idle = nothing pending)", ["class"]),
    tablesBacklog: gauge("console_tables_backlog", "Tables by backlog class in the live plan", ["backlog"]),
    tablesWithPending: gauge("console_tables_with_pending", "Tables with pending generations in the live plan"),
    longestWait: gauge(
      "console_longest_wait_seconds",
      "Longest wait of a table in each class (0 when no table of the class has a known wait)",
      ["class"],
    ),
    starving: gauge(
      "console_tables_starving",
      "Tables with a unit that has waited at or past its kind's max_turn_wait_secs (scheduler-model.md §4.2)",
    ),
    wouldPlace: gauge("console_tables_would_place", "Tables the live plan would place now"),
    wouldSkip: gauge("console_tables_would_skip", "Tables the live plan would skip, by verdict code", ["code"]),
    writeTurns: gauge(
      "console_write_turns",
      "Tables whose write turn an unfinished execution holds: held (advancing or unknown) or stalled",
      ["state"],
    ),
    failuresAttention: gauge(
      "console_failures_needing_attention",
      "Merge failure ledger rows needing attention (after the §9.1 read-time correction)",
    ),
    cooldownsActive: gauge("console_cooldowns_active", "Task cooldowns cooling now (§9.2)"),
    executors: gauge(
      "console_executors",
      "Executors by state: live (heartbeat, accepting), draining, orphan (assignments but no heartbeat)",
      ["state"],
    ),
    freeSlots: gauge(
      "console_executor_free_slots",
      "Free slots by task kind over live, non-draining executors: total − reserved, the master's shadow rows left out (what every verdict uses)",
      ["kind"],
    ),
    freeBytes: gauge(
      "console_executor_free_bytes",
      "Free bytes over live, non-draining executors with a byte budget, the master's shadow rows left out (what every verdict uses)",
    ),
    planAge: gauge("console_fleet_plan_age_seconds", "Age of the plan the fleet gauges come from, at the last scrape"),
    shadowOutcome: gauge("console_shadow_outcome", "Shadow comparison outcome counts of the live plan (§6.2)", [
      "outcome",
    ]),
    shadowOutcomeLegacyMode: gauge(
      "console_shadow_outcome_legacy_mode",
      "discovery_miss and phantom_task of the live plan among tables in mode legacy (a table in mode planner has no legacy task by design): what the canary's warning reads",
      ["outcome"],
    ),
    shadowDisagreements: gauge("console_shadow_disagreements", "discovery_miss + phantom_task of the live plan"),
    snapshotAge: gauge(
      "console_snapshot_age_seconds",
      "Seconds since etcd last proved the live snapshot current (watch message or ping)",
    ),
    revisionClockError: gauge(
      "console_revision_clock_error_seconds",
      "How far off the revision clock's time for the live revision may be (error_ms / 1000; NaN until known)",
    ),
  };
}

export type FleetGauges = ReturnType<typeof fleetGauges>;

/** Every label value of `names` set (0 when absent), so a series never disappears when its count drops to 0. */
function setAll(gauge: Gauge, label: string, names: readonly string[], values: Record<string, number>): void {
  for (const name of new Set([...names, ...Object.keys(values)])) gauge.set({ [label]: name }, values[name] ?? 0);
}

export function recordFleet(g: FleetGauges, facts: FleetFacts, scrapeMs: number): void {
  setAll(g.tables, "class", CLASS_NAMES, facts.tablesByClass);
  setAll(g.tablesBacklog, "backlog", BACKLOG_CLASSES, facts.tablesByBacklog);
  g.tablesWithPending.set(facts.tablesWithPending);
  const waitSecs = Object.fromEntries(Object.entries(facts.longestWaitMsByClass).map(([c, ms]) => [c, ms / 1000]));
  setAll(g.longestWait, "class", CLASS_NAMES, waitSecs);
  g.starving.set(facts.starving);
  g.wouldPlace.set(facts.wouldPlace);
  setAll(g.wouldSkip, "code", WHY_NOT_CODES, facts.wouldSkipByCode);
  // the write turn's verdict codes (console-api.md Additions "The write turn is part of the verdict")
  g.writeTurns.set({ state: "held" }, facts.wouldSkipByCode["write_turn_held"] ?? 0);
  g.writeTurns.set({ state: "stalled" }, facts.wouldSkipByCode["write_turn_stalled"] ?? 0);
  g.failuresAttention.set(facts.failuresNeedingAttention);
  g.cooldownsActive.set(facts.cooldownsActive);
  setAll(g.executors, "state", EXECUTOR_STATES, facts.executorsByState);
  setAll(g.freeSlots, "kind", TASK_KINDS, facts.freeSlotsByKind);
  g.freeBytes.set(facts.freeBytes);
  g.planAge.set(Math.max(0, scrapeMs - facts.planNowMs) / 1000);
  setAll(g.shadowOutcome, "outcome", [], facts.shadowOutcomes);
  setAll(g.shadowOutcomeLegacyMode, "outcome", [], facts.shadowOutcomesLegacyMode);
  g.shadowDisagreements.set(facts.shadowDisagreements);
}
