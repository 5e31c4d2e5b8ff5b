import "server-only";
// GET /api/v1/scheduler/shadow (scheduler-model.md §6.2): the console's own shadow pass at
// one revision — the five outcomes, their tables, and its placements beside the master's
// recorded `state: shadow` rows. Plus the shadow history's read side (the sampler: ./sampling.ts).
import { compareTargets } from "@/lib/planner/order";
import { SHADOW_OUTCOMES } from "@/lib/planner/shadow";
import type { OutcomeCounts, ShadowResponse, ShadowSample } from "@/lib/schema/api/shadow";
import { etcdClient, etcdPrefix } from "@/lib/etcd/client";
import { toEtcdError } from "@/lib/etcd/errors";
import type { FleetView } from "@/lib/live/cache";
import { readShadowHistory } from "@/lib/live/sampler";
import { snapshotMeta } from "./meta";
import { shadowFor, type NowRequest } from "./plan";

export async function shadowResponse(requested: FleetView, nowMs: NowRequest): Promise<ShadowResponse> {
  const { comparison, pass, view, now, evaluation } = await shadowFor(requested, nowMs);
  const outcomes = {} as OutcomeCounts;
  const tables = {} as ShadowResponse["tables"];
  for (const o of SHADOW_OUTCOMES) {
    outcomes[o] = comparison.counts[o];
    tables[o] = comparison.targets[o];
  }
  const consoleRows = pass.placements.map((p) => ({ target: p.unit.target, executor: p.executor, reserved_bytes: p.reserved_bytes }));
  const masterRows = view.snapshot.assignments
    .filter((a) => a.assignment.state === "shadow")
    .map(({ assignment: a }) => ({ target: a.target, executor: a.executor, reserved_bytes: a.reserved_bytes, created_ms: a.created_ms }))
    .sort((a, b) => compareTargets(a.target, b.target) || compareTargets(a.executor, b.executor));
  const consoleBy = new Map(consoleRows.map((r) => [r.target, r.executor]));
  const masterBy = new Map(masterRows.map((r) => [r.target, r.executor]));
  const only_console = [...consoleBy.keys()].filter((t) => !masterBy.has(t)).sort(compareTargets);
  const only_master = [...masterBy.keys()].filter((t) => !consoleBy.has(t)).sort(compareTargets);
  const executor_differs = [...consoleBy].filter(([t, e]) => masterBy.has(t) && masterBy.get(t) !== e).map(([t]) => t).sort(compareTargets);
  return {
    ...snapshotMeta(view, evaluation),
    now_ms: now,
    outcomes,
    disagreements: comparison.disagreements,
    tables,
    placements: {
      console: consoleRows,
      master: masterRows,
      agree: only_console.length === 0 && only_master.length === 0 && executor_differs.length === 0,
      only_console,
      only_master,
      executor_differs,
    },
  };
}

export async function shadowHistory(fromMs: number, toMs: number): Promise<ShadowSample[]> {
  try {
    return await readShadowHistory(etcdClient(), etcdPrefix(), fromMs, toMs);
  } catch (e) {
    throw toEtcdError(e, "read shadow history");
  }
}
