// Task cooldown (`P/cooldown/<kind-label>/<hex(target)>`), scheduler-model.md §9.2.
// Compact / IndexId / Repair only; MergeWal never cools down.
import type { TaskKind } from "@/lib/schema/kinds";
import type { TaskCooldown } from "@/lib/schema/tasks";

export interface CooldownConfig {
  /** TASK_COOLDOWN_AFTER_FAILURES; 0 disables cooling. */
  afterFailures: number;
  /** TASK_COOLDOWN_BASE_SECS */
  baseSecs: number;
  /** TASK_COOLDOWN_MAX_SECS (also the record's lease TTL). */
  maxSecs: number;
}

export const DEFAULT_COOLDOWN: CooldownConfig = { afterFailures: 3, baseSecs: 600, maxSecs: 21_600 };
const COOLDOWN_LAST_ERROR_MAX_CHARS = 512;

/** A stored TaskCooldown (§2.8). */
export type CooldownRecord = TaskCooldown;

function isCoolingKind(kind: TaskKind): boolean {
  return kind !== "merge_wal";
}

function isCoolingCount(failures: number, config: CooldownConfig = DEFAULT_COOLDOWN): boolean {
  return config.afterFailures > 0 && failures >= config.afterFailures;
}

/** `min(max, base × 2^min(failures − threshold, 20))`; below the threshold the exponent is 0. */
export function cooldownDurationSecs(failures: number, config: CooldownConfig = DEFAULT_COOLDOWN): number {
  const exponent = Math.min(Math.max(failures - config.afterFailures, 0), 20);
  return Math.min(config.maxSecs, config.baseSecs * 2 ** exponent);
}

/** The record written after a failed task (`previous` = stored record or null), or null for
 * MergeWal, which has no cooldown. */
export function recordTaskFailure(
  previous: CooldownRecord | null,
  failure: { kind: TaskKind; target: string; error: string; now: number },
  config: CooldownConfig = DEFAULT_COOLDOWN,
): CooldownRecord | null {
  if (!isCoolingKind(failure.kind)) return null;
  const failures = Math.min((previous?.failures ?? 0) + 1, 4_294_967_295);
  const cooling = isCoolingCount(failures, config);
  return {
    kind: failure.kind,
    target: failure.target,
    failures,
    until_ms: cooling ? failure.now + cooldownDurationSecs(failures, config) * 1000 : null,
    last_error: Array.from(failure.error).slice(0, COOLDOWN_LAST_ERROR_MAX_CHARS).join(""),
  };
}

/** Sweeps skip a (kind, target) while `until_ms > now`. */
export function isCooling(record: Pick<CooldownRecord, "until_ms">, now: number): boolean {
  return record.until_ms !== null && record.until_ms > now;
}

/** Milliseconds until the cooldown ends (0 when not cooling). */
export function cooldownRemainingMs(record: Pick<CooldownRecord, "until_ms">, now: number): number {
  return isCooling(record, now) ? (record.until_ms as number) - now : 0;
}
