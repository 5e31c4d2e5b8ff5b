// The write turn in the verdict, against a real etcd and `next start` (console-api.md
// "One answer on every page"): the demo's incident tables `incident/merging` (an execution
// running on worker-1 whose progress sequence climbs) and `incident/stalled-merge` (an
// execution that never reported progress) — exact codes, detail and words, the same answer
// in the list, the detail's legacy panel and the §7.1 progress view; the master's §6.2
// shadow rule keeps ignoring locks. Progress is dated from etcd's history by the revision
// clock (console-api.md fourth version), whose samples this test writes (the console's own
// sampler is off): the seed lies between two samples, so the clock dates it exactly.
import { demandDetailSchema, demandListSchema, type TableDetail, type TableSummary } from "@/lib/schema/api/demand";
import { shadowResponseSchema } from "@/lib/schema/api/shadow";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedEtcd } from "../../support/shared-etcd";
import { z } from "zod";
import type { Etcd3 } from "etcd3";
import { startApp, type RunningApp } from "../../support/app";
import { testPrefix } from "../../support/prefix";
import { seedScenarios, INCIDENT } from "@/lib/sim";
import { keys } from "@/lib/schema/keys";
import { clientFor, q, okBody } from "../api/helpers";
import { heartbeat, put } from "./records";
import { until } from "../../support/observe";
import { betweenSamples, writeClockSample } from "../../support/clock-samples";

const WORKER_URL = "http://worker-1.lake.internal:8080";
let client: Etcd3;
let app: RunningApp;
let prefix: string;
let NOW: number;
/** when the revision clock says the incidents were seeded (their progress record and executions created) */
let SEEDED_MS: number;

beforeAll(async () => {
  const endpoints = sharedEtcd();
  client = clientFor(endpoints);
  prefix = testPrefix("answer-write-turn");
  NOW = Date.now();
  await writeClockSample(client, prefix, NOW - 240_000);
  await seedScenarios(client, ["incidents"], { prefix, now: NOW, leaseTtlSec: 3600 });
  // a live worker-1 with room for every incident table, so the §6.2 rule places them all
  await put(client, keys.executor(prefix, "worker-1"), heartbeat("worker-1", { slots_total: { merge_wal: 8 } }));
  await writeClockSample(client, prefix, NOW - 120_000);
  SEEDED_MS = betweenSamples(NOW - 240_000, NOW - 120_000);
  app = await startApp({ ETCD_ENDPOINTS: endpoints, ETCD_PREFIX: prefix, CONSOLE_SHADOW_SAMPLER: "off" });
});

afterAll(async () => {
  await app?.stop();
  client?.close();
});

const detail = async (target: string, nowMs: number) =>
  (await okBody(app.url, `/api/v1/scheduler/demand${q({ target, now_ms: nowMs })}`, demandDetailSchema)).table;
/** The table's list row; a table missing from the list fails the test. */
const row = async (target: string, nowMs: number) => {
  const found = (
    await okBody(app.url, `/api/v1/scheduler/demand${q({ now_ms: nowMs, q: target })}`, demandListSchema)
  ).tables.find((t) => t.target === target);
  if (!found) throw new Error(`${target} is not in the demand list`);
  return found;
};
/** The skip verdict's code and message; a placed table fails the test. */
function skipOf(verdict: TableSummary["verdict"]): { code: string; message: string } {
  if (verdict.state !== "would_skip") throw new Error(`expected would_skip, got ${JSON.stringify(verdict)}`);
  return verdict;
}
/** `last_progress_ms` of a write-turn why-not's detail (the rest is compared whole below). */
const lastProgressMs = (w: TableDetail["why_not"][number]) =>
  z.object({ last_progress_ms: z.number() }).parse(w.detail).last_progress_ms;

