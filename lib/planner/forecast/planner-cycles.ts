// The leader's placing cycles, read from its placements (console-api.md "Forecasts …",
// `planner`, for a table in planner mode): the master places in cycles, every
// PLANNER_RECONCILE_SECS (scheduler-model.md §6.1), and every assignment a cycle writes carries
// that cycle's `created_ms`. So the distinct creation moments of the last hour are its cycles
// that placed something: their period is the median time between consecutive ones (a cycle
// that placed nothing makes one gap twice as long, which the median passes over), how many a
// cycle places is their count over the moments, and the next cycle is the last one plus whole
// periods, the first after `now`. Pure.

export interface PlannerCycles {
  /** the median time between consecutive placing cycles (ms) */
  every_ms: number;
  /** placements per placing cycle */
  per_cycle: number;
  /** ms from `now` to the next cycle */
  next_in_ms: number;
}

/** From the creation moments of the placements of one kind (any order); null with fewer than two cycles. */
export function plannerCycles(createdMs: readonly number[], now: number): PlannerCycles | null {
  const moments = [...new Set(createdMs)].sort((a, b) => a - b);
  if (moments.length < 2) return null;
  const gaps = moments.slice(1).map((m, i) => m - moments[i]);
  gaps.sort((a, b) => a - b);
  const every = gaps[(gaps.length - 1) >> 1];
  const last = moments[moments.length - 1];
  const next = last + every * (Math.floor((now - last) / every) + 1);
  return { every_ms: every, per_cycle: createdMs.length / moments.length, next_in_ms: next - now };
}
