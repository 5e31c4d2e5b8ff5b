// The leader's placing cycles, read from its placements (console-api.md "Forecasts …",
// `planner`, for a table in planner mode): the master places in cycles, every
// PLANNER_RECONCILE_SECS (scheduler-model.md §6.1), and every assignment a cycle writes carries
// that cycle's `created_ms`. So the distinct creation moments of the last hour are its cycles
// that placed something: their period is the median time between consecutive ones (a cycle
// that placed nothing makes one gap twice as long, which the median passes over), how many a
// cycle places is the median count of a moment (a cycle with fewer waiting than it could
// place says nothing of how many it can: in a mean, such cycles would put a table whose turn
// is the next cycle's last placement a cycle later), and the next cycle is the last one plus
// whole periods, the first not before `now` (after it when the last one is `now`). Pure.

export interface PlannerCycles {
  /** the median time between consecutive placing cycles (ms) */
  every_ms: number;
  /** placements per placing cycle (the median) */
  per_cycle: number;
  /** ms from `now` to the next cycle */
  next_in_ms: number;
}

/** From the creation moments of the placements of one kind (any order); null with fewer than two cycles. */
export function plannerCycles(createdMs: readonly number[], now: number): PlannerCycles | null {
  const counts = new Map<number, number>();
  for (const m of createdMs) counts.set(m, (counts.get(m) ?? 0) + 1);
  const moments = [...counts.keys()].sort((a, b) => a - b);
  if (moments.length < 2) return null;
  const perMoment = [...counts.values()].sort((a, b) => a - b);
  const gaps = moments.slice(1).map((m, i) => m - moments[i]);
  gaps.sort((a, b) => a - b);
  const every = gaps[(gaps.length - 1) >> 1];
  const last = moments[moments.length - 1];
  // the first cycle moment after the last one seen that is not before now: a cycle due exactly
  // now whose placements are not in this read has not placed yet (it is due now)
  const next = last + every * Math.max(1, Math.ceil((now - last) / every));
  return { every_ms: every, per_cycle: perMoment[(perMoment.length - 1) >> 1], next_in_ms: next - now };
}
