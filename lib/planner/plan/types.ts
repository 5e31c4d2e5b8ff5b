// The design planner's output: per-table TableSummary fields of console-api.md plus the
// detail fields (score breakdown, units, why-not, eligibility, policy), and fleet counts.
import type { ClassReason } from "@/lib/schema/codes";
import type { BacklogClass } from "../backlog";
import type { Eligibility } from "../eligibility";
import type { HeadroomRow } from "../headroom";
import type { EffectivePolicyResult } from "../policy/effective";
import type { Scored } from "../score";
import type { TableClassName, UnitKind, UnitScore } from "./units";
import type { Verdict, WhyNot } from "./why-not";
import type { ProgressState, WriteTurn } from "./write-turn";
import type { WriteTurnHolder } from "./write-turn-holder";

/** The unfinished execution holding the write turn, as the list shows it. */
export interface ExecutionSummary {
  id: string;
  phase: string;
  endpoint: string;
  progress: ProgressState;
  sequence: number | null;
}

/** 1-based rank among the candidates whose head unit has the same kind (planner order). */
export interface QueuePosition {
  kind: string;
  rank: number;
  of: number;
}

export interface Eta {
  low_ms: number;
  high_ms: number;
  basis: string;
}

/** A record of the table timestamped after `now` (clock skew between writers and the console). */
export interface ClockSkew {
  ahead_ms: number;
  newest_ms: number;
  /** which record carries the newest timestamp */
  record: "flush" | "task" | "failure";
  /** the oldest pending flush is itself in the future: the wait reads 0 s */
  wait_clamped: boolean;
  message: string;
}

interface ScoreBreakdown {
  by_generations: number;
  by_bytes: number;
  age_boost: number;
  wait_exact_ms: number | null;
  wait_floor_ms: number | null;
  min_generations: number;
  min_bytes: number;
  max_age_secs: number;
  critical_generations: number;
  max_turn_wait_secs: number;
}

export interface UnitView {
  kind: UnitKind;
  class: string;
  class_rank: number;
  score: UnitScore;
  reason: ClassReason;
  wait_ms: number | null;
}

export interface TablePlan {
  target: string;
  class: TableClassName;
  class_rank: number;
  reason: ClassReason;
  score: UnitScore;
  pending_generations: number;
  pending_bytes: number;
  oldest_pending_ms: number | null;
  age_bound: "exact" | "upper" | null;
  wait_ms: number | null;
  /** shard count (the detail view lists shards from the demand record) */
  shards: number;
  backlog_class: BacklogClass;
  verdict: Verdict;
  /** merge §4.1 breakdown, null when nothing is pending */
  score_breakdown: ScoreBreakdown | null;
  /** one per kind with demand, in the order the table offers them */
  units: UnitView[];
  /** empty when the table would be placed now */
  why_not: WhyNot[];
  /** reasons units offered before the candidate were passed over (turn_limit …), also when it is placed */
  passed_over: WhyNot[];
  execution: ExecutionSummary | null;
  write_turn: WriteTurn | null;
  /** the table's one write-turn holder, named the same by every surface (console-api.md "One capacity, one write turn") */
  write_turn_holder: WriteTurnHolder | null;
  /** the kind of unit it waits in line for (its candidate's); its place and ETA are the plan's `line` */
  line_kind: string | null;
  clock_skew: ClockSkew | null;
  /** legacy admission of a MergeWal write claim now (§5.6a) */
  eligibility: Eligibility;
  policy: EffectivePolicyResult;
}

export interface PlannedPlacement {
  target: string;
  kind: UnitKind;
  executor: string;
  reserved_bytes: number;
  class: string;
  score: UnitScore;
}

export interface FleetPlan {
  now_ms: number;
  /** every table in planner order (§4.1; idle tables last, by target) */
  tables: TablePlan[];
  /** never mutated (a re-plan hands out a new map: lib/planner/layered-map.ts) */
  byTarget: ReadonlyMap<string, TablePlan>;
  total_tables: number;
  tables_with_pending: number;
  /** tables with a record timestamped after `now` */
  clock_skew_tables: number;
  counts: {
    by_class: Record<TableClassName, number>;
    by_backlog: Record<BacklogClass, number>;
  };
  /** placements in planner order */
  placements: PlannedPlacement[];
  /** headroom after this plan's reservations */
  rows: HeadroomRow[];
  /**
   * The §4.1 merge score of every table with pending generations, scored with its
   * effective policy's thresholds, in the order of `fleet.tables` — exactly
   * `scoreTables(fleet.tables, now, target => mergeThresholds(policy))`, computed once here
   * so the §6.2 shadow pass need not derive and score the fleet again.
   */
  scored: Scored[];
  /** `scored` in planner order (= `sortPlannerOrder(scored)`): pass it to `shadowPass` as `ordered`. */
  merge_order: Scored[];
  /** each candidate's place in line and ETA */
  line: PlanLine;
}

/** Where each row of a listing sat in an earlier listing, of an earlier line (PlanLine.placesAlong). */
export interface CarriedPlaces {
  /** the earlier line's `token` */
  line: object;
  /** each earlier row's index in that line's candidate order (-1: not a candidate) */
  places: Int32Array;
  /** for each row, the index of the very same row object among the earlier rows, else -1 */
  kept: Int32Array;
}

/** A candidate's standing in line (./line.ts `standingOf`): what its ETA is made of. */
export interface LineStanding {
  position: QueuePosition;
  /** candidates of its kind ahead of it that the plan does not place */
  waiting: number;
  /** candidates of its kind in planner mode ahead of it, placed by this plan or not (the planner places them in its own cycles, ../forecast/planner-world.ts) */
  planner_ahead: number;
  /** the plan places it */
  placed: boolean;
  /** tasks of its kind done in the last hour */
  done: number;
}

/** Each candidate's place in line among the candidates of its kind, and its ETA (./line.ts). */
export interface PlanLine {
  /** a row's (of this plan) place; null when the table is not a candidate */
  positionOf(t: TablePlan): QueuePosition | null;
  /** null when the table is not a candidate, or nothing finished in the last hour to go on */
  etaOf(t: TablePlan): Eta | null;
  /** null when the table is not a candidate */
  standingOf(t: TablePlan): LineStanding | null;
  /** each row's rank in line (0: not a candidate); fastest for rows in planner order */
  ranksAlong(rows: readonly TablePlan[]): Int32Array;
  /** names this line: a line patched from it carries the places of the rows it shares (./line.ts) */
  readonly token: object;
  /**
   * each row's index in the candidate order (-1: not a candidate); rows `carried` knew as
   * the same objects, in this line or the one it was patched from, keep theirs (./line.ts)
   */
  placesAlong(rows: readonly TablePlan[], carried?: CarriedPlaces): Int32Array;
  /** the rank in line at each index of the candidate order (0 at -1) */
  ranksAt(places: Int32Array): Int32Array;
  /** candidates per kind (the `of` of every place in line of that kind); never mutated */
  sizes(): Readonly<Record<string, number>>;
}
