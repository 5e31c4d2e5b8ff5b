import "server-only";
// GET /api/v1/scheduler/shadow (scheduler-model.md §6.2): the console's own shadow pass at
// one revision — the five outcomes, their tables, and its placements beside the master's
// recorded `state: shadow` rows. Plus the shadow history's read side (the sampler: lib/live/sampler.ts).
import { executorAgreement, masterMismatchReason } from "@/lib/planner/plan/agreement";
import { compareTargets } from "@/lib/planner/order";
import { SHADOW_OUTCOMES } from "@/lib/planner/shadow";
import { UNFINISHED_PHASES } from "@/lib/planner/plan/write-turn";
import type { OutcomeCounts, ShadowResponse, ShadowSample } from "@/lib/schema/api/shadow";
import { etcdClient, etcdPrefix } from "@/lib/etcd/client";
import { toEtcdError } from "@/lib/etcd/errors";
import type { FleetView } from "@/lib/live/cache";
import { readShadowHistory } from "@/lib/live/sampler";
import { answerKey, identityOf, viewKey } from "@/lib/http/answer-key";
import { cacheable, type Cacheable } from "@/lib/http/encoded-response";
import { snapshotMeta } from "@/lib/live/evaluation";
import { shadowFor, type NowRequest, type ShadowPlanned } from "@/lib/live/plan";

/** The shadow comparison as a cacheable answer: its bytes follow from the plan and the view. */
export async function shadowAnswer(requested: FleetView, nowMs: NowRequest): Promise<Cacheable> {
  const planned = await shadowFor(requested, nowMs);
  return cacheable(
    answerKey("shadow", identityOf(planned.plan), viewKey(planned.view, planned.evaluation), planned.now),
    () => shadowBody(planned),
  );
}

function shadowBody({ comparison, pass, view, now, plan, evaluation }: ShadowPlanned): ShadowResponse {
  const outcomes = {} as OutcomeCounts;
  const tables = {} as ShadowResponse["tables"];
  for (const o of SHADOW_OUTCOMES) {
    outcomes[o] = comparison.counts[o];
    tables[o] = comparison.targets[o];
  }
  const consoleRows = pass.placements.map((p) => ({
    target: p.unit.target,
    executor: p.executor,
    reserved_bytes: p.reserved_bytes,
  }));
  const shadowRows = view.snapshot.assignments.filter((a) => a.assignment.state === "shadow");
  const masterRows = shadowRows
    .map(({ assignment: a }) => ({
      target: a.target,
      executor: a.executor,
      reserved_bytes: a.reserved_bytes,
      created_ms: a.created_ms,
    }))
    .sort((a, b) => compareTargets(a.target, b.target) || compareTargets(a.executor, b.executor));
  const consoleBy = new Map(consoleRows.map((r) => [r.target, r.executor]));
  const masterBy = new Map(masterRows.map((r) => [r.target, r]));
  const writtenAt = new Map(shadowRows.map((a) => [a.assignment.target, a.modRevision]));
  const only_console = [...consoleBy.keys()].filter((t) => !masterBy.has(t)).sort(compareTargets);
  const only_master = [...masterBy.keys()].filter((t) => !consoleBy.has(t)).sort(compareTargets);
  // agreement is per executor: a target both place on different executors disagrees
  const executor_mismatch = [...consoleBy]
    .flatMap(([target, executor]) => {
      const m = masterBy.get(target);
      if (!m || m.executor === executor) return [];
      const master = { executor: m.executor, created_ms: m.created_ms, mod_revision: writtenAt.get(target) };
      return [
        {
          target,
          console: executor,
          master: m.executor,
          master_created_ms: m.created_ms,
          master_mod_revision: master.mod_revision!,
          reason: masterMismatchReason(master, executor, view.revision),
        },
      ];
    })
    .sort((a, b) => compareTargets(a.target, b.target));
  const executor_differs = executor_mismatch.map((m) => m.target);
  // the design verdict (what the tables page says) beside the §6.2 rule, with why they differ
  const verdict_mismatch = consoleRows.flatMap(({ target, executor }) => {
    const verdict = plan.byTarget.get(target)?.verdict;
    if (!verdict || (verdict.state === "would_place" && verdict.executor === executor)) return [];
    const why = executorAgreement(verdict, executor, null, view.revision).reasons[0];
    return [
      {
        target,
        console: executor,
        verdict: verdict.state === "would_place" ? verdict.executor : null,
        verdict_code: verdict.state === "would_skip" ? verdict.code : null,
        reason: why,
      },
    ];
  });
  return {
    ...snapshotMeta(view, evaluation),
    now_ms: now,
    outcomes,
    disagreements: comparison.disagreements,
    tables,
    miss_beside_execution: missesBesideExecutions(view, comparison.targets.discovery_miss),
    write_turn_holders: holdersOf(plan, Object.values(tables)),
    placements: {
      console: consoleRows,
      master: masterRows,
      agree: only_console.length === 0 && only_master.length === 0 && executor_differs.length === 0,
      only_console,
      only_master,
      executor_differs,
      executor_mismatch,
      verdict_mismatch,
    },
  };
}

/** The one write-turn holder of each listed table that has one (the plan's, as every surface names it). */
function holdersOf(
  plan: ShadowPlanned["plan"],
  lists: readonly (readonly string[])[],
): ShadowResponse["write_turn_holders"] {
  // few tables hold a write turn, and the lists can name the whole fleet: the holders are
  // found in one walk of the plan's rows, then looked up by target
  type Holder = ShadowResponse["write_turn_holders"][number]["holder"];
  const held = new Map<string, Holder>();
  for (const t of plan.tables) if (t.write_turn_holder) held.set(t.target, t.write_turn_holder);
  const out: ShadowResponse["write_turn_holders"] = [];
  if (held.size === 0) return out;
  for (const list of lists)
    for (const target of list) {
      const holder = held.get(target);
      if (holder === undefined) continue;
      out.push({ target, holder });
      held.delete(target); // each table once, though it is in two lists
    }
  return out.sort((a, b) => compareTargets(a.target, b.target));
}

/** scheduler-model.md §6.2: the comparison reads `queue/` and `running/` only, never `merge-executions/`. */
function missesBesideExecutions(view: FleetView, misses: readonly string[]): ShadowResponse["miss_beside_execution"] {
  // a few executions run at a time; the misses can be most of the fleet
  const unfinished = view.snapshot.mergeExecutions.filter(({ execution: e }) => UNFINISHED_PHASES.has(e.phase));
  if (unfinished.length === 0) return [];
  const missed = new Set(misses);
  return unfinished
    .filter(({ target }) => missed.has(target))
    .map(({ target, execution: e }) => {
      const executor = e.instance || e.endpoint;
      return {
        target,
        execution_id: e.id,
        executor,
        phase: e.phase,
        explanation: `A merge is ${e.phase} (execution ${e.id} on ${executor}), but no running/ or queue/ task names this table. The master's comparison reads only queue/ and running/ (scheduler-model.md §6.2), so it counts a discovery miss beside a merge that is running.`,
      };
    })
    .sort((a, b) => compareTargets(a.target, b.target));
}

export async function shadowHistory(fromMs: number, toMs: number): Promise<ShadowSample[]> {
  try {
    return await readShadowHistory(etcdClient(), etcdPrefix(), fromMs, toMs);
  } catch (e) {
    throw toEtcdError(e, "read shadow history");
  }
}
