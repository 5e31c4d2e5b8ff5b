// The planner's why-not detail fields in words, for the table page and the command line
// alike (labels are words, never field names), and their values with units.
import { formatBytes, formatCount, formatDuration, formatTime } from "./format";
import { codeInWords } from "./codes";

/** The planner's detail field names in words (labels are words, never field names). */
const FIELD_WORDS: Record<string, string> = {
  kind: "work kind",
  score: "score",
  wait_ms: "waited",
  max_turn_wait_secs: "promoted after waiting",
  unit_id: "unit",
  executor: "executor",
  state: "state",
  failures: "failures so far",
  until_ms: "cooling until",
  remaining_ms: "time left",
  next_retry_ms: "next retry",
  last_error: "last error",
  consecutive_attempts: "failures in a row",
  endpoint: "endpoint",
  class: "failure class",
  considered: "executors considered",
  counts: "why each was passed over",
  max_placements_per_cycle: "placements per cycle",
  mode: "policy mode",
  eligibility: "eligibility",
  execution_id: "execution",
  instance: "instance",
  phase: "phase",
  sequence: "progress sequence",
  progress: "progress",
  last_progress_ms: "last progress",
  last_progress_bound: "last progress bound",
  idle_timeout_secs: "idle timeout",
  count: "turns in a row",
  limit: "turn limit",
  to: "yields its turn to",
  task_id: "task",
  id: "id",
};

export function fieldInWords(name: string): string {
  return FIELD_WORDS[name] ?? codeInWords(name.replace(/_(ms|secs|bytes)$/, ""));
}

/** `*_ms` fields are times (epoch) or durations, `*_secs` durations, `*_bytes` sizes. */
export function formatField(name: string, value: unknown): string | null {
  if (typeof value !== "number") return null;
  if (name.endsWith("_ms")) return value > 1e12 ? formatTime(value) : formatDuration(value);
  if (name.endsWith("_secs")) return formatDuration(value * 1000);
  if (name.endsWith("_bytes")) return formatBytes(value);
  return Number.isInteger(value) ? formatCount(value) : value.toFixed(3);
}
