// console-api.md "Time": a world whose records are dated two hours ago, written now. Pinned
// at its revision, every number is the one the planner gives at that revision's own time
// (estimated from the records: heartbeats, leader, flush times), not at today's clock; the
// table page, the list, the diff and the history agree for the same revision.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedEtcd } from "../../support/shared-etcd";
import type { Etcd3 } from "etcd3";
import { testPrefix } from "../../support/prefix";
import { INCIDENT, INCIDENT_PENDING, publishDemandEvent } from "@/lib/sim";
import { writerEvent } from "@/lib/planner/join";
import { planFleet } from "@/lib/planner/plan";
import { createFleetReader } from "@/lib/snapshot/read";
import { foldSnapshot } from "@/lib/snapshot/demand-index";
import { plannerFleet } from "@/lib/snapshot/planner-input";
import type { ExecutionProgress } from "@/lib/planner/plan/input";
import { demandQuerySchema } from "@/lib/schema/api/demand";
import { historyQuerySchema, historyResponseSchema } from "@/lib/schema/api/history";
import { diffQuerySchema, diffResponseSchema } from "@/lib/schema/api/diff";
import { revisionTimeSchema } from "@/lib/schema/api/revisions";
import { clientFor, failure, HOUR_MS, seedDatedWorld, useConsoleEnv } from "./world";

let client: Etcd3;
let prefix: string;
let t0: number;
let seeded: number;
let latest: number;
const api = () => ({
  list: import("@/lib/scheduler/demand").then((m) => m.demandList),
  detail: import("@/lib/scheduler/demand-detail").then((m) => m.demandDetail),
  clock: import("@/lib/time/revisions").then((m) => m.revisionTimeOf),
  history: import("@/lib/time/history").then((m) => m.demandHistory),
  diff: import("@/lib/time/diff").then((m) => m.fleetDiff),
});
const NEW_TABLE = "time/appeared-later";

beforeAll(async () => {
  const endpoints = sharedEtcd();
  prefix = testPrefix("time-as-of-then");
  useConsoleEnv(endpoints, prefix);
  client = clientFor(endpoints);
  t0 = Date.now() - 2 * HOUR_MS;
  seeded = await seedDatedWorld(client, prefix, t0);
  // today: one new table, written at the real clock
  await publishDemandEvent(
    client,
    prefix,
    NEW_TABLE,
    writerEvent({ shard: "s1", sealed: 30, bytes: 30_000, epoch: 1, flushedAtMs: Date.now() }),
  );
  latest = (await client.get(`${prefix}/leader`).exec()).header.revision as unknown as number;
  latest = Number(latest);
});

afterAll(() => client?.close());

describe("the revision clock on a world dated two hours ago", () => {
  it("dates the seeded revision from its records, with an honest error", async () => {
    const t = revisionTimeSchema.parse(await (await api().clock)({ revision: seeded }));
    expect(t.basis).toBe("record_timestamps");
    // newest stamp t0 (heartbeats), oldest heartbeat + its 30 s lease TTL: [t0, t0 + 30 s]
    expect(t.at_ms).toBe(t0 + 15_000);
    expect(t.error_ms).toBe(15_000);
  });

  it("finds the seeded revision by wall time, and answers 400 for the future and 404 before history", async () => {
    const clock = await api().clock;
    const found = await clock({ at_ms: t0 + 60_000 });
    expect(found.revision).toBe(seeded);
    expect(found.at_ms).toBe(t0 + 15_000);
    const future = await failure(clock({ at_ms: Date.now() + 3_600_000 }));
    expect(future?.status).toBe(400);
    expect(future?.body.error.code).toBe("invalid_query");
    const before = await failure(clock({ at_ms: t0 - 24 * HOUR_MS }));
    expect(before?.status).toBe(404);
    expect(before?.body.error.code).toBe("not_found");
    const ahead = await failure(clock({ revision: latest + 1000 }));
    expect(ahead?.status).toBe(400);
  });
});

