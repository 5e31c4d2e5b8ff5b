// Display formatting only (no planner logic). Bytes, durations and counts are the one
// format the planner's messages use too (lib/schema/format.ts), times as well; scores and ages here.

export { formatBytes, formatCount, formatDuration, formatTime } from "@/lib/schema/format";
import { formatDuration } from "@/lib/schema/format";

/** Scores are numbers, or "infinity" (a repair with missing fragments, console-api.md). */
export function formatScore(score: number | "infinity" | null | undefined): string {
  if (score === "infinity") return "∞";
  if (score === null || score === undefined || !Number.isFinite(score)) return "—";
  return score >= 100 ? score.toFixed(0) : score.toFixed(2);
}


/** "3m 05s ago" relative to `now`. */
export function formatAgo(ms: number | null | undefined, now: number): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return "—";
  return `${formatDuration(now - ms)} ago`;
}
