import "server-only";
// GET /api/v1/scheduler/diff (console-api.md "Time"): two pinned views, each planned at
// its own revision's time (the same plans the pinned pages show), compared table by table,
// executor by executor, policy by policy, plus the leader and the §6.2 shadow outcomes.
import { compareTargets } from "@/lib/planner/order";
import { SHADOW_OUTCOMES } from "@/lib/planner/shadow";
import type { TablePlan } from "@/lib/planner/plan";
import type { DiffQuery, DiffResponse, ExecutorState } from "@/lib/schema/api/diff";
import type { OutcomeCounts } from "@/lib/schema/api/shadow";
import { currentRevision } from "@/lib/etcd/paged-read";
import { etcdClient, etcdPrefix } from "@/lib/etcd/client";
import { fleetView, type FleetView } from "./fleet";
import { shadowFor, type ShadowPlanned } from "./plan";
import { revisionClock } from "./revision-clock";

type VerdictKey = { state: "would_place" | "would_skip"; code: string | null };

const verdictKey = (t: TablePlan): VerdictKey => (t.verdict.state === "would_place" ? { state: "would_place", code: null } : { state: "would_skip", code: t.verdict.code });

async function revisionOf(revision: number | undefined, atMs: number | undefined): Promise<number> {
  if (revision !== undefined) return revision;
  if (atMs !== undefined) return (await revisionClock().revisionAt(atMs)).revision;
  return currentRevision(etcdClient(), etcdPrefix());
}

async function sideOf(revision: number): Promise<{ view: FleetView; planned: ShadowPlanned }> {
  const view = await fleetView(revision);
  // a live view at this revision is answered as pinned: it is evaluated at its own time too
  const pinned = view.pinned ? view : { ...view, pinned: true, live: false };
  return { view: pinned, planned: await shadowFor(pinned, undefined) };
}

function executorStates(view: FleetView): Map<string, ExecutorState> {
  return new Map(
    view.snapshot.executors.map((e) => [
      e.id,
      { kind: e.heartbeat.kind, version: e.heartbeat.version ?? null, draining: e.heartbeat.draining, kinds: [...e.heartbeat.kinds], slots_total: { ...e.heartbeat.slots_total } as Record<string, number>, bytes_total: e.heartbeat.bytes_total },
    ]),
  );
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

function policyRevisions(view: FleetView): Map<string, number> {
  return new Map(view.snapshot.policies.map((p) => [p.target ?? "_default", p.modRevision]));
}

function outcomesOf(p: ShadowPlanned): OutcomeCounts {
  const out = {} as OutcomeCounts;
  for (const o of SHADOW_OUTCOMES) out[o] = p.comparison.counts[o];
  return out;
}

function leaderOf(view: FleetView) {
  const l = view.snapshot.leader?.record ?? null;
  return l ? { token: l.token, instance: l.instance, since_ms: l.since_ms } : null;
}

export async function fleetDiff(q: DiffQuery): Promise<DiffResponse> {
  const [fromRevision, toRevision] = await Promise.all([revisionOf(q.from, q.from_ms), revisionOf(q.to, q.to_ms)]);
  const [a, b] = await Promise.all([sideOf(fromRevision), sideOf(toRevision)]);
  const before = a.planned.plan.byTarget;
  const after = b.planned.plan.byTarget;
  const tables: DiffResponse["tables"] = { class_changed: [], verdict_changed: [], appeared: [], cleared: [] };
  const targets = [...new Set([...before.keys(), ...after.keys()])].sort(compareTargets);
  for (const target of targets) {
    const x = before.get(target);
    const y = after.get(target);
    const pendingBefore = (x?.pending_generations ?? 0) > 0;
    const pendingAfter = (y?.pending_generations ?? 0) > 0;
    if (!pendingBefore && pendingAfter) tables.appeared.push(target);
    if (pendingBefore && !pendingAfter) tables.cleared.push(target);
    if (!x || !y) continue;
    if (x.class !== y.class) tables.class_changed.push({ target, before: x.class, after: y.class });
    const vx = verdictKey(x);
    const vy = verdictKey(y);
    if (vx.state !== vy.state || vx.code !== vy.code) tables.verdict_changed.push({ target, before: vx, after: vy });
  }
  const ex = executorStates(a.view);
  const ey = executorStates(b.view);
  const executors: DiffResponse["executors"] = {
    added: [...ey.keys()].filter((id) => !ex.has(id)).sort(compareTargets),
    removed: [...ex.keys()].filter((id) => !ey.has(id)).sort(compareTargets),
    changed: [...ex].filter(([id, s]) => ey.has(id) && !sameJson(s, ey.get(id))).map(([id, s]) => ({ id, before: s, after: ey.get(id)! })).sort((m, n) => compareTargets(m.id, n.id)),
  };
  const px = policyRevisions(a.view);
  const py = policyRevisions(b.view);
  const policies = { changed: [...new Set([...px.keys(), ...py.keys()])].filter((t) => px.get(t) !== py.get(t)).sort(compareTargets) };
  const leaderBefore = leaderOf(a.view);
  const leaderAfter = leaderOf(b.view);
  const side = (s: { view: FleetView; planned: ShadowPlanned }) => ({
    revision: s.view.revision,
    at_ms: s.planned.evaluation.revision_time?.at_ms ?? null,
    error_ms: s.planned.evaluation.revision_time?.error_ms ?? null,
    basis: s.planned.evaluation.revision_time?.basis ?? ("unknown" as const),
    now_ms: s.planned.now,
  });
  return {
    from: side(a),
    to: side(b),
    tables,
    executors,
    policies,
    leader: { before: leaderBefore, after: leaderAfter, changed: !sameJson(leaderBefore, leaderAfter) },
    shadow: { before: outcomesOf(a.planned), after: outcomesOf(b.planned) },
    counts: {
      class_changed: tables.class_changed.length,
      verdict_changed: tables.verdict_changed.length,
      appeared: tables.appeared.length,
      cleared: tables.cleared.length,
      executors_added: executors.added.length,
      executors_removed: executors.removed.length,
      executors_changed: executors.changed.length,
      policies_changed: policies.changed.length,
    },
  };
}
