// Placement agreement on a healthy P1 fleet (console-api.md "The takeover gate and the canary
// evidence": "placement agreement over time (same targets on the same executors)"), against
// a real etcd with the console's modules in-process: the simulated master's shadow pass
// (lib/sim/shadow-pass.ts, scheduler-model.md §6.2) replaces its shadow rows wholesale, and
// the canary's sample compares the console's pass made from the fleet the master planned
// from — so the fleet moving after the master's pass is not counted as disagreement, while
// the comparison with the present still sees it, and a pass that stopped is compared with
// the present.
import type { Etcd3 } from "etcd3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedEtcd } from "../../support/shared-etcd";
import { keys } from "@/lib/schema/keys";
import { runMasterShadowPass } from "@/lib/sim/shadow-pass";
import { heartbeatValue, type SimExecutor } from "@/lib/sim/scenarios/fleet";
import { testPrefix } from "../../support/prefix";
import { seedTables } from "../policies/fleet";
import { clientFor, useConsoleEnv } from "../time/world";

const GiB = 1024 ** 3;
const TOKEN = "leader-token-agreement";
const worker = (id: string, slots: number): SimExecutor => ({
  id,
  kind: "worker",
  kinds: ["merge_wal"],
  slots_total: { merge_wal: slots },
  bytes_total: 16 * GiB,
  draining: false,
});

let client: Etcd3;
let prefix: string;
const put = async (k: string, v: string) => Number((await client.put(k).value(v).exec()).header.revision);

const api = async () => ({
  fleetView: (await import("@/lib/live/fleet-view")).fleetView,
  shadowFor: (await import("@/lib/live/plan")).shadowFor,
  sample: await import("@/lib/takeover/canary-sample"),
});

/** The console at etcd's head revision, planned at `nowMs`. */
async function consoleAt(nowMs: number) {
  const { fleetView, shadowFor } = await api();
  const head = Number((await client.get(`${prefix}/`).exec()).header.revision);
  return shadowFor(await fleetView(head), nowMs);
}

async function shadowRows(): Promise<Array<{ target: string; executor: string; unit_id: string }>> {
  const rows = Object.values(await client.getAll().prefix(`${prefix}/assignments/`).strings());
  return rows
    .map((v) => JSON.parse(v) as { target: string; executor: string; unit_id: string; state: string })
    .filter((a) => a.state === "shadow")
    .map(({ target, executor, unit_id }) => ({ target, executor, unit_id }))
    .sort((a, b) => a.target.localeCompare(b.target));
}

beforeAll(async () => {
  const endpoints = sharedEtcd();
  prefix = testPrefix("agreement");
  useConsoleEnv(endpoints, prefix);
  client = clientFor(endpoints);
  const now = Date.now();
  // eight due tables, five merge slots on two workers: which five, and where, is the planner's choice
  await seedTables(
    put,
    prefix,
    now,
    Object.fromEntries([40, 36, 32, 28, 24, 20, 16, 12].map((p, i) => [`a/t${i}`, p])),
  );
  for (const e of [worker("worker-1", 2), worker("worker-2", 3)])
    await put(keys.executor(prefix, e.id), heartbeatValue(e, now));
  await put(keys.leaderToken(prefix), TOKEN);
  // a stale row of an earlier pass: the next pass removes it
  await put(
    keys.assignment(prefix, "a/t7", "shadow-old-0"),
    JSON.stringify({
      v: 1,
      unit_id: "shadow-old-0",
      kind: "merge_wal",
      target: "a/t7",
      needs_write_turn: true,
      executor: "worker-1",
      planner_token: TOKEN,
      reserved_slots: { merge_wal: 1 },
      reserved_bytes: 0,
      state: "shadow",
      created_ms: now - 60_000,
      bind_deadline_ms: now - 30_000,
    }),
  );
});

afterAll(() => client?.close());

describe("placement agreement between the master's shadow pass and the console's", () => {
  it("the master's pass replaces its rows wholesale and places where the console's pass does", async () => {
    const now = Date.now();
    const pass = await runMasterShadowPass(client, prefix, TOKEN, now);
    expect([pass.placements, pass.deletes]).toEqual([5, 1]);
    const rows = await shadowRows();
    expect(rows.map((r) => r.target)).toEqual(["a/t0", "a/t1", "a/t2", "a/t3", "a/t4"]);
    expect(rows.every((r) => r.unit_id !== "shadow-old-0")).toBe(true);
    const planned = await consoleAt(now);
    const consoleSide = planned.pass.placements
      .map((p) => ({ target: p.unit.target, executor: p.executor }))
      .sort((a, b) => a.target.localeCompare(b.target));
    expect(consoleSide).toEqual(rows.map(({ target, executor }) => ({ target, executor })));
    const { placementsAgree, canaryExtras } = (await api()).sample;
    expect(placementsAgree(planned)).toBe(true);
    expect((await canaryExtras(planned)).placements_agree).toBe(true);
  });

  it("a fleet that moved after the master's pass is not a disagreement of the planners; a stopped pass is", async () => {
    const now = Date.now();
    await runMasterShadowPass(client, prefix, TOKEN, now);
    // a table jumps to the head of the line after the master planned
    await seedTables(put, prefix, now, { "a/late": 200 });
    const planned = await consoleAt(now + 1000);
    const { placementsAgree, canaryExtras } = (await api()).sample;
    expect(planned.pass.placements.map((p) => p.unit.target)).toContain("a/late");
    expect(placementsAgree(planned)).toBe(false); // the present differs from the master's rows …
    expect((await canaryExtras(planned)).placements_agree).toBe(true); // … the planners do not
    // the master's rows three minutes old: a pass that stopped, compared with the present
    const stale = await consoleAt(now + 180_000);
    expect((await canaryExtras(stale)).placements_agree).toBe(false);
    // the master's next pass sees the table too
    await runMasterShadowPass(client, prefix, TOKEN, now + 2000);
    expect((await shadowRows()).map((r) => r.target)).toContain("a/late");
    expect(placementsAgree(await consoleAt(now + 2000))).toBe(true);
  });
});
