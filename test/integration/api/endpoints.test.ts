// Every read endpoint of console-api.md against a real etcd seeded with the `incidents`
// scenario (lib/sim) and a real `next start`: exact fields, bad parameters, time travel,
// compaction, freshness through the watch, shadow history.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedEtcd } from "../../support/shared-etcd";
import type { Etcd3 } from "etcd3";
import { startApp, type RunningApp } from "../../support/app";
import { testPrefix } from "../../support/prefix";
import { seedScenarios, INCIDENT, INCIDENT_PENDING } from "@/lib/sim";
import { keys } from "@/lib/schema/keys";
import { z } from "zod";
import { assignmentsResponseSchema } from "@/lib/schema/api/assignments";
import { demandDetailSchema, demandListSchema } from "@/lib/schema/api/demand";
import { executorsResponseSchema } from "@/lib/schema/api/executors";
import { failuresResponseSchema } from "@/lib/schema/api/failures";
import { healthResponseSchema } from "@/lib/schema/api/health";
import { shadowHistoryResponseSchema, shadowResponseSchema } from "@/lib/schema/api/shadow";
import { skippedResponseSchema } from "@/lib/schema/api/skipped";
import { until } from "../../support/observe";
import { api, clientFor, errorOf, metricSum, okBody, q } from "./helpers";

const openApiDocument = z.looseObject({
  openapi: z.string(),
  paths: z.record(
    z.string(),
    z.looseObject({
      get: z
        .looseObject({ parameters: z.array(z.looseObject({ name: z.string(), schema: z.unknown() })).optional() })
        .optional(),
    }),
  ),
});

const GiB = 1024 ** 3;
let client: Etcd3;
let app: RunningApp;
let prefix: string;
let NOW: number;
let seededRevision: number;

beforeAll(async () => {
  const endpoints = sharedEtcd();
  client = clientFor(endpoints);
  prefix = testPrefix("api-endpoints");
  NOW = Date.now();
  const seeded = await seedScenarios(client, ["incidents"], { prefix, now: NOW, leaseTtlSec: 3600 });
  seededRevision = seeded.incidents.revision;
  app = await startApp({
    ETCD_ENDPOINTS: endpoints,
    ETCD_PREFIX: prefix,
    CONSOLE_SHADOW_SAMPLE_MS: "500",
    CONSOLE_SAMPLER_TTL_SECS: "5",
  });
});

afterAll(async () => {
  await app?.stop();
  client?.close();
});