describe("a pinned read is evaluated as of its own time", () => {
  it("every table of the list is what the planner gives at the revision's time", async () => {
    const list = await (
      await api().list
    )(demandQuerySchema.parse({ revision: String(seeded), include_idle: "true", limit: "2000" }));
    expect(list.now_basis).toBe("revision_time");
    expect(list.revision_time).toMatchObject({ revision: seeded, basis: "record_timestamps", at_ms: t0 + 15_000 });
    expect(list.now_ms).toBe(t0 + 15_000);
    // the planner on the same revision, read independently, at the same wall time; each
    // running merge's last progress by hand from etcd: the seed wrote each key once, so it is
    // the key's creation (a progress record's, else the execution record's), on the revision clock
    const snapshot = await createFleetReader({ client, prefix }).readFleet({ revision: seeded });
    const clock = await api().clock;
    const progress = new Map<string, ExecutionProgress>();
    for (const e of snapshot.mergeExecutions) {
      if (!["reserved", "running", "uncertain", "recovering"].includes(e.execution.phase)) continue;
      const p = snapshot.mergeProgress.find((x) => x.executionId === e.execution.id);
      const created = Number((await client.get(p ? p.key : e.key).exec()).kvs[0].create_revision);
      progress.set(e.execution.id, {
        sequence: p?.progress.sequence ?? null,
        last_progress_revision: created,
        last_progress_ms: revisionTimeSchema.parse(await clock({ revision: created })).at_ms,
        last_progress_bound: "exact",
      });
    }
    expect(progress.size).toBe(2); // incident/merging's, and incident/stalled-merge's that never reported progress
    const plan = planFleet(plannerFleet({ snapshot, tables: foldSnapshot(snapshot), progress }), t0 + 15_000);
    expect(list.tables).toHaveLength(plan.tables.length);
    for (const row of list.tables) {
      const t = plan.byTarget.get(row.target)!;
      expect({
        target: row.target,
        class: row.class,
        score: row.score,
        wait_ms: row.wait_ms,
        pending: row.pending_generations,
        verdict: row.verdict,
      }).toEqual({
        target: t.target,
        class: t.class,
        score: t.score,
        wait_ms: t.wait_ms,
        pending: t.pending_generations,
        verdict: t.verdict,
      });
    }
    // incident tables flushed one generation a minute from t0 − 2 h: waits read ~2 h then, not ~4 h
    const merging = list.tables.find((t) => t.target === INCIDENT.mergingTarget)!;
    expect(merging.pending_generations).toBe(INCIDENT_PENDING[INCIDENT.mergingTarget]);
    expect(merging.wait_ms).toBe(t0 + 15_000 - merging.oldest_pending_ms!);
    expect(merging.wait_ms!).toBeLessThan(2 * HOUR_MS);
    expect(merging.wait_ms!).toBeGreaterThan(2 * HOUR_MS - 2 * 60_000);
    // the same numbers by hand, from the seed alone (lib/sim/scenarios/incidents.ts, with its
    // `now` = t0): merged_through 500, sealed_through 500 + 40, generation g sealed at
    // t0 − 2 h + (g − 500) min. Pending: 540 − 500 = 40. The oldest pending generation, 501,
    // was sealed at t0 − 7,200,000 + 60,000 = t0 − 7,140,000 ms; at the revision's time
    // t0 + 15,000 (newest stamp t0, oldest heartbeat t0 + its 30 s TTL, midpoint) it has waited
    // 15,000 + 7,140,000 = 7,155,000 ms (1 h 59 min 15 s).
    expect(merging.pending_generations).toBe(40);
    expect(merging.oldest_pending_ms).toBe(t0 - 7_140_000);
    expect(merging.wait_ms).toBe(7_155_000);
  });

  it("`now_ms` wins (request), `now=server` evaluates today (server_clock), live reads say server_clock", async () => {
    const detail = await api().detail;
    const base = { target: INCIDENT.mergingTarget, revision: String(seeded) };
    const asked = await detail({
      ...demandQuerySchema.parse({ ...base, now_ms: String(t0) }),
      target: INCIDENT.mergingTarget,
    });
    expect(asked.now_basis).toBe("request");
    expect(asked.now_ms).toBe(t0);
    // by hand: at now_ms = t0 the oldest pending generation (sealed at t0 − 7,140,000, see
    // above) has waited exactly 7,140,000 ms (1 h 59 min)
    expect(asked.table.wait_ms).toBe(7_140_000);
    const today = await detail({
      ...demandQuerySchema.parse({ ...base, now: "server" }),
      target: INCIDENT.mergingTarget,
    });
    expect(today.now_basis).toBe("server_clock");
    expect(today.now_ms).toBeGreaterThan(Date.now() - 10_000);
    expect(today.table.wait_ms!).toBeGreaterThan(asked.table.wait_ms! + 2 * HOUR_MS - 60_000);
    const live = await detail({ ...demandQuerySchema.parse({ target: NEW_TABLE }), target: NEW_TABLE });
    expect(live.now_basis).toBe("server_clock");
    expect(live.revision_time).toBeNull();
    expect(() => demandQuerySchema.parse({ now: "yesterday" })).toThrow();
  });
});

