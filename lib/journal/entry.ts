// One table's journal entry (console-api.md "Additions (third version)", "The decision
// journal"): what a live plan decided for it — class, verdict (state, code, executor),
// write-turn state, shadow outcome and the demand facts its wait and score grow from
// (./demand.ts) — and the diff that keeps only the tables whose entry
// changed between two plans. Pure: no clock, no I/O (the sampler hands plans in).
import type { FleetPlan, TablePlan } from "@/lib/planner/plan/types";
import type { Verdict } from "@/lib/planner/plan/why-not";
import type { ClassName, OutcomeName, WhyNotCode } from "@/lib/schema/codes";
import { factsOf, sameFacts, type DemandFacts } from "./demand";
import type { Capacities, InputMarks } from "./inputs";

export type WriteTurnState = "held" | "stalled" | null;

/** What the journal keeps of one table at one evaluation (the entry without its moment). */
export interface TableState {
  class: ClassName;
  verdict:
    { state: "would_place"; code: null; executor: string } | { state: "would_skip"; code: WhyNotCode; executor: null };
  write_turn: WriteTurnState;
  shadow_outcome: OutcomeName | null;
  /** what the pending generations, wait and score at any `now` derive from (absent in chunks written before it was kept: read as unknown) */
  demand?: DemandFacts;
  /**
   * the table's own inputs at the evaluation that entered it (./inputs.ts), so history says
   * what moved without reading etcd; never compared (an entry is a change of the verdict's
   * side, not of its inputs). Absent: not marked (a checkpoint's rows, older chunks).
   */
  inputs?: InputMarks;
}

/** The moment a plan was evaluated: the revision it read and the clock it ran at. */
export interface PlanEvaluation {
  revision: number;
  /** the planner's `now` (a time-driven change is entered at the evaluation that first sees it) */
  now_ms: number;
  /** the executors' capacity at that revision (./inputs.ts; absent: not marked) */
  capacities?: Capacities;
}

/** A journal entry as the contract names it. */
export interface JournalEntry extends TableState {
  target: string;
  /** when the entry held: the evaluation's clock (the journal records live plans, planned at the wall time) */
  at_ms: number;
  revision: number;
  now_ms: number;
}

/** A verdict's state and code: what a history point, a diff's side and a time in state compare. */
export type VerdictKey = { state: "would_place"; code: null } | { state: "would_skip"; code: WhyNotCode };

/**
 * The one projection of a verdict, the plan's (lib/planner/plan/why-not.ts `Verdict`) or an
 * entry's, to its state and code: a placed table has no code, a skipped one no executor.
 */
export function verdictKey(v: Verdict | TableState["verdict"]): VerdictKey {
  return v.state === "would_place" ? { state: "would_place", code: null } : { state: "would_skip", code: v.code };
}

/** A plan's verdict as an entry keeps it: its key (as `verdictKey`) and, when placed, the executor. */
function entryVerdict(v: Verdict): TableState["verdict"] {
  return v.state === "would_place"
    ? { state: "would_place", code: null, executor: v.executor }
    : { state: "would_skip", code: v.code, executor: null };
}

/** The table's entry in a plan made at `now`, with its §6.2 shadow outcome (null when the pass named none). */
function tableState(t: TablePlan, shadowOutcome: OutcomeName | null, now: number): TableState {
  return {
    class: t.class,
    verdict: entryVerdict(t.verdict),
    write_turn: t.write_turn === null ? null : t.write_turn.progress === "stalled" ? "stalled" : "held",
    shadow_outcome: shadowOutcome,
    demand: factsOf(t, now),
  };
}

export function sameState(a: TableState, b: TableState): boolean {
  return (
    a.class === b.class &&
    a.verdict.state === b.verdict.state &&
    a.verdict.code === b.verdict.code &&
    a.verdict.executor === b.verdict.executor &&
    a.write_turn === b.write_turn &&
    a.shadow_outcome === b.shadow_outcome &&
    sameFacts(a.demand, b.demand)
  );
}

/** What changed from `before` to `after`: tables whose entry is new or different, and tables gone. */
export interface StateDiff {
  changed: Map<string, TableState>;
  removed: string[];
}

export function diffStates(before: ReadonlyMap<string, TableState>, after: ReadonlyMap<string, TableState>): StateDiff {
  const changed = new Map<string, TableState>();
  for (const [target, state] of after) {
    const was = before.get(target);
    if (was !== state && (!was || !sameState(was, state))) changed.set(target, state);
  }
  const removed: string[] = [];
  for (const target of before.keys()) if (!after.has(target)) removed.push(target);
  return { changed, removed };
}

/** A plan's entries, kept to make the next plan's from (planStates `before`). */
export interface PlanStates {
  plan: FleetPlan;
  tables: ReadonlyMap<string, TableState>;
}

/**
 * Every table's entry in a plan; `outcomes`: the §6.2 shadow outcome by target (null: the
 * pass was not made). `before`: the entries of an earlier plan. A row that plan shares at
 * the same `now` (a patch keeps every row it does not change, lib/planner/plan/replan.ts)
 * with the same outcome keeps its entry, the very object (what tableState would make of it
 * again), so the entries of a patched plan are made for what the patch changed, and
 * diffStates passes the others by identity. Entries are never changed once made.
 */
export function planStates(
  plan: FleetPlan,
  outcomes: ReadonlyMap<string, OutcomeName> | null,
  before?: PlanStates | null,
): Map<string, TableState> {
  const out = new Map<string, TableState>();
  const kept = before && before.plan.now_ms === plan.now_ms ? before : null;
  for (const t of plan.tables) {
    const outcome = outcomes?.get(t.target) ?? null;
    const was = kept !== null && kept.plan.byTarget.get(t.target) === t ? kept.tables.get(t.target) : undefined;
    out.set(t.target, was !== undefined && was.shadow_outcome === outcome ? was : tableState(t, outcome, plan.now_ms));
  }
  return out;
}