describe("demand", () => {
  it("lists the incident tables in planner order with counts and skips", async () => {
    const body = await okBody(
      app.url,
      `/api/v1/scheduler/demand${q({ now_ms: NOW, include_idle: true, limit: 50 })}`,
      demandListSchema,
    );
    expect(body.revision).toBeGreaterThanOrEqual(seededRevision);
    expect(body.now_ms).toBe(NOW);
    // 8 tables with demand + the table whose only event has an unknown version (§3.6)
    expect(body.total_tables).toBe(9);
    expect(body.tables_with_pending).toBe(8);
    expect(body.tables.map((t) => t.target).sort()).toEqual(
      [...Object.keys(INCIDENT_PENDING), INCIDENT.futureVersionTarget].sort(),
    );
    expect(body.skipped).toEqual({ total: 3, by_reason: { unknown_version: 1, bad_key: 1, bad_json: 1 } });
    expect(body.counts.by_class.idle).toBe(1);
    expect(body.counts.by_backlog).toEqual({ ok: 9, warn: 0, critical: 0 });
    expect(body.next_cursor).toBeNull();
    expect(body.snapshot.live).toBe(true);
    const byTarget = new Map(body.tables.map((t) => [t.target, t]));
    for (const [target, pending] of Object.entries(INCIDENT_PENDING))
      expect(byTarget.get(target)?.pending_generations).toBe(pending);
    const idle = byTarget.get(INCIDENT.futureVersionTarget);
    expect(idle).toMatchObject({
      class: "idle",
      class_rank: 6,
      pending_generations: 0,
      shards: 0,
      verdict: { state: "would_skip", code: "no_demand" },
    });
    // planner order: class rank never decreases down the list
    const ranks = body.tables.map((t) => t.class_rank);
    expect([...ranks].sort((a, b) => a - b)).toEqual(ranks);
  });

  it("without include_idle hides idle tables, and filters by class, backlog and substring", async () => {
    const all = await okBody(app.url, `/api/v1/scheduler/demand${q({ now_ms: NOW })}`, demandListSchema);
    expect(all.tables).toHaveLength(8);
    expect(all.matched).toBe(8);
    const idle = await okBody(
      app.url,
      `/api/v1/scheduler/demand${q({ now_ms: NOW, class: ["idle"] })}`,
      demandListSchema,
    );
    expect(idle.tables.map((t) => t.target)).toEqual([INCIDENT.futureVersionTarget]);
    const sub = await okBody(app.url, `/api/v1/scheduler/demand${q({ now_ms: NOW, q: "BROKEN" })}`, demandListSchema);
    expect(sub.tables.map((t) => t.target).sort()).toEqual([INCIDENT.brokenStore, INCIDENT.brokenStoreRepeat]);
    const warn = await okBody(
      app.url,
      `/api/v1/scheduler/demand${q({ now_ms: NOW, backlog: ["warn", "critical"] })}`,
      demandListSchema,
    );
    expect(warn.tables).toEqual([]);
    const byPending = await okBody(
      app.url,
      `/api/v1/scheduler/demand${q({ now_ms: NOW, sort: "pending" })}`,
      demandListSchema,
    );
    const pendings = byPending.tables.map((t) => t.pending_generations);
    expect(pendings).toEqual([...pendings].sort((a, b) => b - a));
    const byTarget = await okBody(
      app.url,
      `/api/v1/scheduler/demand${q({ now_ms: NOW, sort: "target", order: "desc" })}`,
      demandListSchema,
    );
    const names = byTarget.tables.map((t) => t.target);
    expect(names).toEqual([...names].sort().reverse());
  });

  it("pages with a cursor that pins revision and now", async () => {
    const first = await okBody(app.url, `/api/v1/scheduler/demand${q({ now_ms: NOW, limit: 3 })}`, demandListSchema);
    expect(first.tables).toHaveLength(3);
    const seen = first.tables.map((t) => t.target);
    let cursor = first.next_cursor;
    while (cursor) {
      const page = await okBody(app.url, `/api/v1/scheduler/demand${q({ limit: 3, cursor })}`, demandListSchema);
      expect(page.revision).toBe(first.revision);
      expect(page.now_ms).toBe(NOW);
      seen.push(...page.tables.map((t) => t.target));
      cursor = page.next_cursor;
    }
    const whole = await okBody(
      app.url,
      `/api/v1/scheduler/demand${q({ now_ms: NOW, limit: 100, revision: first.revision })}`,
      demandListSchema,
    );
    expect(seen).toEqual(whole.tables.map((t) => t.target));
    const replay = await errorOf(
      app.url,
      `/api/v1/scheduler/demand${q({ limit: 3, cursor: first.next_cursor ?? undefined, sort: "target" })}`,
    );
    expect(replay.status).toBe(400);
    expect(replay.error.code).toBe("invalid_query");
  });

  it("a shard whose writer kept no time for its oldest pending generation: the wait is a lower bound", async () => {
    const t = (
      await okBody(
        app.url,
        `/api/v1/scheduler/demand${q({ target: INCIDENT.catchingUpTarget, now_ms: NOW })}`,
        demandDetailSchema,
      )
    ).table;
    // 30 pending after 500 merged, flushed a minute apart from 2 h ago; 501's time is lost, 502's is the oldest kept
    expect(t.shards[0]).toMatchObject({ pending: 30, age_bound: "upper", sealed_times_kept: 29 });
    expect(t.shards[0].oldest_pending_ms).toBe(NOW - 2 * 3_600_000 + 2 * 60_000);
    expect(t.age_bound).toBe("upper");
    expect(t.wait_ms).toBe(2 * 3_600_000 - 2 * 60_000);
  });

  it("details a merging table: shards, progress reported with its work report, execution lock", async () => {
    const t = (
      await okBody(
        app.url,
        `/api/v1/scheduler/demand${q({ target: INCIDENT.mergingTarget, now_ms: NOW })}`,
        demandDetailSchema,
      )
    ).table;
    expect(t.target).toBe(INCIDENT.mergingTarget);
    expect(t.pending_generations).toBe(40);
    expect(t.shards).toHaveLength(1);
    expect(t.shards[0]).toMatchObject({
      sealed: { value: 540, epoch: 1 },
      merged: { value: 500, epoch: 1 },
      pending: 40,
      age_bound: "exact",
      source: "writer",
      sealed_times_kept: 40,
    });
    expect(t.shards[0].oldest_pending_ms).toBe(NOW - 2 * 3_600_000 + 60_000);
    expect(t.shards[0].mod_revision).toBeGreaterThan(0);
    expect(t.legacy.progress).toMatchObject({
      status: "reported",
      execution_id: INCIDENT.mergingExecutionId,
      sequence: 12,
      stalled: false,
      idle_timeout_ms: 600_000,
    });
    expect(t.legacy.progress.work_report).toMatchObject({ sequence: 12, generations_done: 12, generations_total: 40 });
    expect(t.legacy.progress.unchanged_for_ms).toBeGreaterThanOrEqual(0);
    expect(t.legacy.target_lock).toMatchObject({
      value: `merge-execution:${INCIDENT.mergingExecutionId}`,
      holder: "execution",
      leased: false,
    });
    expect(t.legacy.execution).toMatchObject({ id: INCIDENT.mergingExecutionId, phase: "running" });
    expect(t.score_breakdown).toMatchObject({ min_generations: 8, critical_generations: 256, max_age_secs: 3600 });
    expect(t.units.map((u) => u.kind)).toContain("merge_wal");
    expect(t.policy.effective).toMatchObject({ merge: { min_generations: 8 } });
    expect(t.policy.sources).toMatchObject({ builtin: true, default: false, table: false });
    expect(t.cache).toBeNull();
  });

  it("details the legacy reasons a table is held back", async () => {
    const stalled = await okBody(
      app.url,
      `/api/v1/scheduler/demand${q({ target: INCIDENT.stalledTarget, now_ms: NOW })}`,
      demandDetailSchema,
    );
    expect(stalled.table.legacy.progress).toMatchObject({
      status: "progress_details_unavailable",
      execution_id: INCIDENT.stalledExecutionId,
      sequence: null,
      work_report: null,
    });
    const prepared = await okBody(
      app.url,
      `/api/v1/scheduler/demand${q({ target: INCIDENT.preparedTarget, now_ms: NOW })}`,
      demandDetailSchema,
    );
    expect(prepared.table.legacy.eligibility?.code).toBe("yield_to_prepared_commit");
    const locked = await okBody(
      app.url,
      `/api/v1/scheduler/demand${q({ target: INCIDENT.lockedTarget, now_ms: NOW })}`,
      demandDetailSchema,
    );
    expect(locked.table.legacy.eligibility?.code).toBe("ownership_blocked");
    expect(locked.table.legacy.target_lock).toMatchObject({ value: INCIDENT.lockToken, holder: "claim", leased: true });
    const broken = await okBody(
      app.url,
      `/api/v1/scheduler/demand${q({ target: INCIDENT.brokenStore, now_ms: NOW })}`,
      demandDetailSchema,
    );
    const legacy = broken.table.legacy;
    expect(legacy.failures.map((f) => [f.endpoint, f.class, f.needs_attention])).toEqual([
      ["http://worker-1.lake.internal:8080", "data_or_configuration", true],
      ["master:compact", "retryable", false],
    ]);
    expect(legacy.cooldowns.map((c) => [c.kind, c.cooling])).toEqual([
      ["compact", true],
      ["index_id", false],
    ]);
    expect(broken.table.why_not.length).toBeGreaterThan(0);
    expect(broken.table.verdict.state).toBe("would_skip");
  });

  it("answers 404 for a table with neither events nor a cache row", async () => {
    const { status, error } = await errorOf(app.url, `/api/v1/scheduler/demand${q({ target: "no/such/table" })}`);
    expect(status).toBe(404);
    expect(error.code).toBe("not_found");
  });
});

