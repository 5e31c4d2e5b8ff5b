// One headroom story and one answer to "which executor?", against a real etcd and
// `next start` (console-api.md Additions): executor rows with and without the master's
// shadow rows, overcommit, unbudgeted executors, orphans that are not "draining", no
// overdue shadow rows, per-executor shadow agreement with its reason, and the table
// detail naming the headroom its verdict used.
import { demandDetailSchema, demandListSchema } from "@/lib/schema/api/demand";
import { executorsResponseSchema } from "@/lib/schema/api/executors";
import { assignmentsResponseSchema } from "@/lib/schema/api/assignments";
import { shadowResponseSchema } from "@/lib/schema/api/shadow";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedEtcd } from "../../support/shared-etcd";
import type { Etcd3 } from "etcd3";
import { startApp, type RunningApp } from "../../support/app";
import { testPrefix } from "../../support/prefix";
import { keys } from "@/lib/schema/keys";
import { formatCount, formatTime } from "@/lib/schema/format";
import { clientFor, q, okBody } from "../api/helpers";
import { GiB, assignment, demandTable, heartbeat, put } from "./records";
import { execution } from "@/lib/planner/plan/__fixtures__/fleet";

let client: Etcd3;
let app: RunningApp;
let prefix: string;
let NOW: number;
let CREATED: number;
/** the revisions the master's shadow rows for h/a and h/b were written at */
let REV_A: number;
let REV_B: number;

beforeAll(async () => {
  const endpoints = sharedEtcd();
  client = clientFor(endpoints);
  prefix = testPrefix("answer-headroom");
  NOW = Date.now();
  CREATED = NOW - 40_000;
  const hb = (id: string, kind: string, bytes: number, slots: number, draining = false) =>
    put(
      client,
      keys.executor(prefix, id),
      heartbeat(id, { kind, kinds: ["merge_wal"], slots_total: { merge_wal: slots }, bytes_total: bytes, draining }),
    );
  await hb("m-big", "resident_master", 8 * GiB, 4);
  await hb("m-small", "resident_master", 8 * GiB, 2);
  await hb("w-unbudgeted", "worker", 0, 2);
  await hb("w-drain", "worker", 4 * GiB, 2, true);
  const row = (target: string, unitId: string, executor: string, extra: Record<string, unknown>) =>
    put(
      client,
      keys.assignment(prefix, target, unitId),
      assignment(target, unitId, executor, { created_ms: CREATED, bind_deadline_ms: CREATED + 30_000, ...extra }),
    );
  // the master's last shadow pass: h/a on m-big (as the console would), h/b on w-unbudgeted (not)
  REV_A = await row("h/a", "u-shadow-a", "m-big", { state: "shadow" });
  REV_B = await row("h/b", "u-shadow-b", "w-unbudgeted", { state: "shadow" });
  await row("h/busy", "u-assigned", "m-big", { state: "assigned" });
  await row("h/huge", "u-bound", "m-small", { state: "bound", reserved_bytes: 16 * GiB });
  await row("h/orphan", "u-orphan", "ghost", { state: "assigned", reserved_bytes: GiB });
  // two merges run on m-big outside any assignment (the legacy queue's work), one inside h/busy's
  const running = (target: string, id: string) =>
    put(
      client,
      keys.mergeExecution(prefix, target),
      execution({ id, target, endpoint: "http://m-big:8080", instance: "m-big" }),
    );
  await running("h/legacy-1", "exec-l1");
  await running("h/legacy-2", "exec-l2");
  await running("h/busy", "exec-busy");
  await demandTable(client, prefix, "h/a", 40, NOW - 600_000);
  await demandTable(client, prefix, "h/b", 30, NOW - 600_000);
  await demandTable(client, prefix, "h/busy", 20, NOW - 600_000);
  app = await startApp({ ETCD_ENDPOINTS: endpoints, ETCD_PREFIX: prefix, CONSOLE_SHADOW_SAMPLER: "off" });
});

afterAll(async () => {
  await app?.stop();
  client?.close();
});

