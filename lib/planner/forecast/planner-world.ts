// The planner world's standing of a table (console-api.md "Forecasts, per world …",
// `planner`): its rank in the planner's line (./../plan/line.ts, as the list shows it) and the
// ETA of the first evaluation at which the console's own plan (the full design) says
// `would_place` for it. In P1 the plan is a hypothesis the legacy queue acts beside: the line
// moves as the tables ahead of it leave it, and they leave when the legacy workers take them
// (./legacy.ts: the same throughput both worlds go by). The plan places the first few of the
// line; a table with `waiting` unplaced ones ahead is placed once waiting + 1 of the rank − 1
// ahead of it have left. The legacy queue takes its Q queued tables in its own order, so in
// one pass of it (Q finishes) each table ahead leaves at a time spread evenly over the pass:
// k of them have left after about k ÷ rank of it. With no legacy queue of the kind (the
// planner acting alone), a table ahead leaves with each finish: k finishes. The interval is
// then set from how these estimates missed (./conformal.ts).
// A table in planner mode (the planner acts on it: P2, §7.3) does not wait for the legacy
// queue but for the planner's own placements, made in the leader's cycles (./planner-cycles.ts):
// the tables in planner mode ahead of it in the §4.1 order take the first placements, as many
// a cycle as the last hour's cycles placed, so its turn is the cycle ⌈(those + 1) ÷ per
// cycle⌉ from the next one. Those ahead are the ones in line and the ones out of it only while
// the planner's own unit runs (./returning.ts: back in line by the next cycle). The interval is then set from how these estimates missed (./conformal.ts). Pure.
import type { PlanLine, QueuePosition, TablePlan } from "../plan/types";
import { plannerBasis } from "./basis";
import { MIN_FINISHES, throughputSpread, type LegacyLine } from "./legacy";
import type { Returning } from "./returning";
import type { Standing } from "./standing";

const PAUSED = new Set(["frozen", "drain"]);

export function plannerStanding(
  t: TablePlan,
  line: PlanLine,
  returning: Returning,
  rates: LegacyLine,
  level: number,
): Standing {
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
      return {
        ...none,
        ...plannerBasis.cooling(message, (first.detail.until_ms as number | null | undefined) ?? null),
      };
    return { ...none, ...plannerBasis.notInLine(message) };
  }
  const { position, waiting, placed } = standing;
  if (mode === "planner")
    return actingStanding(
      position,
      { in_line: standing.planner_ahead, returning: returning.aheadOf(t, position.kind) },
      rates,
    );
  if (placed) return { ...none, position, point_ms: 0, spread: { low_ms: 0, high_ms: 0 }, ...plannerBasis.placedNow() };
  const done = rates.finished.get(position.kind) ?? 0;
  if (done < MIN_FINISHES) return { ...none, position, ...plannerBasis.noThroughput(position.kind, done) };
  const gap = rates.gap_ms.get(position.kind)!;
  const queued = rates.queued.get(position.kind) ?? 0;
  const pass = Math.max(1, queued / position.rank);
  return {
    world: "planner",
    kind: position.kind,
    position,
    point_ms: Math.round((waiting + 1) * gap * pass),
    spread: throughputSpread(waiting + 1, gap * pass, level),
    ...plannerBasis.estimate(position.kind, position, waiting, done, gap),
  };
}

/** A table in planner mode: its turn at the leader's cycle that reaches it. */
function actingStanding(
  position: QueuePosition,
  ahead: { in_line: number; returning: number },
  rates: LegacyLine,
): Standing {
  const kind = position.kind;
  const made = rates.placed.get(kind) ?? 0;
  const cycles = rates.cycles.get(kind) ?? null;
  if (made < MIN_FINISHES || cycles === null)
    return { world: "planner", kind, position, point_ms: null, spread: null, ...plannerBasis.noPlacements(kind, made) };
  const later = Math.ceil((ahead.in_line + ahead.returning + 1) / cycles.per_cycle) - 1;
  const point = cycles.next_in_ms + later * cycles.every_ms;
  return {
    world: "planner",
    kind,
    position,
    point_ms: Math.round(point),
    // not calibrated yet: that cycle, or the one before or after it
    spread: { low_ms: Math.round(Math.max(0, point - cycles.every_ms)), high_ms: Math.round(point + cycles.every_ms) },
    ...plannerBasis.acting(kind, position, ahead, made, cycles),
  };
}