describe("the table page, the history and the diff agree", () => {
  it("each history point is the pinned table page at that revision (placed, skipped, locked, idle)", async () => {
    const detail = await api().detail;
    const history = await api().history;
    const codes = new Set<string | null>();
    for (const target of [...Object.keys(INCIDENT_PENDING), INCIDENT.futureVersionTarget]) {
      const h = historyResponseSchema.parse(
        await history(historyQuerySchema.parse({ target, from_ms: String(t0 - HOUR_MS) })),
      );
      expect(h.points.length, target).toBeGreaterThan(0);
      // other suites compact the shared etcd: a cut may only lie below every point of this world
      if (h.compacted_before !== null)
        expect(h.compacted_before).toBeLessThanOrEqual(Math.min(...h.points.map((p) => p.revision)));
      for (const p of h.points) {
        const page = await detail({ ...demandQuerySchema.parse({ target, revision: String(p.revision) }), target });
        expect(p.at_ms).toBe(page.now_ms);
        const v = page.table.verdict;
        codes.add(p.verdict!.code);
        expect({
          target,
          pending: p.pending_generations,
          wait_ms: p.wait_ms,
          class: p.class,
          score: p.score,
          verdict: p.verdict,
        }).toEqual({
          target,
          pending: page.table.pending_generations,
          wait_ms: page.table.wait_ms,
          class: page.table.class,
          score: page.table.score,
          verdict: { state: v.state, code: v.state === "would_skip" ? v.code : null },
        });
      }
    }
    // the incidents cover placed tables and several skip reasons
    expect(codes.has(null)).toBe(true);
    expect(codes.size).toBeGreaterThan(2);
  });

  it("the diff from the dated revision to today: each side at its own time, the new table appeared", async () => {
    const diff = diffResponseSchema.parse(
      await (
        await api().diff
      )(diffQuerySchema.parse({ from: String(seeded), to: String(latest) })),
    );
    expect(diff.from).toMatchObject({ revision: seeded, at_ms: t0 + 15_000, now_ms: t0 + 15_000 });
    expect(diff.to.revision).toBe(latest);
    expect(diff.to.now_ms).toBeGreaterThan(Date.now() - 60_000);
    expect(diff.tables.appeared).toEqual([NEW_TABLE]);
    expect(diff.counts.appeared).toBe(1);
    const list = await (
      await api().list
    )(demandQuerySchema.parse({ revision: String(seeded), include_idle: "true", limit: "2000" }));
    const listed = new Map(list.tables.map((t) => [t.target, t]));
    for (const c of diff.tables.class_changed) expect(listed.get(c.target)?.class).toBe(c.before);
    const same = diffResponseSchema.parse(
      await (
        await api().diff
      )(diffQuerySchema.parse({ from: String(seeded), to: String(seeded) })),
    );
    expect(same.counts).toEqual({
      class_changed: 0,
      verdict_changed: 0,
      appeared: 0,
      cleared: 0,
      executors_added: 0,
      executors_removed: 0,
      executors_changed: 0,
      policies_changed: 0,
    });
  });
});