describe("executors: headroom both ways", () => {
  it("rows carry reservations with and without shadow rows, overcommit, and orphans that stay draining (the master's fold)", async () => {
    const body = await okBody(app.url, "/api/v1/scheduler/executors", executorsResponseSchema);
    const byId = Object.fromEntries(body.executors.map((e: any) => [e.id, e]));
    expect(byId["m-big"]).toMatchObject({
      bytes_total: 8 * GiB,
      bytes_reserved: 4 * GiB,
      bytes_free: 4 * GiB,
      bytes_reserved_excluding_shadow: 2 * GiB,
      bytes_free_excluding_shadow: 6 * GiB,
      slots_reserved: { merge_wal: 2 },
      slots_free: { merge_wal: 2 },
      slots_reserved_excluding_shadow: { merge_wal: 1 },
      slots_free_excluding_shadow: { merge_wal: 3 },
      shadow_assignments: 1,
      assignments: 2,
      overcommitted_bytes: 0,
      draining: false,
      orphan: false,
    });
    expect(byId["m-small"]).toMatchObject({
      bytes_total: 8 * GiB,
      bytes_reserved: 16 * GiB,
      bytes_free: 0,
      overcommitted_bytes: 8 * GiB,
      shadow_assignments: 0,
    });
    expect(byId["w-unbudgeted"]).toMatchObject({
      bytes_total: 0,
      bytes_reserved: 2 * GiB,
      bytes_reserved_excluding_shadow: 0,
      overcommitted_bytes: 0,
      slots_free: { merge_wal: 1 },
      slots_free_excluding_shadow: { merge_wal: 2 },
      shadow_assignments: 1,
    });
    expect(byId["w-drain"]).toMatchObject({ draining: true, orphan: false });
    // an orphan stays draining, as the master's fold makes it (§5.2); pages say "orphan"
    expect(byId.ghost).toMatchObject({
      orphan: true,
      draining: true,
      heartbeat_ms: null,
      bytes_reserved: GiB,
      overcommitted_bytes: 0,
    });
    expect(body.totals).toMatchObject({
      executors: 4,
      draining: 1,
      orphans: 1,
      unbudgeted: 1,
      slots_free: { merge_wal: 4 },
      // budgeted, live, not draining: m-big and m-small (w-unbudgeted has no byte budget)
      bytes_free: 4 * GiB,
      bytes_free_excluding_shadow: 6 * GiB,
      bytes_total: 16 * GiB,
      overcommitted: 1,
    });
  });

  it("one headroom per kind with named parts: free = total − reserved (shadow rows and legacy executions beside it)", async () => {
    const body = await okBody(app.url, "/api/v1/scheduler/executors", executorsResponseSchema);
    const byId = Object.fromEntries(body.executors.map((e) => [e.id, e]));
    expect(byId["m-big"].slots).toEqual({
      merge_wal: { total: 4, reserved: 1, shadow: 1, free: 3, legacy_running: 2 },
    });
    expect(byId["m-big"].bytes).toEqual({ total: 8 * GiB, reserved: 2 * GiB, shadow: 2 * GiB, free: 6 * GiB });
    expect(byId["m-small"].slots.merge_wal).toEqual({ total: 2, reserved: 1, shadow: 0, free: 1, legacy_running: 0 });
    expect(byId["w-unbudgeted"].slots.merge_wal).toEqual({
      total: 2,
      reserved: 0,
      shadow: 1,
      free: 2,
      legacy_running: 0,
    });
    // the flat fields stay for API clients: they count the master's shadow rows
    expect(byId["m-big"].slots_free).toEqual({ merge_wal: 2 });
    // accepting executors only (not draining, not orphans); bytes over the budgeted ones
    expect(body.totals.slots).toEqual({ merge_wal: { total: 8, reserved: 2, shadow: 2, free: 6, legacy_running: 2 } });
    expect(body.totals.bytes).toEqual({ total: 16 * GiB, reserved: 18 * GiB, shadow: 2 * GiB, free: 6 * GiB });
  });

  it("the verdicts use `free`: no executor is given more merges than it has free", async () => {
    const list = await okBody(
      app.url,
      `/api/v1/scheduler/demand${q({ now_ms: NOW, verdict: "would_place", limit: 100 })}`,
      demandListSchema,
    );
    const body = await okBody(app.url, "/api/v1/scheduler/executors", executorsResponseSchema);
    const given = new Map<string, number>();
    for (const t of list.tables)
      if (t.verdict.state === "would_place") given.set(t.verdict.executor, (given.get(t.verdict.executor) ?? 0) + 1);
    expect(given.size).toBeGreaterThan(0);
    for (const [id, n] of given)
      expect(n).toBeLessThanOrEqual(body.executors.find((e) => e.id === id)!.slots.merge_wal.free);
  });

  it("assignments: a shadow row is never overdue; an unbound assigned row past its deadline is", async () => {
    const body = await okBody(app.url, `/api/v1/scheduler/assignments${q({ now_ms: NOW })}`, assignmentsResponseSchema);
    const overdue = Object.fromEntries(body.assignments.map((a: any) => [a.unit_id, [a.state, a.overdue]]));
    expect(overdue).toEqual({
      "u-shadow-a": ["shadow", false],
      "u-shadow-b": ["shadow", false],
      "u-assigned": ["assigned", true],
      "u-bound": ["bound", false],
      "u-orphan": ["assigned", true],
    });
  });
});

