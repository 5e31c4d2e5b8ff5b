// The greedy placement of candidates in planner order under §5.2 headroom and the §5.5
// limits (scheduler-model.md §5.4, §5.5), one candidate at a time. A full plan runs it over
// every candidate; a re-plan (replan.ts) resumes it where a change begins and stops once its
// state is again the previous plan's. Each candidate's place in line is the plan's (./line.ts).
import type { TaskKind } from "@/lib/schema/kinds";
import { reserve, type HeadroomRow } from "../headroom";
import { expectedMergeBytes, pickExecutor } from "../placement";
import { acceptsFor, noFitEntry, type ExecutorCheck } from "./executors";
import type { PlannerLimits } from "./input";
import type { Decision, TableDraft } from "./table";
import type { PlannedPlacement } from "./types";
import { unitScore } from "./units";
import { skipVerdict, whyNot, type WhyNot } from "./why-not";

/**
 * "Does any executor fit a unit of this kind under this policy's executors_allowed?" —
 * the answer (null = yes, else the no-fit entry, and the outcome shared by tables with
 * nothing else blocking) only changes when a placement reserves capacity, so it is
 * remembered per (kind, executors_allowed) until the next placement.
 */
export interface NoFitAnswer {
  noFit: WhyNot | null;
  outcome: Decision | null;
}

/** The entry every unit past `max_placements_per_cycle` shares (the message is the same). */
export interface CycleLimit {
  entry: WhyNot;
  outcome: Decision;
}

function cycleLimitOf(limits: PlannerLimits): CycleLimit {
  const cycle = limits.maxPlacementsPerCycle ?? Infinity;
  const entry = whyNot(
    "cycle_limit",
    `${cycle} units were already placed this cycle (max_placements_per_cycle ${cycle}); it is considered again next cycle.`,
    { max_placements_per_cycle: cycle },
  );
  return { entry, outcome: { verdict: skipVerdict(entry), whyNot: [entry] } };
}

function unitBytes(kind: TaskKind, limits: PlannerLimits, mergeBytes: number): number {
  return kind === "merge_wal" ? mergeBytes : limits.maintenanceBytes;
}

export interface PassOptions {
  /** placements already made (their reservations are in `rows` and `recent`) */
  placements?: PlannedPlacement[];
  cycle?: CycleLimit;
  /** maps a fresh no-fit answer to an equal one already handed out (shared objects) */
  intern?: (answer: NoFitAnswer) => NoFitAnswer;
}

/** `rows` and `recent` are the pass's own: placements reserve on them. */
export class PlacementPass {
  readonly placements: PlannedPlacement[];
  readonly cycle: CycleLimit;
  private readonly limit: number;
  private readonly mergeBytes: number;
  private readonly intern: ((answer: NoFitAnswer) => NoFitAnswer) | undefined;
  // kind → executors_allowed list (by identity; equal lists give equal answers) → answer
  private answers = new Map<TaskKind, Map<readonly string[], NoFitAnswer>>();

  constructor(
    readonly rows: HeadroomRow[],
    private readonly recent: Map<string, number>,
    private readonly limits: PlannerLimits,
    options: PassOptions = {},
  ) {
    this.placements = options.placements ?? [];
    this.cycle = options.cycle ?? cycleLimitOf(limits);
    this.limit = limits.maxPlacementsPerCycle ?? Infinity;
    this.mergeBytes = expectedMergeBytes({
      localBudgetBytes: limits.localMemoryBytes,
      appendMaxBytes: limits.appendMaxBytes,
    });
    this.intern = options.intern;
  }

  // built only where an executor is actually looked for (not for remembered answers)
  private checkFor(kind: TaskKind, policy: ExecutorCheck["policy"]): ExecutorCheck {
    return {
      kind,
      bytes: unitBytes(kind, this.limits, this.mergeBytes),
      policy,
      recent: this.recent,
      ratePerMin: this.limits.placementsPerExecutorPerMin,
    };
  }

  /** The outcome of the next candidate in planner order; a placement reserves its capacity. */
  next(d: TableDraft): Decision {
    const kind = d.candidate!.kind as TaskKind; // retire is class 5 and never a candidate
    const policy = d.policy.effective;
    let byPolicy = this.answers.get(kind);
    if (byPolicy === undefined) this.answers.set(kind, (byPolicy = new Map()));
    let answer = byPolicy.get(policy.executors_allowed);
    if (answer === undefined) {
      const check = this.checkFor(kind, policy);
      const fit = pickExecutor(this.rows, acceptsFor(check)) !== null;
      const noFit = fit ? null : noFitEntry(this.rows, check);
      answer = { noFit, outcome: noFit && { verdict: skipVerdict(noFit), whyNot: [noFit] } };
      if (noFit !== null && this.intern) answer = this.intern(answer);
      byPolicy.set(policy.executors_allowed, answer);
    }
    if (answer.noFit !== null) return skipOutcome(d, answer.noFit, answer.outcome!);
    if (this.placements.length >= this.limit) return skipOutcome(d, this.cycle.entry, this.cycle.outcome);
    const check = this.checkFor(kind, policy);
    const row = pickExecutor(this.rows, acceptsFor(check))!;
    this.placements.push({
      target: d.target,
      kind,
      executor: row.executor,
      reserved_bytes: check.bytes,
      class: d.candidate!.class,
      score: unitScore(d.candidate!.score),
    });
    this.reserve(row, kind, check.bytes);
    return { verdict: { state: "would_place", executor: row.executor, reserved_bytes: check.bytes, kind }, whyNot: [] };
  }

  /** Make a placement decided before (same state change as deciding it here). */
  replay(p: PlannedPlacement): void {
    this.placements.push(p);
    this.reserve(
      this.rows.find((r) => r.executor === p.executor)!,
      p.kind as TaskKind,
      p.reserved_bytes,
    );
  }

  private reserve(row: HeadroomRow, kind: TaskKind, bytes: number): void {
    reserve(row, { [kind]: 1 }, bytes);
    this.recent.set(row.executor, (this.recent.get(row.executor) ?? 0) + 1);
    this.answers = new Map(); // capacity changed: every remembered answer may differ now
  }
}

/** A skipped candidate: the shared outcome when nothing else blocks it, else its blockers first. */
function skipOutcome(d: TableDraft, entry: WhyNot, shared: Decision): Decision {
  return d.blocked.length === 0 ? shared : { verdict: skipVerdict(entry), whyNot: [...d.blocked, entry] };
}
