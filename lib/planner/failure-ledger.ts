// The merge failure ledger (`P/merge-failures/<hex(target)>/<hex(endpoint)>`),
// scheduler-model.md §9.1: error classification (newest rules), backoff schedule,
// needs-attention, and the read-time correction.

import type { FailureClass, ShardFailure } from "@/lib/schema/failures";

export type { FailureClass };
/** A stored ShardFailure (§2.8), the record this module reads and writes. */
export type FailureLedgerRecord = ShardFailure;

const ATTENTION_ATTEMPTS = 15;
const LAST_ERROR_MAX_CHARS = 4096;

// §9.1 "explicit HTTP status": a marker not preceded by [a-z0-9_\-/], at least one
// separator, the code, then end of text / whitespace / a closing punctuation mark.
const STATUS_RE =
  /(?<![\p{L}\p{N}_\-/])(?:status code|status_code|statuscode|status|http\/1\.1|http\/2|http)[\s:=("']+([0-9]+)(?=$|[\s)}\],;:"'])/gu;

/** Every explicit HTTP status code in the text (digits in ids, paths, timestamps never count). */
export function explicitHttpStatuses(text: string): number[] {
  const found: number[] = [];
  for (const m of text.toLowerCase().matchAll(STATUS_RE)) found.push(Number(m[1]));
  return found;
}

function hasStatus(text: string, codes: readonly number[]): boolean {
  return explicitHttpStatuses(text).some((c) => codes.includes(c));
}

const STALE_CODE_RE = /(?<![a-z0-9_])lc_stale_preparation(?![a-z0-9_])/;

const LEGACY_REPREPARE = new Set([
  "index dataset or schema changed; reprepare",
  "index source fragment changed; reprepare",
  "index metadata changed; reprepare",
  "compaction dataset or schema changed; reprepare",
  "compaction source fragment changed; reprepare",
]);
const LOCATION_RE = /, crates\/lance-context-core\/src\/store_base\.rs:\d+:\d+$/;

/** Rule 4: the legacy preparation-conflict text after the three strip rules. */
function isLegacyReprepare(lower: string): boolean {
  let s = lower.trim();
  if (s.startsWith("invalid user input: ")) s = s.slice("invalid user input: ".length);
  if (s.endsWith(" [lc_stale_preparation]")) s = s.slice(0, -" [lc_stale_preparation]".length);
  s = s.replace(LOCATION_RE, "");
  return LEGACY_REPREPARE.has(s);
}

const DATA_OR_CONFIG_WORDS = [
  "not found",
  "notfound",
  "corrupt",
  "schema",
  "invalid",
  "permission denied",
  "access denied",
  "accessdenied",
  "unauthorized",
  "unauthenticated",
  "forbidden",
  "protocol",
];

/** §9.1 classification of an error string; the first matching rule wins. */
export function classifyFailure(error: string): FailureClass {
  const lower = error.toLowerCase();
  if (lower.includes("ownership unresolved")) return "ownership_unresolved";
  if (hasStatus(lower, [401, 403])) return "data_or_configuration"; // a code never launders auth
  if (STALE_CODE_RE.test(lower)) return "retryable";
  if (isLegacyReprepare(lower)) return "retryable";
  if (DATA_OR_CONFIG_WORDS.some((w) => lower.includes(w))) return "data_or_configuration";
  if (hasStatus(lower, [408, 429, 500, 502, 503, 504])) return "retryable";
  if (lower.includes("deadline") || lower.includes("timeout") || lower.includes("timed out")) return "deadline";
  return "retryable";
}

function needsAttention(cls: FailureClass, attempts: number): boolean {
  return attempts >= ATTENTION_ATTEMPTS || cls === "data_or_configuration" || cls === "ownership_unresolved";
}

/** §9.1 delay in seconds before the next retry; `attempts` counts this failure. */
export function backoffSecs(cls: FailureClass, attempts: number): number {
  if (cls === "ownership_unresolved") return Math.min(300, 30 * 2 ** Math.min(Math.max(attempts - 1, 0), 4));
  if (needsAttention(cls, attempts)) return 3600;
  if (attempts < 3) return 2;
  return Math.min(900, 30 * 2 ** Math.min(attempts - 3, 5)); // deadline: same as retryable
}

function truncateChars(text: string, max: number): string {
  if (text.length <= max) return text;
  return Array.from(text).slice(0, max).join("");
}

/** The record an executor writes after a failure (`previous` = stored record or null). */
export function recordFailure(
  previous: FailureLedgerRecord | null,
  failure: { target: string; endpoint: string; error: string; now: number },
): FailureLedgerRecord {
  const attempts = (previous?.consecutive_attempts ?? 0) + 1;
  const cls = classifyFailure(failure.error);
  return {
    target: failure.target,
    endpoint: failure.endpoint,
    consecutive_attempts: attempts,
    class: cls,
    last_error: truncateChars(failure.error, LAST_ERROR_MAX_CHARS),
    last_failure_ms: failure.now,
    next_retry_ms: failure.now + backoffSecs(cls, attempts) * 1000,
    needs_attention: needsAttention(cls, attempts),
  };
}

/** Read-time correction: a stored `data_or_configuration` record whose text now classifies
 * as retryable is shown as retryable with recomputed attention and retry time; attempts,
 * timestamps and text stay. Never hardens a record. */
export function correctOnRead<R extends FailureLedgerRecord>(record: R): { record: R; corrected: boolean } {
  if (record.class !== "data_or_configuration" || classifyFailure(record.last_error) !== "retryable") {
    return { record, corrected: false };
  }
  const attempts = record.consecutive_attempts;
  return {
    record: {
      ...record,
      class: "retryable",
      needs_attention: needsAttention("retryable", attempts),
      next_retry_ms: record.last_failure_ms + backoffSecs("retryable", attempts) * 1000,
    },
    corrected: true,
  };
}

/** Whether the ledger holds a unit back now: until `next_retry_ms` the record blocks, named
 * `needs_attention` when flagged (an operator must look), else `failure_backoff`. */
export function ledgerBlock(record: FailureLedgerRecord, now: number): "needs_attention" | "failure_backoff" | null {
  if (record.next_retry_ms <= now) return null;
  return record.needs_attention ? "needs_attention" : "failure_backoff";
}
