// The planner world's standing of a table (console-api.md "Forecasts, per world …",
// `planner`): its rank in the planner's line (./../plan/line.ts, as the list shows it) and the
// ETA of the first evaluation at which the console's own plan (the full design) says
// `would_place` for it. In P1 the plan is a hypothesis the legacy queue acts beside: the line
// moves as the tables ahead are merged, at about the rate the kind's tasks finish. Pure.
import { COMPLETION_WINDOW_MS } from "../plan/fairness";
import type { PlanLine, TablePlan } from "../plan/types";
import { plannerBasis } from "./basis";
import { throughputSpread } from "./legacy";
import type { Standing } from "./standing";

const PAUSED = new Set(["frozen", "drain"]);

export function plannerStanding(t: TablePlan, line: PlanLine, level: number): Standing {
  const kind = t.line_kind ?? t.units[0]?.kind ?? null;
  const none = { world: "planner" as const, kind, position: null, point_ms: null, spread: null };
  if (t.units.length === 0) return { ...none, ...plannerBasis.nothingPending() };
  const mode = t.policy.effective.mode;
  if (PAUSED.has(mode)) return { ...none, ...plannerBasis.paused(mode) };
  const standing = t.line_kind === null ? null : line.standingOf(t);
  if (standing === null) {
    if (t.verdict.state === "would_place") return { ...none, ...plannerBasis.placedNow() };
    const first = t.why_not[0];
    const message = first?.message ?? (t.verdict.state === "would_skip" ? t.verdict.message : "");
    if (first?.code === "cooldown")
      return { ...none, ...plannerBasis.cooling(message, (first.detail.until_ms as number | null | undefined) ?? null) };
    return { ...none, ...plannerBasis.notInLine(message) };
  }
  const { position, waiting, placed, done } = standing;
  if (placed) return { ...none, position, point_ms: 0, spread: { low_ms: 0, high_ms: 0 }, ...plannerBasis.placedNow() };
  if (done === 0) return { ...none, position, ...plannerBasis.noThroughput(position.kind) };
  const gap = COMPLETION_WINDOW_MS / done;
  return {
    world: "planner",
    kind: position.kind,
    position,
    point_ms: Math.round(waiting * gap),
    spread: throughputSpread(waiting, gap, level),
    ...plannerBasis.estimate(position.kind, position, waiting, done),
  };
}