describe("incident/merging: an execution running on worker-1 holds the write turn", () => {
  it("before the idle timeout: write_turn_held, advancing since its record was written, in the list, the legacy panel and §7.1 progress", async () => {
    const at = NOW + 60_000;
    const t = await detail(INCIDENT.mergingTarget, at);
    // the seeded running/ record of the table, read back from etcd
    const running = Object.values(await client.getAll().prefix(`${prefix}/running/`).strings())
      .map((v) => JSON.parse(v) as { id: string; target: string })
      .filter((task) => task.target === INCIDENT.mergingTarget);
    expect(running).toHaveLength(1);
    const mergingTaskId = running[0].id;
    // the one write-turn holder every surface names (console-api.md fourth version)
    expect(t.write_turn_holder).toEqual({
      type: "execution",
      execution_id: "exec-0001",
      executor: "worker-1",
      endpoint: WORKER_URL,
      phase: "running",
      progress: "advancing",
      sequence: 12,
    });
    expect(t.verdict).toEqual({
      state: "would_skip",
      code: "write_turn_held",
      message:
        `The write turn is held by execution exec-0001 (running on worker-1 (${WORKER_URL})): merge-progress sequence 12, ` +
        "advanced 4m 00s ago. A new merge_wal waits until it finishes.",
    });
    expect(t.why_not).toEqual([
      {
        code: "write_turn_held",
        message: skipOf(t.verdict).message,
        retryable: true,
        detail: {
          kind: "merge_wal",
          execution_id: "exec-0001",
          endpoint: WORKER_URL,
          instance: "worker-1",
          phase: "running",
          sequence: 12,
          progress: "advancing",
          last_progress_ms: SEEDED_MS,
          last_progress_bound: "exact",
          idle_timeout_secs: 600,
        },
      },
      // the legacy MergeWal task the master claimed for that execution is in running/ too
      {
        code: "already_running",
        message: `A legacy merge_wal task (${mergingTaskId}) is already running on this table.`,
        retryable: true,
        detail: { kind: "merge_wal", task_id: mergingTaskId },
      },
    ]);
    expect(t.execution).toEqual({
      id: "exec-0001",
      phase: "running",
      endpoint: WORKER_URL,
      progress: "advancing",
      sequence: 12,
    });
    expect(t.position).toBeNull();
    expect(t.eta).toBeNull();
    expect(t.legacy.target_lock).toMatchObject({
      value: "merge-execution:exec-0001",
      holder: "execution",
      execution_id: "exec-0001",
      leased: false,
    });
    expect(t.legacy.execution).toMatchObject({
      id: "exec-0001",
      endpoint: WORKER_URL,
      instance: "worker-1",
      phase: "running",
      maintenance: null,
      unfinished: true,
      holds_lock: true,
      idle_timeout_secs: 600,
      sequence: 12,
      progress: "advancing",
      last_progress_ms: SEEDED_MS,
      last_progress_bound: "exact",
      no_progress_for_ms: 240_000,
    });
    // the revision it names is the progress record's creation, read back from etcd
    const created = await client.get(keys.mergeProgress(prefix, INCIDENT.mergingExecutionId)).exec();
    expect(t.legacy.execution?.last_progress_revision).toBe(Number(created.kvs[0].create_revision));
    expect(t.legacy.progress).toMatchObject({
      status: "reported",
      sequence: 12,
      unchanged_since_ms: SEEDED_MS,
      unchanged_for_ms: 240_000,
      stalled: false,
    });
    expect((await row(INCIDENT.mergingTarget, at)).execution).toEqual(t.execution);
  });

  it("at the idle timeout: write_turn_stalled, not retryable, and legacy progress says stalled too", async () => {
    const at = SEEDED_MS + 600_000;
    const t = await detail(INCIDENT.mergingTarget, at);
    expect(t.verdict).toMatchObject({ state: "would_skip", code: "write_turn_stalled" });
    expect(skipOf(t.verdict).message).toBe(
      `The write turn is held by execution exec-0001 (running on worker-1 (${WORKER_URL})) but looks stalled: merge-progress sequence 12, ` +
        "not advanced for 10m 00s (idle timeout 10m 00s). Nothing new runs until it is reclaimed or finishes.",
    );
    expect(t.why_not[0]).toMatchObject({
      retryable: false,
      detail: { progress: "stalled", last_progress_ms: SEEDED_MS },
    });
    expect(t.legacy.progress.stalled).toBe(true);
    expect(t.legacy.execution).toMatchObject({ progress: "stalled" });
    // the write-turn holder says what the verdict says
    expect(t.write_turn_holder).toMatchObject({ type: "execution", progress: "stalled" });
    expect((await row(INCIDENT.mergingTarget, at)).execution).toMatchObject({ progress: "stalled" });
    expect(skipOf((await detail(INCIDENT.mergingTarget, at - 1)).verdict).code).toBe("write_turn_held");
  });

  it("the §6.2 shadow rule still places it (locks are ignored there); the detail says why the answers differ", async () => {
    const shadow = await okBody(
      app.url,
      `/api/v1/scheduler/shadow${q({ now_ms: NOW + 60_000 })}`,
      shadowResponseSchema,
    );
    expect(shadow.placements.console.find((p) => p.target === INCIDENT.mergingTarget)).toMatchObject({
      executor: "worker-1",
    });
    const t = await detail(INCIDENT.mergingTarget, NOW + 60_000);
    expect(t.executor_agreement).toEqual({
      verdict: null,
      console_shadow: "worker-1",
      master_shadow: null,
      agree: false,
      reasons: [
        "The design verdict holds it back (write_turn_held); the master's §6.2 rule places merges without looking at locks, fences, policies or failures, so its shadow pass still puts it on worker-1.",
        "The master's last shadow pass recorded no row for it (it ran at another revision, or no leader is running).",
      ],
    });
    expect(t.headroom.basis).toBe("excluding_shadow");
  });

  it("the shadow answer names the write-turn holder of each table it lists that has one, as the table's own answer does, in byte order", async () => {
    const at = NOW + 60_000;
    const shadow = await okBody(app.url, `/api/v1/scheduler/shadow${q({ now_ms: at })}`, shadowResponseSchema);
    const listed = new Set(Object.values(shadow.tables).flat());
    const { tables } = await okBody(
      app.url,
      `/api/v1/scheduler/demand${q({ now_ms: at, limit: 2000 })}`,
      demandListSchema,
    );
    expect(shadow.revision).toBeGreaterThan(0);
    const expected = tables
      .filter((t) => t.write_turn_holder !== null && listed.has(t.target))
      .map((t) => ({ target: t.target, holder: t.write_turn_holder }))
      .sort((a, b) => (Buffer.from(a.target) < Buffer.from(b.target) ? -1 : 1));
    expect(expected.map((h) => h.target)).toContain(INCIDENT.mergingTarget);
    expect(shadow.write_turn_holders).toEqual(expected);
  });

  it("a sequence increase is progress, dated at the revision that increased it: advancing, then stalled an idle timeout later", async () => {
    const before = Date.now();
    await writeClockSample(client, prefix, before);
    const increased = await put(client, keys.mergeProgress(prefix, INCIDENT.mergingExecutionId), { sequence: 13 });
    const after = Date.now();
    await writeClockSample(client, prefix, after, increased);
    const last = betweenSamples(before, after);
    // the console answers once its watch brought the increase and its clock read the sample after it
    const t = (
      await until(
        async () => {
          const d = await detail(INCIDENT.mergingTarget, before + 30_000);
          return d.execution?.sequence === 13 && lastProgressMs(d.why_not[0]) === last ? d : undefined;
        },
        10_000,
        { what: "the console to date sequence 13" },
      )
    ).value;
    expect(t.execution).toEqual({
      id: "exec-0001",
      phase: "running",
      endpoint: WORKER_URL,
      progress: "advancing",
      sequence: 13,
    });
    expect(t.legacy.execution?.last_progress_revision).toBe(increased);
    expect(t.verdict).toMatchObject({ code: "write_turn_held" });
    const ago = Math.round((before + 30_000 - last) / 1000);
    expect(skipOf(t.verdict).message).toContain(`merge-progress sequence 13, advanced ${ago}s ago`);
    expect(t.legacy.progress).toMatchObject({ sequence: 13, unchanged_since_ms: last, stalled: false });
    // a rewrite that does not increase the sequence is not progress
    await put(client, keys.mergeProgress(prefix, INCIDENT.mergingExecutionId), { sequence: 13 });
    await writeClockSample(client, prefix, Date.now());
    const later = (
      await until(
        async () => {
          const d = await detail(INCIDENT.mergingTarget, last + 600_000);
          return (d.legacy.progress.sequence_mod_revision ?? 0) > increased ? d : undefined;
        },
        10_000,
        { what: "the console to hold the rewrite" },
      )
    ).value;
    expect(skipOf(later.verdict).code).toBe("write_turn_stalled");
    expect(later.why_not[0].detail).toMatchObject({ progress: "stalled", sequence: 13, last_progress_ms: last });
    expect(later.legacy.execution?.last_progress_revision).toBe(increased);
  });
});