describe("executors, assignments, failures, skipped, shadow", () => {
  it("executors: the draining worker and the orphan row from an assignment without heartbeat", async () => {
    const body = await okBody(app.url, "/api/v1/scheduler/executors", executorsResponseSchema);
    const byId = new Map(body.executors.map((e) => [e.id, e]));
    expect(byId.get(INCIDENT.drainingExecutor)).toMatchObject({
      kind: "worker",
      draining: true,
      orphan: false,
      slots_total: { merge_wal: 2 },
      slots_free: { merge_wal: 2 },
      bytes_total: 4 * GiB,
      bytes_reserved: 0,
      bytes_free: 4 * GiB,
      bytes_free_sample: Math.floor(4 * GiB * 0.6),
      assignments: 0,
    });
    expect(byId.get(INCIDENT.orphanExecutor)).toMatchObject({
      // the master's fold (§5.2): an orphan row is draining too; pages say "orphan" (console-api.md third version)
      kind: "resident_master",
      draining: true,
      orphan: true,
      heartbeat_ms: null,
      heartbeat_age_ms: null,
      executions: [],
      slots_reserved: { merge_wal: 1 },
      bytes_reserved: GiB,
      bytes_total: 0,
      assignments: 1,
    });
    expect(body.totals).toEqual({
      executors: 1,
      draining: 1,
      orphans: 1,
      unbudgeted: 0,
      slots_free: {},
      bytes_free: 0,
      bytes_free_excluding_shadow: 0,
      bytes_total: 0,
      overcommitted: 0,
      // nothing accepts work: the one headroom of the fleet is empty too
      slots: {},
      bytes: { total: 0, reserved: 0, shadow: 0, free: 0 },
    });
    // the orphan's one headroom: its assignment reserved, nothing free
    expect(byId.get(INCIDENT.orphanExecutor)?.slots).toEqual({
      merge_wal: { total: 0, reserved: 1, shadow: 0, free: 0, legacy_running: 0 },
    });
  });

  it("assignments: bind age and overdue at now_ms", async () => {
    const body = await okBody(app.url, `/api/v1/scheduler/assignments${q({ now_ms: NOW })}`, assignmentsResponseSchema);
    expect(body.assignments).toEqual([
      {
        unit_id: INCIDENT.orphanUnitId,
        kind: "merge_wal",
        target: INCIDENT.orphanTarget,
        executor: INCIDENT.orphanExecutor,
        state: "assigned",
        reserved_slots: { merge_wal: 1 },
        reserved_bytes: GiB,
        created_ms: NOW - 300_000,
        bind_deadline_ms: NOW - 270_000,
        age_ms: 300_000,
        overdue: true,
        overdue_ms: 270_000,
      },
    ]);
  });

  it("failures: ledger needs-attention first, cooldown windows, filters", async () => {
    const body = await okBody(app.url, `/api/v1/scheduler/failures${q({ now_ms: NOW })}`, failuresResponseSchema);
    expect(
      body.failures.map((f) => [f.target, f.endpoint, f.consecutive_attempts, f.needs_attention, f.corrected]),
    ).toEqual([
      [INCIDENT.brokenStore, "http://worker-1.lake.internal:8080", 3, true, false],
      [INCIDENT.brokenStoreRepeat, "http://worker-1.lake.internal:8080", 16, true, false],
      [INCIDENT.brokenStore, "master:compact", 5, false, false],
    ]);
    expect(body.failures[2]).toMatchObject({ next_retry_ms: NOW + 90_000, retry_in_ms: 90_000, class: "retryable" });
    expect(body.cooldowns.map((c) => [c.kind, c.target, c.failures, c.cooling])).toEqual([
      ["repair", INCIDENT.brokenStoreRepeat, 3, true],
      ["compact", INCIDENT.brokenStore, 5, true],
      ["index_id", INCIDENT.brokenStore, 2, false],
    ]);
    const attention = await okBody(
      app.url,
      `/api/v1/scheduler/failures${q({ now_ms: NOW, needs_attention: false })}`,
      failuresResponseSchema,
    );
    expect(attention.failures.map((f) => f.endpoint)).toEqual(["master:compact"]);
    const one = await okBody(
      app.url,
      `/api/v1/scheduler/failures${q({ now_ms: NOW, target: INCIDENT.brokenStoreRepeat })}`,
      failuresResponseSchema,
    );
    expect(one.failures).toHaveLength(1);
    expect(one.cooldowns).toHaveLength(1);
  });

  it("skipped: each bad record with key, family and reason", async () => {
    const body = await okBody(app.url, "/api/v1/scheduler/skipped", skippedResponseSchema);
    expect(body.skipped.map((s) => [s.family, s.reason]).sort()).toEqual([
      ["demand-events", "bad_json"],
      ["demand-events", "bad_key"],
      ["demand-events", "unknown_version"],
    ]);
    expect(body.skipped.find((s) => s.reason === "bad_key")?.key).toBe(
      `${prefix}/demand-events/${INCIDENT.badHexKeySuffix}`,
    );
  });

  it("shadow: phantom tasks and the console's placements beside the master's (none recorded)", async () => {
    const body = await okBody(app.url, `/api/v1/scheduler/shadow${q({ now_ms: NOW })}`, shadowResponseSchema);
    expect(body.outcomes.phantom_task).toBe(2);
    expect(body.tables.phantom_task).toEqual([INCIDENT.phantomQueued, INCIDENT.phantomRunning]);
    // incident/merging's and incident/stalled-merge's MergeWal tasks are in running/ (the master claimed them
    // for exec-0001 and exec-0002): the running tables, neither a discovery miss
    expect(body.tables.running).toEqual([INCIDENT.mergingTarget, INCIDENT.stalledTarget]);
    expect(body.outcomes.running).toBe(2);
    expect(body.outcomes.queued_only).toBe(0);
    expect(body.tables.discovery_miss).not.toContain(INCIDENT.mergingTarget);
    expect(body.tables.discovery_miss).not.toContain(INCIDENT.stalledTarget);
    expect(body.disagreements).toBe(body.outcomes.discovery_miss + 2);
    // no live executor can take a merge (one draining, one orphan): every due table is a placement gap
    expect(body.placements.console).toEqual([]);
    expect(body.outcomes.placement_gap).toBe(body.outcomes.discovery_miss + body.outcomes.running);
    expect(body.placements.master).toEqual([]);
    expect(body.placements.agree).toBe(true);
  });

  it("shadow history: the elected sampler records samples durably", async () => {
    const sampled = await until(
      async () => {
        const history = await okBody(
          app.url,
          `/api/v1/scheduler/shadow/history${q({ from_ms: NOW - 60_000 })}`,
          shadowHistoryResponseSchema,
        );
        return history.samples.length >= 2 ? history.samples : undefined;
      },
      30_000,
      250,
    );
    expect(sampled, "two samples").not.toBeNull();
    const samples = sampled!.value;
    expect(samples[0].outcomes.phantom_task).toBe(2);
    expect(samples[0].at_ms).toBeLessThan(samples[1].at_ms);
    const stored = await client.getAll().prefix(`${prefix}/console/shadow-history/`).keys();
    expect(stored.length).toBeGreaterThanOrEqual(2);
    expect(await client.get(`${prefix}/console/sampler`).string()).not.toBeNull();
  });
});

