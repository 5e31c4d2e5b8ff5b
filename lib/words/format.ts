// Display formatting only (no planner logic), for the pages and the command line alike.
// Bytes, durations and counts are the one format the planner's messages use too
// (lib/schema/format.ts), times as well; scores, ages, bounds, plurals and slots here.
// Every relative time counts from the answer's `now_ms` (console-api.md "One answer, as of
// its moment"), never from the reader's clock.

export { formatBytes, formatCount, formatDuration, formatTime } from "../schema/format";
import { formatCount, formatDuration } from "../schema/format";

/** Scores are numbers, or "infinity" (a repair with missing fragments, console-api.md). */
export function formatScore(score: number | "infinity" | null | undefined): string {
  if (score === "infinity") return "∞";
  if (score === null || score === undefined || !Number.isFinite(score)) return "—";
  // one notation: thousands grouped, two significant decimals at most below 100
  if (Math.abs(score) >= 100) return formatCount(Math.round(score));
  return Math.abs(score) >= 10 ? score.toFixed(1) : score.toFixed(2);
}

/** "1 shard", "13,405 tables". */
export function countOf(n: number, word: string, many = `${word}s`): string {
  return `${formatCount(n)} ${n === 1 ? word : many}`;
}

/**
 * A wait, with its bound: a pruned flush time (age_bound "upper", §3.4) makes the wait a
 * lower bound, written "≥ 2m 57s" everywhere (the words "at least" where a sign would be lost).
 */
export function waitText(waitMs: number | null | undefined, bound: string | null | undefined): string {
  if (waitMs === null || waitMs === undefined) return "—";
  return bound === "upper" ? `≥ ${formatDuration(waitMs)}` : formatDuration(waitMs);
}

/**
 * A future moment relative to the answer's now: "in 20m 01s", "due now" at it, and once past
 * "overdue by 3m 10s" — never the promise again after its moment (console-api.md "Forecasts …").
 */
export function formatIn(atMs: number | null | undefined, nowMs: number): string {
  if (atMs === null || atMs === undefined || !Number.isFinite(atMs)) return "—";
  if (atMs < nowMs) return overdueText(nowMs - atMs);
  return atMs === nowMs ? "due now" : `in ${formatDuration(atMs - nowMs)}`;
}

/** A deadline passed `ms` ago: "overdue by 3m 10s". */
export const overdueText = (ms: number) => `overdue by ${formatDuration(ms)}`;

/** Time left until `untilMs` at the answer's now, never negative: "16m 34s left" or "ended". */
export function formatLeft(untilMs: number | null | undefined, nowMs: number): string {
  if (untilMs === null || untilMs === undefined || !Number.isFinite(untilMs)) return "—";
  return untilMs <= nowMs ? "ended" : `${formatDuration(untilMs - nowMs)} left`;
}

/** "3m 05s ago" relative to the answer's `now`; a moment after it (clock skew) is "just now". */
export function formatAgo(ms: number | null | undefined, now: number): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return "—";
  return ms >= now ? "just now" : `${formatDuration(now - ms)} ago`;
}
