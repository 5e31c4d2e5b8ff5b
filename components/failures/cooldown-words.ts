// A task cooldown below its threshold in words (spec §9.2: cooling = failures ≥
// TASK_COOLDOWN_AFTER_FAILURES, default 3; below it `until_ms` is null and nothing waits).
import { DEFAULT_COOLDOWN } from "@/lib/planner/cooldown";

export function cooldownBelowThreshold(failures: number): string {
  return `${failures} of ${DEFAULT_COOLDOWN.afterFailures} failures, not cooling`;
}
