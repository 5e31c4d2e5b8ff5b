// Every statement about the future carries its deadline, and past it the console says it
// did not happen (console-api.md "Forecasts, per world …": a forecast interval that has
// ended, an assignment past its bind deadline that the master has not released, a retry time
// or a cooldown end that has passed, "clears by itself"): the answer then names it `overdue`
// with how long, never the original promise again. Pure: `now` is a parameter.

export interface Overdue {
  /** when it was to happen */
  deadline_ms: number;
  /** how long ago that was */
  overdue_ms: number;
}

/** The promise of `deadline` is overdue at `now` (null: not yet, or no deadline). */
export function overdueAt(deadline: number | null | undefined, now: number): Overdue | null {
  if (deadline === null || deadline === undefined || !Number.isFinite(deadline) || deadline >= now) return null;
  return { deadline_ms: deadline, overdue_ms: now - deadline };
}

/** How long past `deadline` at `now`, or null (the answers' `overdue_ms`). */
export const overdueMs = (deadline: number | null | undefined, now: number): number | null =>
  overdueAt(deadline, now)?.overdue_ms ?? null;
