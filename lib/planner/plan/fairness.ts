// Fairness hard bounds, scheduler-model.md §4.2 [DESIGN]: `max_consecutive_turns[kind]`
// (after N consecutive write turns of one kind the next turn goes to the best other kind
// with a pending request, across classes, even class 1). `max_turn_wait_secs[kind]` (a unit
// that waited longer is promoted to class 1) is a unit's class, so it lives in units.ts.
import type { EffectivePolicy } from "@/lib/schema/policy";
import type { TaskRecord } from "@/lib/schema/tasks";
import type { TurnHistory } from "./input";
import type { PlanUnit } from "./units";

/** The trailing run of one kind in a table's write-turn history. */
export function consecutiveRun(history: TurnHistory | undefined): { kind: string; count: number } | null {
  const turns = history?.turns;
  if (!turns || turns.length === 0) return null;
  const kind = turns[turns.length - 1].kind;
  let count = 0;
  for (let i = turns.length - 1; i >= 0 && turns[i].kind === kind; i--) count++;
  return { kind, count };
}

export interface TurnLimitOutcome {
  /** Units in the order the table should offer them (unchanged when no limit applies). */
  units: PlanUnit[];
  /** Set when the head kind used up its consecutive turns and another kind goes first. */
  yielded: { kind: string; count: number; limit: number; to: string } | null;
}

/** Apply `max_consecutive_turns`: `units` are one table's units in planner order. */
export function applyTurnLimit(
  units: PlanUnit[],
  history: TurnHistory | undefined,
  policy: EffectivePolicy,
): TurnLimitOutcome {
  const run = consecutiveRun(history);
  if (!run || units.length < 2 || units[0].kind !== run.kind) return { units, yielded: null };
  const limit = policy.max_consecutive_turns[run.kind as keyof EffectivePolicy["max_consecutive_turns"]];
  if (limit === undefined || run.count < limit) return { units, yielded: null };
  const other = units.findIndex((u) => u.kind !== run.kind && u.class_rank < 5); // a pending request, not a tail
  if (other < 0) return { units, yielded: null };
  const reordered = [units[other], ...units.slice(0, other), ...units.slice(other + 1)];
  return { units: reordered, yielded: { kind: run.kind, count: run.count, limit, to: units[other].kind } };
}

/** How far back write turns count for `max_consecutive_turns` (console-api.md "Fairness is live"). */
const TURN_WINDOW_MS = 24 * 3_600_000;
/** The completion rate behind an ETA: done tasks of the last hour. */
export const COMPLETION_WINDOW_MS = 3_600_000;

/**
 * Write-turn history from task records (any state that started), oldest first. With
 * `now`, only turns started in (now − 24 h, now] count; every task kind takes the write turn.
 */
export function turnHistoryFromTasks(tasks: Iterable<TaskRecord>, now?: number): Map<string, TurnHistory> {
  const byTarget = new Map<string, Array<{ kind: TaskRecord["kind"]; at_ms: number; id: string }>>();
  for (const t of tasks) {
    if (t.started_at == null) continue;
    if (now !== undefined && (t.started_at > now || t.started_at <= now - TURN_WINDOW_MS)) continue;
    let list = byTarget.get(t.target);
    if (!list) byTarget.set(t.target, (list = []));
    list.push({ kind: t.kind, at_ms: t.started_at, id: t.id });
  }
  const out = new Map<string, TurnHistory>();
  for (const [target, list] of byTarget) {
    list.sort((a, b) => a.at_ms - b.at_ms || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    out.set(target, { turns: list.map(({ kind, at_ms }) => ({ kind, at_ms })) });
  }
  return out;
}

/** Done tasks per kind finished in (now − 1 h, now]: the recent completion rate. */
export function recentCompletions(tasks: Iterable<TaskRecord>, now: number): Map<string, number> {
  const done = new Map<string, number>();
  for (const t of tasks) {
    if (t.state !== "done" || t.finished_at == null) continue;
    if (t.finished_at > now || t.finished_at <= now - COMPLETION_WINDOW_MS) continue;
    done.set(t.kind, (done.get(t.kind) ?? 0) + 1);
  }
  return done;
}