describe("which executor: one answer, or why not", () => {
  it("shadow agreement is per executor, each mismatch with the reason", async () => {
    const body = await okBody(app.url, `/api/v1/scheduler/shadow${q({ now_ms: NOW })}`, shadowResponseSchema);
    // §6.2: shadow rows out, the assigned/bound rows back in; every merge lands on m-big (most free bytes)
    expect(body.placements.console).toEqual([
      { target: "h/a", executor: "m-big", reserved_bytes: 2 * GiB },
      { target: "h/b", executor: "m-big", reserved_bytes: 2 * GiB },
      { target: "h/busy", executor: "m-big", reserved_bytes: 2 * GiB },
    ]);
    expect(body.placements.only_console).toEqual(["h/busy"]);
    expect(body.placements.only_master).toEqual([]);
    expect(body.placements.agree).toBe(false);
    expect(body.placements.executor_mismatch).toEqual([
      {
        target: "h/b",
        console: "m-big",
        master: "w-unbudgeted",
        master_created_ms: CREATED,
        master_mod_revision: REV_B,
        reason:
          `The master's shadow pass that placed it on w-unbudgeted ran at another revision (its row was written at revision ${formatCount(REV_B)}, ${formatTime(CREATED)}); ` +
          `its headroom then was different from the headroom at revision ${formatCount(body.revision)}, where the same §6.2 rule picks m-big.`,
      },
    ]);
    expect(body.placements.executor_differs).toEqual(["h/b"]);
    // the tables page's verdict beside the §6.2 rule: h/a and h/b agree, h/busy is held back
    expect(body.placements.verdict_mismatch).toEqual([
      {
        target: "h/busy",
        console: "m-big",
        verdict: null,
        verdict_code: "already_running",
        reason:
          "The design verdict holds it back (already_running); the master's §6.2 rule places merges without looking at locks, fences, policies or failures, so its shadow pass still puts it on m-big.",
      },
    ]);
  });

  it("the table detail names every executor answer, the headroom its verdict used, and why they differ", async () => {
    const detail = async (target: string) =>
      await okBody(app.url, `/api/v1/scheduler/demand${q({ target, now_ms: NOW })}`, demandDetailSchema);
    const a = await detail("h/a");
    expect(a.table.verdict).toEqual({
      state: "would_place",
      executor: "m-big",
      reserved_bytes: 2 * GiB,
      kind: "merge_wal",
    });
    expect(a.table.headroom).toEqual({
      basis: "excluding_shadow",
      message:
        "The verdict uses headroom without the master's shadow rows: they are replaced every pass and never bound (scheduler-model.md §6.2 step 3). The executors page shows headroom both ways.",
    });
    expect(a.table.executor_agreement).toEqual({
      verdict: "m-big",
      console_shadow: "m-big",
      master_shadow: { executor: "m-big", created_ms: CREATED, mod_revision: REV_A },
      agree: true,
      reasons: [],
    });
    const b = await detail("h/b");
    expect(b.table.executor_agreement).toMatchObject({
      verdict: "m-big",
      console_shadow: "m-big",
      master_shadow: { executor: "w-unbudgeted", created_ms: CREATED, mod_revision: REV_B },
      agree: false,
    });
    expect(b.table.executor_agreement.reasons).toEqual([expect.stringContaining(`ran at another revision`)]);
    const busy = await detail("h/busy");
    expect(busy.table.verdict).toMatchObject({ state: "would_skip", code: "already_running" });
    expect(busy.table.executor_agreement).toMatchObject({
      verdict: null,
      console_shadow: "m-big",
      master_shadow: null,
      agree: false,
    });
    expect(busy.table.executor_agreement.reasons[0]).toBe(
      "The design verdict holds it back (already_running); the master's §6.2 rule places merges without looking at locks, fences, policies or failures, so its shadow pass still puts it on m-big.",
    );
  });
});