describe("errors, time travel and freshness", () => {
  it("rejects every bad parameter with invalid_query and keeps serving", async () => {
    const bad = [
      q({ limit: 0 }),
      q({ limit: 2001 }),
      q({ limit: "ten" }),
      q({ class: ["urgent"] }),
      q({ backlog: ["high"] }),
      q({ revision: "abc" }),
      q({ revision: 0 }),
      q({ now_ms: "soon" }),
      q({ sort: "random" }),
      q({ target: "" }),
      q({ target: "t".repeat(513) }),
      q({ cursor: "not-a-cursor" }),
    ];
    for (const query of bad) {
      const res = await errorOf(app.url, `/api/v1/scheduler/demand${query}`);
      expect(res.status, query).toBe(400);
      expect(res.error.code).toBe("invalid_query");
      expect(res.error.issues?.length).toBeGreaterThan(0);
    }
    expect((await api(app.url, `/api/v1/scheduler/failures${q({ needs_attention: "maybe" })}`)).status).toBe(400);
    expect((await api(app.url, `/api/v1/scheduler/executors${q({ revision: "-1" })}`)).status).toBe(400);
    expect((await api(app.url, `/api/v1/scheduler/demand${q({ target: "t".repeat(512) })}`)).status).toBe(404);
    expect((await api(app.url, "/api/v1/scheduler/demand")).status).toBe(200);
  });

  it("time travel: ?revision= shows the fleet as it was", async () => {
    const before = (await okBody(app.url, "/api/v1/scheduler/demand", demandListSchema)).revision;
    await client.put(keys.executor(prefix, "late-worker")).value(
      JSON.stringify({
        v: 1,
        kind: "worker",
        instance: "late-worker",
        kinds: ["merge_wal"],
        slots_total: { merge_wal: 1 },
        bytes_total: 0,
        draining: false,
        heartbeat_ms: NOW,
      }),
    );
    const seen = await until(
      async () => {
        const now = await okBody(app.url, "/api/v1/scheduler/executors", executorsResponseSchema);
        return now.executors.some((e) => e.id === "late-worker") ? true : undefined;
      },
      30_000,
      50,
    );
    expect(seen, "the new executor is served live").not.toBeNull();
    const then = await okBody(
      app.url,
      `/api/v1/scheduler/executors${q({ revision: before })}`,
      executorsResponseSchema,
    );
    expect(then.revision).toBe(before);
    expect(then.snapshot.pinned).toBe(true);
    expect(then.executors.some((e) => e.id === "late-worker")).toBe(false);
    await client.delete().key(keys.executor(prefix, "late-worker"));
  });

  it("freshness: a demand event is visible in the detail within 1 s, without a full re-read", async () => {
    await api(app.url, "/api/v1/scheduler/demand"); // cache warm and live
    const fullReads = await metricSum(app.url, "console_snapshot_full_reads_total");
    const target = "fresh/table-1";
    const written = Date.now();
    await client.put(keys.demandEvent(prefix, target, "s1")).value(
      JSON.stringify({
        v: 1,
        shard: "s1",
        sealed_through: 30,
        merged_through: 10,
        flushed_at_ms: NOW - 1000,
        writer_epoch: 1,
        source: "writer",
      }),
    );
    const visible = await until(
      async () => {
        const res = await api(app.url, `/api/v1/scheduler/demand${q({ target, now_ms: NOW })}`);
        return res.status === 200 ? demandDetailSchema.parse(res.body) : undefined;
      },
      1000,
      20,
    );
    expect(visible, "visible within 1 s").not.toBeNull();
    expect(Date.now() - written).toBeLessThan(1000);
    expect(visible!.value.table.pending_generations).toBe(20);
    expect(await metricSum(app.url, "console_snapshot_full_reads_total")).toBe(fullReads);
    expect(await metricSum(app.url, "console_watch_events_total")).toBeGreaterThan(0);
    expect(await metricSum(app.url, "console_table_refolds_total")).toBeGreaterThan(0);
  });
  // a compacted revision's 410 is checked in reliability/cluster.test.ts on its own etcd: compacting this
  // shared one would fail every file that reads an old revision at the same moment (the journal's history did)
});

