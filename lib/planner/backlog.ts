// backlog_class, scheduler-model.md §4.2 [PROPOSAL]: ok < warn ≤ … < critical ≤ pending
// generations, thresholds from the effective policy (`backlog`; built-in 256 / 4096, the
// read path's warn and HTTP 503 thresholds).
import type { BacklogClass } from "@/lib/schema/codes";
import type { EffectivePolicy } from "@/lib/schema/policy";

export type { BacklogClass };

export function backlogClass(pendingGenerations: number, thresholds: EffectivePolicy["backlog"]): BacklogClass {
  if (pendingGenerations >= thresholds.critical_generations) return "critical";
  if (pendingGenerations >= thresholds.warn_generations) return "warn";
  return "ok";
}
