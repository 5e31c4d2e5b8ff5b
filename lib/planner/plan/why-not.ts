// Why-not entries and verdicts, scheduler-model.md §5.6(f) [PROPOSAL]: stable
// codes, plain-English messages with units spelled out, a retryable flag and detail.

// The codes themselves are lib/schema/codes.ts `WHY_NOT_CODES`.
import type { WhyNotCode } from "@/lib/schema/codes";
import type { Overdue } from "../deadline";

export type { WhyNotCode };

export interface WhyNot {
  code: WhyNotCode;
  message: string;
  /** true when the condition clears by itself (time, capacity); false when someone must act. */
  retryable: boolean;
  detail: Record<string, unknown>;
  /** the condition was to clear by a deadline that has passed (../deadline.ts): it did not clear by itself */
  overdue?: Overdue;
}

export type Verdict =
  | { state: "would_place"; executor: string; reserved_bytes: number; kind: string }
  | { state: "would_skip"; code: WhyNotCode; message: string };

const NOT_RETRYABLE: ReadonlySet<WhyNotCode> = new Set([
  "needs_attention",
  "policy_frozen",
  "policy_draining",
  "kind_not_allowed",
  "executor_not_allowed",
  "no_executors",
  "write_turn_stalled",
]);

export function whyNot(code: WhyNotCode, message: string, detail: Record<string, unknown> = {}): WhyNot {
  return { code, message, retryable: !NOT_RETRYABLE.has(code), detail };
}

export function skipVerdict(entry: WhyNot): Verdict {
  return { state: "would_skip", code: entry.code, message: entry.message };
}

// The console's one number format (lib/schema/format.ts): messages read like the pages.
import { formatDuration } from "@/lib/schema/format";
export { formatBytes } from "@/lib/schema/format";

/**
 * `formatDuration` from zero: 90_000 → "1m 30s", and a negative reads "0s" (a duration in a
 * message is never negative), where `formatDuration` says "-5s".
 */
export function formatDurationFromZero(ms: number): string {
  return formatDuration(Math.max(0, ms));
}

export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`;
}
