// Clock skew (console-api.md "One answer on every page"): a record of the table stamped
// after `now` means the writer's clock and the console's disagree. §4.1 clamps the wait at
// 0 s; the flag says so instead of letting a 0 s wait pass for a fresh table.
import type { TableDemand } from "@/lib/schema/demand";
import type { TargetIndex } from "./context";
import type { ClockSkew } from "./types";
import { formatDurationFromZero } from "./why-not";

/**
 * Timestamps up to this far ahead are not skew: a pinned plan's `now` is the clock rounded
 * down to 2 s (lib/live/evaluation.ts NOW_STEP_MS), so a record written in those 2 s is not news.
 */
const CLOCK_SKEW_TOLERANCE_MS = 2000;

const RECORD_WORDS: Record<ClockSkew["record"], string> = {
  flush: "A flush of this table",
  task: "A task record of this table",
  failure: "A failure record of this table",
};

/** Newest kept flush time over all shards (also the retire idleness clock). */
export function lastActivity(demand: TableDemand): number | null {
  let newest: number | null = null;
  for (const id in demand.shards) {
    const shardNewest = demand.shards[id].sealed_times.newest();
    if (shardNewest !== null && (newest === null || shardNewest > newest)) newest = shardNewest;
  }
  return newest;
}

export function clockSkew(
  demand: TableDemand,
  oldestPendingMs: number | null,
  index: TargetIndex | undefined,
  now: number,
): ClockSkew | null {
  let newest = lastActivity(demand) ?? -Infinity;
  let record: ClockSkew["record"] = "flush";
  const consider = (ms: number | null | undefined, kind: ClockSkew["record"]) => {
    if (ms != null && ms > newest) {
      newest = ms;
      record = kind;
    }
  };
  if (index !== undefined) {
    for (const t of index.running) {
      consider(t.enqueued_at, "task");
      consider(t.started_at, "task");
    }
    for (const ms of index.queuedSince.values()) consider(ms, "task");
    for (const f of index.failures) consider(f.last_failure_ms, "failure");
  }
  if (newest <= now + CLOCK_SKEW_TOLERANCE_MS) return null;
  const ahead = newest - now;
  const clamped = oldestPendingMs !== null && oldestPendingMs > now;
  const message =
    `${RECORD_WORDS[record]} is timestamped ${formatDurationFromZero(ahead)} after now: the writer's clock and the console's disagree` +
    (clamped ? "; its oldest pending flush is in the future too, so its wait reads 0 s instead of a real wait." : ".");
  return { ahead_ms: ahead, newest_ms: newest, record, wait_clamped: clamped, message };
}