describe("health, metrics, openapi", () => {
  it("health: endpoints, leader-less incidents, live snapshot", async () => {
    const body = await okBody(app.url, "/api/v1/health", healthResponseSchema);
    expect(body.status).toBe("ok");
    expect(body.endpoints).toHaveLength(1);
    expect(body.endpoints[0].ok).toBe(true);
    expect(body.leader).toBeNull();
    expect(body.snapshot.live).toBe(true);
    expect(body.snapshot.revision).toBeGreaterThan(0);
  });

  it("health: pollers asking at once share one probe round (etcd is asked once, not once per tab)", async () => {
    const rounds = async () =>
      Number(
        (await (await fetch(`${app.url}/api/metrics`)).text()).match(/^console_health_probe_rounds_total (\d+)/m)?.[1],
      );
    const before = await rounds();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => okBody(app.url, "/api/v1/health", healthResponseSchema)),
    );
    expect(answers.every((a) => a.endpoints[0].ok)).toBe(true);
    // one round, or two when the five straddle the end of a shared second
    expect((await rounds()) - before).toBeLessThanOrEqual(2);
  });

  it("metrics: Prometheus text with request latency by route and outcome gauges", async () => {
    const res = await fetch(`${app.url}/api/metrics`);
    const text = await res.text();
    expect(res.headers.get("content-type")).toContain("text/plain");
    expect(text).toContain('console_request_duration_seconds_count{route="/api/v1/scheduler/demand"');
    expect(text).toContain('console_shadow_outcome{outcome="phantom_task"} 2');
    expect(text).toContain("console_snapshot_read_seconds_bucket");
  });

  it("openapi.json: OpenAPI 3.1 from the zod schemas", async () => {
    const body = await okBody(app.url, "/api/v1/openapi.json", openApiDocument);
    expect(body.openapi).toBe("3.1.0");
    expect(Object.keys(body.paths)).toEqual(
      expect.arrayContaining(["/api/v1/scheduler/demand", "/api/v1/scheduler/shadow/history", "/api/v1/health"]),
    );
    const limit = body.paths["/api/v1/scheduler/demand"].get?.parameters?.find((p) => p.name === "limit");
    expect(limit?.schema).toMatchObject({ type: "string", pattern: "^\\d+$" });
  });

  it("logs one JSON line per request without tokens", () => {
    const lines = app
      .logs()
      .split("\n")
      .filter((l) => l.startsWith("{") && l.includes('"msg":"request"'));
    expect(lines.length).toBeGreaterThan(20);
    const line = JSON.parse(lines[0]);
    expect(Object.keys(line)).toEqual(expect.arrayContaining(["method", "route", "status", "ms", "request_id"]));
  });
});
