import "server-only";
// GET /api/v1/scheduler/diff (console-api.md "Time"; "The decision journal"): two moments
// of the fleet compared table by table, executor by executor, policy by policy, plus the
// leader and the §6.2 shadow outcomes. A side the decision journal covers is read from it
// (./diff-journal.ts: an evaluation the live plan made, its revision and clock); any other
// is re-planned as a page pinned there is (each at its own revision's time). Either way a
// side is the pinned plan at its `revision` and `now_ms`, and names its `verdict_basis`.
import { deriveTable } from "@/lib/planner/derived";
import { compareTargets } from "@/lib/planner/order";
import { SHADOW_OUTCOMES } from "@/lib/planner/shadow";
import type { DiffQuery, DiffResponse, ExecutorState } from "@/lib/schema/api/diff";
import type { OutcomeCounts } from "@/lib/schema/api/shadow";
import { verdictKey, type VerdictKey } from "@/lib/journal/entry";
import type { Moment, JournalMoment } from "@/lib/journal/moment";
import { pingEtcd } from "@/lib/live/etcd-ping";
import { etcdClient, etcdPrefix } from "@/lib/etcd/client";
import { journalMoments } from "./diff-journal";
import { fleetView, type FleetView } from "@/lib/live/fleet-view";
import { shadowFor, type ShadowPlanned } from "@/lib/live/plan";
import type { HistoryStart } from "@/lib/schema/api/revisions";
import { historyStartOf } from "@/lib/live/history-start";
import { revisionClock } from "@/lib/live/revision-clock";

type TableFacts = {
  class: DiffResponse["tables"]["class_changed"][number]["before"];
  verdict: VerdictKey;
  pending: boolean;
};

/** One side as the comparison needs it, however it was reached. */
interface SideFacts {
  side: DiffResponse["from"];
  view: FleetView;
  tables: Map<string, TableFacts>;
  outcomes: OutcomeCounts;
}

async function revisionOf(revision: number | undefined, atMs: number | undefined): Promise<number> {
  if (revision !== undefined) return revision;
  if (atMs !== undefined) return (await revisionClock().revisionAt(atMs)).revision;
  return pingEtcd(etcdClient(), etcdPrefix()); // fails within 1.5 s when etcd is away
}

/** The view at `revision`, answered as pinned: a live view there is evaluated at its own time too. */
async function viewAsPinned(revision: number): Promise<FleetView> {
  const view = await fleetView(revision);
  return view.pinned ? view : { ...view, pinned: true, live: false };
}

/** A side re-planned: the fleet read at `revision`, planned at its time (or at `nowMs`, as `?now_ms=` does). */
export async function replannedSide(revision: number, nowMs?: number): Promise<SideFacts> {
  const view = await viewAsPinned(revision);
  const planned = await shadowFor(view, nowMs);
  const tables = new Map<string, TableFacts>();
  for (const t of planned.plan.tables) {
    tables.set(t.target, {
      class: t.class,
      verdict: verdictKey(t.verdict),
      pending: t.pending_generations > 0,
    });
  }
  const time = planned.evaluation.revision_time;
  return {
    side: {
      revision: view.revision,
      at_ms: time?.at_ms ?? null,
      error_ms: time?.error_ms ?? null,
      basis: time?.basis ?? "unknown",
      now_ms: planned.now,
      verdict_basis: "fleet_plan",
    },
    view,
    tables,
    outcomes: outcomesOf(planned),
  };
}

function outcomesOf(planned: ShadowPlanned): OutcomeCounts {
  const out = {} as OutcomeCounts;
  for (const o of SHADOW_OUTCOMES) out[o] = planned.comparison.counts[o];
  return out;
}

/**
 * A side read from the journal: its tables' class and verdict are the journal's. The shadow
 * outcomes are counted by the §6.2 pass over the fleet read at the side's revision, at the
 * journal's clock: an entry keeps one outcome per table, while the fleet's counts overlap (a
 * table both missed and unplaced) and count phantom tasks, which are no table's.
 */
async function journalSide(m: JournalMoment): Promise<SideFacts> {
  const view = await viewAsPinned(m.revision);
  const [planned, time] = await Promise.all([shadowFor(view, m.now_ms), revisionClock().timeOf(m.revision)]);
  const tables = new Map<string, TableFacts>();
  for (const [target, s] of m.state) {
    const demand = view.tables.get(target);
    tables.set(target, {
      class: s.class as TableFacts["class"],
      verdict: verdictKey(s.verdict),
      pending: demand !== undefined && deriveTable(demand).pending_generations > 0,
    });
  }
  return {
    side: {
      revision: m.revision,
      at_ms: time.at_ms,
      error_ms: time.error_ms,
      basis: time.basis,
      now_ms: m.now_ms,
      verdict_basis: "journal",
    },
    view,
    tables,
    outcomes: outcomesOf(planned),
  };
}

