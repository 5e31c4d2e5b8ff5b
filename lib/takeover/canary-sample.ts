import "server-only";
// What the elected sampler records for the canary besides the outcome counts (console-api.md
// "The takeover gate and the canary evidence"): whether the console's and the master's shadow
// placements agreed (same targets on the same executors, planned from the same fleet), and the tables of the outcomes a
// canary lists (discovery_miss, phantom_task), so chronic disagreement can be told over a
// window, and how many of the misses are tables in mode planner (the canary reads the
// legacy-mode ones for its warning, lib/planner/takeover/canary.ts). Compact: the lists stop at a character budget so a sample stays one small value
// (lib/live/sampler.ts MAX_SAMPLE_CHARS).
import { LISTED_OUTCOMES, type CanarySample } from "@/lib/schema/api/canary";
import { fleetView } from "@/lib/live/fleet-view";
import { shadowFor, type ShadowPlanned } from "@/lib/live/plan";

/** characters of table names a sample may carry (the rest of a sample is ~250) */
export const SAMPLE_TABLE_BUDGET_CHARS = 3000;

export type CanaryExtras = Pick<
  CanarySample,
  "placements_agree" | "tables" | "tables_truncated" | "discovery_miss_in_planner_mode"
>;

type MasterRow = ShadowPlanned["view"]["snapshot"]["assignments"][number];

const masterRows = (view: ShadowPlanned["view"]): MasterRow[] =>
  view.snapshot.assignments.filter((a) => a.assignment.state === "shadow");

/** Same targets on the same executors: the console's pass against the master's `shadow` rows. */
function samePlacements(pass: ShadowPlanned["pass"], master: readonly MasterRow[]): boolean {
  const console = new Map(pass.placements.map((p) => [p.unit.target, p.executor]));
  if (master.length !== console.size) return false;
  return master.every(({ assignment: a }) => console.get(a.target) === a.executor);
}

/** The console's pass against the master's rows, both at this view's revision. */
export function placementsAgree({ pass, view }: Pick<ShadowPlanned, "pass" | "view">): boolean {
  return samePlacements(pass, masterRows(view));
}

/** master shadow rows older than this are a pass that stopped: compared with the present */
export const MASTER_PASS_FRESH_MS = 120_000;

/**
 * Whether the planners agree, as the canary samples it (scheduler-model.md §6.2): the master
 * replaces its shadow rows once per reconcile (every 30 s), so the present fleet has moved
 * since they were planned, and a comparison with the present counts that drift as
 * disagreement. The console's pass is made instead from the fleet the master planned from —
 * the revision before the txn that wrote its rows, at the rows' `created_ms` — so a
 * disagreement is the planners deciding differently. Rows older than MASTER_PASS_FRESH_MS
 * (or a revision no longer readable) are compared with the present.
 */
export async function placementsAgreeAtMasterPass(planned: ShadowPlanned): Promise<boolean> {
  const rows = masterRows(planned.view);
  if (rows.length === 0) return placementsAgree(planned);
  const written = Math.max(...rows.map((r) => r.modRevision));
  const plannedAt = Math.max(...rows.map((r) => r.assignment.created_ms));
  if (planned.evaluation.now - plannedAt > MASTER_PASS_FRESH_MS) return placementsAgree(planned);
  try {
    const then = await shadowFor(await fleetView(written - 1), plannedAt);
    return samePlacements(then.pass, rows);
  } catch {
    return placementsAgree(planned); // compacted away: the present is all there is
  }
}

export async function canaryExtras(planned: ShadowPlanned): Promise<CanaryExtras> {
  let budget = SAMPLE_TABLE_BUDGET_CHARS;
  let truncated = false;
  const tables: NonNullable<CanarySample["tables"]> = {};
  for (const o of LISTED_OUTCOMES) {
    const kept: string[] = [];
    for (const target of planned.comparison.targets[o]) {
      const cost = JSON.stringify(target).length + 1;
      if (cost > budget) {
        truncated = true;
        break;
      }
      budget -= cost;
      kept.push(target);
    }
    tables[o] = kept;
  }
  return {
    placements_agree: await placementsAgreeAtMasterPass(planned),
    discovery_miss_in_planner_mode: planned.missesInPlannerMode,
    tables,
    ...(truncated ? { tables_truncated: true } : {}),
  };
}
