// What each shadow outcome means and does not mean (scheduler-model.md §6.2 + canary doc).
import type { OutcomeName } from "@/lib/client/api-types";
import type { CanaryResponse } from "@/lib/schema/api/canary";

export const OUTCOME_MEANING: Record<OutcomeName, { label: string; means: string; notMeans: string; healthy: string }> =
  {
    discovery_miss: {
      label: "discovery misses",
      means:
        "A due (non-tail) table the planner scored, but the legacy queue has it neither queued nor running: legacy discovery has not found work the planner sees.",
      notMeans: "Not lost data and not a planner bug by itself; discovery may simply lag a pass behind.",
      healthy: "should trend down",
    },
    queued_only: {
      label: "queued only",
      means: "A due table the legacy queue has queued but no worker runs yet.",
      notMeans: "Not a disagreement: both sides want the merge; it is waiting for a worker.",
      healthy: "informational",
    },
    running: {
      label: "running",
      means:
        "A due table a legacy worker is merging right now: the agreement signal (there is no separate 'agree' outcome).",
      notMeans: "Not that the planner would pick the same executor, only that both want the work done.",
      healthy: "higher is better",
    },
    placement_gap: {
      label: "placement gaps",
      means:
        "A due table the planner could not place on any executor with free capacity. Counted independently of the legacy side, so a table can also be in another outcome.",
      notMeans:
        "Not a parallelism measure: reservations are deliberately pessimistic and legacy workers and catch-up Jobs don't heartbeat yet, so this stays non-zero.",
      healthy: "expected non-zero until all executors heartbeat",
    },
    phantom_task: {
      label: "phantom tasks",
      means: "A merge queued or running in the legacy queue for a target with no scored demand at all.",
      notMeans: "Not a tail table (tails are scored and don't count). Near zero means no demand events are being lost.",
      healthy: "should be ≈ 0",
    },
  };

/**
 * Whether a report's discovery misses include tables in planner mode, now or in its window:
 * when none do, the legacy-mode figures are the row's own and the page and the CLI leave
 * them out. (Legacy-mode misses are at most all misses in each sample, so the means are
 * equal exactly when no sample counted one in planner mode.)
 */
export const plannerModeAmongMisses = (r: Pick<CanaryResponse, "current" | "outcomes" | "legacy_mode">): boolean =>
  r.current.discovery_miss_in_planner_mode > 0 || r.legacy_mode.discovery_miss.mean !== r.outcomes.discovery_miss.mean;