describe("incident/stalled-merge: an execution that never reported progress", () => {
  it("is unknown (held) until the idle timeout after it started, then stalled with how long", async () => {
    const first = await detail(INCIDENT.stalledTarget, NOW);
    expect(skipOf(first.verdict).code).toBe("write_turn_held");
    // counted from when the execution started (its record's creation, dated by the clock), not from the console's start
    expect(first.why_not[0].detail).toEqual({
      kind: "merge_wal",
      execution_id: INCIDENT.stalledExecutionId,
      endpoint: WORKER_URL,
      instance: "worker-1",
      phase: "running",
      sequence: null,
      progress: "unknown",
      last_progress_ms: SEEDED_MS,
      last_progress_bound: "exact",
      idle_timeout_secs: 600,
    });
    expect(skipOf(first.verdict).message).toContain(
      "no merge-progress sequence reported yet, 3m 00s since the execution started (idle timeout 10m 00s)",
    );
    expect(first.legacy.progress).toMatchObject({
      status: "progress_details_unavailable",
      sequence: null,
      stalled: false,
    });

    const stalled = await detail(INCIDENT.stalledTarget, SEEDED_MS + 2_460_000);
    expect(stalled.verdict).toEqual({
      state: "would_skip",
      code: "write_turn_stalled",
      message:
        `The write turn is held by execution exec-0002 (running on worker-1 (${WORKER_URL})) but looks stalled: no merge-progress sequence reported yet, ` +
        "41m 00s since the execution started (idle timeout 10m 00s). Nothing new runs until it is reclaimed or finishes.",
    });
    expect(stalled.legacy.progress.stalled).toBe(true);
    expect(stalled.legacy.execution).toMatchObject({
      progress: "stalled",
      last_progress_ms: SEEDED_MS,
      no_progress_for_ms: 2_460_000,
    });
    expect(skipOf((await detail(INCIDENT.stalledTarget, SEEDED_MS + 599_999)).verdict).code).toBe("write_turn_held");
    expect(skipOf((await detail(INCIDENT.stalledTarget, SEEDED_MS + 600_000)).verdict).code).toBe("write_turn_stalled");
    const list = await okBody(
      app.url,
      `/api/v1/scheduler/demand${q({ now_ms: SEEDED_MS + 600_000, q: "incident/" })}`,
      demandListSchema,
    );
    const byTarget = new Map(list.tables.map((x) => [x.target, x]));
    expect(byTarget.get(INCIDENT.stalledTarget)?.execution).toEqual({
      id: INCIDENT.stalledExecutionId,
      phase: "running",
      endpoint: WORKER_URL,
      progress: "stalled",
      sequence: null,
    });
    expect(byTarget.get(INCIDENT.lockedTarget)).toMatchObject({ execution: null }); // a claim token is not an execution
    // ... but it holds the write turn: the one holder is the lock, and the orphan's is its assignment
    expect(byTarget.get(INCIDENT.lockedTarget)?.write_turn_holder).toEqual({
      type: "lock",
      value: INCIDENT.lockToken,
      execution_id: null,
    });
    expect(byTarget.get(INCIDENT.orphanTarget)?.write_turn_holder).toMatchObject({
      type: "assignment",
      unit_id: INCIDENT.orphanUnitId,
      executor: INCIDENT.orphanExecutor,
      orphaned: true,
    });
    expect(skipOf(byTarget.get(INCIDENT.orphanTarget)!.verdict).message).toContain(
      `Write turn held by assignment ${INCIDENT.orphanUnitId} (merge_wal) on ${INCIDENT.orphanExecutor} (assigned, orphaned: no live heartbeat); bind deadline`,
    );
  });

  it("a finished execution no longer holds the turn", async () => {
    await put(client, keys.mergeExecution(prefix, INCIDENT.stalledTarget), {
      id: INCIDENT.stalledExecutionId,
      target: INCIDENT.stalledTarget,
      endpoint: WORKER_URL,
      instance: "worker-1",
      timeout_secs: 1800,
      queue_timeout_secs: 600,
      idle_timeout_secs: 600,
      phase: "finished",
      reclaimed: false,
      error: null,
      protocol: 2,
    });
    let seen: TableDetail | undefined;
    await until(
      async () =>
        (await (async () => {
          seen = await detail(INCIDENT.stalledTarget, NOW);
          return seen.legacy.execution?.phase === "finished";
        })()) || undefined,
      10_000,
      { what: "the console sees the finished execution" },
    );
    const t = seen!;
    expect(t.execution).toBeNull();
    expect(t.why_not.map((w) => w.code)).not.toContain("write_turn_held");
    expect(t.legacy.execution).toMatchObject({ unfinished: false, holds_lock: true });
  });
});