function executorStates(view: FleetView): Map<string, ExecutorState> {
  return new Map(
    view.snapshot.executors.map((e) => [
      e.id,
      {
        kind: e.heartbeat.kind,
        version: e.heartbeat.version ?? null,
        draining: e.heartbeat.draining,
        kinds: [...e.heartbeat.kinds],
        slots_total: { ...e.heartbeat.slots_total } as Record<string, number>,
        bytes_total: e.heartbeat.bytes_total,
      },
    ]),
  );
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

function policyRevisions(view: FleetView): Map<string, number> {
  return new Map(view.snapshot.policies.map((p) => [p.target ?? "_default", p.modRevision]));
}

function leaderOf(view: FleetView) {
  const l = view.snapshot.leader?.record ?? null;
  return l ? { token: l.token, instance: l.instance, since_ms: l.since_ms } : null;
}

/** The two sides compared (whichever way each was reached). */
export function compareSides(a: SideFacts, b: SideFacts, historyStarts: HistoryStart | null = null): DiffResponse {
  const tables: DiffResponse["tables"] = { class_changed: [], verdict_changed: [], appeared: [], cleared: [] };
  const targets = [...new Set([...a.tables.keys(), ...b.tables.keys()])].sort(compareTargets);
  for (const target of targets) {
    const x = a.tables.get(target);
    const y = b.tables.get(target);
    if (!x?.pending && y?.pending) tables.appeared.push(target);
    if (x?.pending && !y?.pending) tables.cleared.push(target);
    if (!x || !y) continue;
    if (x.class !== y.class) tables.class_changed.push({ target, before: x.class, after: y.class });
    if (x.verdict.state !== y.verdict.state || x.verdict.code !== y.verdict.code)
      tables.verdict_changed.push({ target, before: x.verdict, after: y.verdict });
  }
  const ex = executorStates(a.view);
  const ey = executorStates(b.view);
  const executors: DiffResponse["executors"] = {
    added: [...ey.keys()].filter((id) => !ex.has(id)).sort(compareTargets),
    removed: [...ex.keys()].filter((id) => !ey.has(id)).sort(compareTargets),
    changed: [...ex]
      .filter(([id, s]) => ey.has(id) && !sameJson(s, ey.get(id)))
      .map(([id, s]) => ({ id, before: s, after: ey.get(id)! }))
      .sort((m, n) => compareTargets(m.id, n.id)),
  };
  const px = policyRevisions(a.view);
  const py = policyRevisions(b.view);
  const policies = {
    changed: [...new Set([...px.keys(), ...py.keys()])].filter((t) => px.get(t) !== py.get(t)).sort(compareTargets),
  };
  const leaderBefore = leaderOf(a.view);
  const leaderAfter = leaderOf(b.view);
  const journal = a.side.verdict_basis === "journal" && b.side.verdict_basis === "journal";
  return {
    from: a.side,
    to: b.side,
    verdict_basis: journal ? "journal" : "fleet_plan",
    history_starts: historyStarts,
    tables,
    executors,
    policies,
    leader: { before: leaderBefore, after: leaderAfter, changed: !sameJson(leaderBefore, leaderAfter) },
    shadow: { before: a.outcomes, after: b.outcomes },
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

/** The moment a side names: a revision, a time, or (no `to`) the current revision. */
async function momentOf(revision: number | undefined, atMs: number | undefined): Promise<Moment> {
  if (revision !== undefined) return { revision };
  if (atMs !== undefined) return { at_ms: atMs };
  return { revision: await pingEtcd(etcdClient(), etcdPrefix()) };
}

/**
 * A side named by a time before etcd's history starts where the history does (the revision
 * clock's 404 names it), and the answer says so: the comparison is still the nearest honest one.
 */
async function withinHistory(m: Moment): Promise<{ moment: Moment; starts: HistoryStart | null }> {
  if (!("at_ms" in m)) return { moment: m, starts: null };
  try {
    await revisionClock().revisionAt(m.at_ms);
    return { moment: m, starts: null };
  } catch (e) {
    const starts = historyStartOf(e, m.at_ms);
    if (starts === null) throw e;
    return { moment: { revision: starts.revision }, starts };
  }
}

export async function fleetDiff(q: DiffQuery): Promise<DiffResponse> {
  const asked = await Promise.all([momentOf(q.from, q.from_ms), momentOf(q.to, q.to_ms)]);
  const clamped = await Promise.all(asked.map(withinHistory));
  const moments = clamped.map((c) => c.moment);
  const found = await journalMoments(moments);
  const [a, b] = await Promise.all(
    moments.map(async (m, i) => {
      const j = found[i];
      if (j) return journalSide(j);
      return replannedSide("revision" in m ? m.revision : await revisionOf(undefined, m.at_ms));
    }),
  );
  return compareSides(a, b, clamped[0].starts ?? clamped[1].starts);
}
