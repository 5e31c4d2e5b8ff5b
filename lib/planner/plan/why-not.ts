// Why-not entries and verdicts, scheduler-model.md §5.6(f) [PROPOSAL] / issue 3: stable
// codes, plain-English messages with units spelled out, a retryable flag and detail.

export const WHY_NOT_CODES = [
  "no_demand",
  "tail_below_threshold",
  "no_executors",
  "all_draining",
  "no_free_slot",
  "insufficient_bytes",
  "rate_limited",
  "executor_not_allowed",
  "cooldown",
  "failure_backoff",
  "needs_attention",
  "ownership_blocked",
  "yield_to_prepared_commit",
  "turn_limit",
  "policy_frozen",
  "policy_draining",
  "kind_not_allowed",
  "already_running",
  "cycle_limit",
  "write_turn_held",
  "write_turn_stalled",
] as const;
export type WhyNotCode = (typeof WHY_NOT_CODES)[number];

export interface WhyNot {
  code: WhyNotCode;
  message: string;
  /** true when the condition clears by itself (time, capacity); false when someone must act. */
  retryable: boolean;
  detail: Record<string, unknown>;
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

const UNITS = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];

/** 2147483648 → "2.0 GiB"; 512 → "512 B". */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${bytes} B` : `${value.toFixed(1)} ${UNITS[unit]}`;
}

/** 90_000 → "1 minute 30 seconds"; coarse above an hour ("2 hours 5 minutes"). */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.round(ms / 1000));
  const parts: Array<[number, string]> = [
    [Math.floor(total / 86_400), "day"],
    [Math.floor((total % 86_400) / 3600), "hour"],
    [Math.floor((total % 3600) / 60), "minute"],
    [total % 60, "second"],
  ];
  const shown = parts.filter(([n]) => n > 0).slice(0, 2);
  if (shown.length === 0) return "0 seconds";
  return shown.map(([n, w]) => `${n} ${w}${n === 1 ? "" : "s"}`).join(" ");
}

export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`;
}
