// Policy edits on a live fleet (console-api.md third version), against a real etcd and a
// real `next start`: a save equal to the stored document is 422 no_change; a 422
// invalid_policy lists every issue at once, bounds in words; named tokens name the audit's
// actor; the audit filters by target, actor, time and reason text. Every refusal leaves
// etcd unchanged.
import { randomBytes } from "node:crypto";
import type { Etcd3 } from "etcd3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedEtcd } from "../../support/shared-etcd";
import { createRawEtcdClient } from "@/lib/etcd/raw";
import { auditResponseSchema } from "@/lib/schema/api/audit";
import { policyErrorBodySchema } from "@/lib/schema/api/policies";
import { startApp, type RunningApp } from "../../support/app";
import { testPrefix } from "../../support/prefix";
import { keys } from "@/lib/schema/keys";
import { previewResponseSchema } from "@/lib/schema/api/policies";
import { EXECUTOR_ID, seedPolicyFleet, seedTables } from "./fleet";
import { call, policyPath, writtenFingerprint } from "./helpers";

const ALICE = `alice-${randomBytes(12).toString("hex")}`;
const BOT = `bot-${randomBytes(12).toString("hex")}`;
const PLAIN = `plain-${randomBytes(12).toString("hex")}`;
const prefix = testPrefix("policies-live");
let client: Etcd3;
let app: RunningApp;
const put = async (k: string, v: string) => Number((await client.put(k).value(v).exec()).header.revision);

beforeAll(async () => {
  const endpoints = sharedEtcd();
  client = createRawEtcdClient({ endpoints: endpoints.split(","), callTimeoutMs: 10_000 });
  await seedPolicyFleet(put, prefix, Date.now());
  app = await startApp({
    ETCD_ENDPOINTS: endpoints,
    ETCD_PREFIX: prefix,
    CONSOLE_ADMIN_TOKENS: `alice:${ALICE}, deploy-bot:${BOT}, ${PLAIN}`,
  });
});

afterAll(async () => {
  await app?.stop();
  client?.close();
});

/** A refusal: its status and code, and etcd exactly as before it. */
async function refused(send: () => ReturnType<typeof call>, status: number, code: string) {
  const before = await writtenFingerprint(client, prefix);
  const res = await send();
  expect([res.status, res.body?.error?.code], JSON.stringify(res.body).slice(0, 400)).toEqual([status, code]);
  expect(await writtenFingerprint(client, prefix)).toBe(before);
  return policyErrorBodySchema.parse(res.body).error;
}

describe("no empty saves", () => {
  it("a document equal to the stored one (null leaves, empty sections and v aside) is 422 no_change", async () => {
    const target = "live/same";
    // nothing stored: an empty document changes nothing either
    await refused(
      () => call(app.url, "PUT", policyPath(target), { token: ALICE, body: {}, ifMatch: 0 }),
      422,
      "no_change",
    );
    await refused(
      () => call(app.url, "PUT", policyPath("_default"), { token: ALICE, body: { merge: {} }, ifMatch: 0 }),
      422,
      "no_change",
    );
    const saved = await call(app.url, "PUT", policyPath(target), {
      token: ALICE,
      body: { merge: { min_generations: 6 } },
      ifMatch: 0,
    });
    expect(saved.status).toBe(200);
    const etag = saved.body.mod_revision as number;
    const error = await refused(
      () =>
        call(app.url, "PUT", policyPath(target), {
          token: ALICE,
          body: { v: 1, merge: { min_generations: 6, min_bytes: null }, index: {} },
          ifMatch: etag,
        }),
      422,
      "no_change",
    );
    expect(error.message).toBe(
      `Nothing to save: the document equals the stored policy of ${target} (mod_revision ${etag}).`,
    );
    expect(error.mod_revision).toBe(etag);
    // If-Match is checked first: a stale editor hears 412, not no_change
    await refused(
      () =>
        call(app.url, "PUT", policyPath(target), {
          token: ALICE,
          body: { merge: { min_generations: 6 } },
          ifMatch: etag - 1,
        }),
      412,
      "precondition_failed",
    );
    expect(
      (
        await call(app.url, "PUT", policyPath(target), {
          token: ALICE,
          body: { merge: { min_generations: 7 } },
          ifMatch: etag,
        })
      ).status,
    ).toBe(200);
  });
});

describe("every error at once", () => {
  it("field, cross-field and reason issues come in one 422, each bound in words", async () => {
    const body = {
      merge: { max_age_secs: 0, critical_generations: 3, min_generations: 99999999999999999999 },
      backlog: { warn_generations: 10, critical_generations: 5 },
      mode: "turbo",
      typo: true,
    };
    const error = await refused(
      () => call(app.url, "PUT", policyPath("live/errors"), { token: ALICE, body, ifMatch: 0, reason: null }),
      422,
      "invalid_policy",
    );
    expect(error.issues).toEqual([
      { path: "mode", message: 'Invalid option: expected one of "legacy"|"planner"|"active"|"drain"|"frozen"' },
      { path: "merge.min_generations", message: "must be a whole number between 1 and 9,007,199,254,740,991" },
      { path: "merge.max_age_secs", message: "must be a whole number between 1 and 9,007,199,254,740,991" },
      { path: "", message: 'Unrecognized key: "typo"' },
      { path: "backlog.critical_generations", message: "must be at least backlog.warn_generations (10)" },
      // critical 3 against the inherited minimum (8), though this body's own minimum is invalid
      {
        path: "merge.critical_generations",
        message:
          "merge.critical_generations (effective 3 generations) must be at least merge.min_generations (effective 8 generations), including inherited values",
      },
      {
        path: "reason",
        message: "a reason is required: say why you change this policy (X-Change-Reason, 1 to 500 characters)",
      },
    ]);
    expect(error.message.startsWith("7 issues: mode Invalid option")).toBe(true);
    // the cross-field rule on inherited values comes with the field issues too
    const inherited = await refused(
      () =>
        call(app.url, "PUT", policyPath("live/errors"), {
          token: ALICE,
          body: { merge: { critical_generations: 3 }, mode: "turbo" },
          ifMatch: 0,
        }),
      422,
      "invalid_policy",
    );
    expect(inherited.issues?.map((i) => i.path)).toEqual(["mode", "merge.critical_generations"]);
    expect(inherited.issues?.[1].message).toBe(
      "merge.critical_generations (effective 3 generations) must be at least merge.min_generations (effective 8 generations), including inherited values",
    );
  });
});

describe("an audit you can search", () => {
  it("named tokens name the actor; target, actor, time and reason text filter the log", async () => {
    const t0 = Date.now();
    const a = await call(app.url, "PUT", policyPath("live/audit-a"), {
      token: ALICE,
      body: { backpressure: "off" },
      ifMatch: 0,
      reason: "Backfill of Q3 orders",
    });
    const b = await call(app.url, "PUT", policyPath("live/audit-b"), {
      token: BOT,
      body: { backpressure: "off" },
      ifMatch: 0,
      reason: "nightly compaction window",
    });
    const c = await call(app.url, "PUT", policyPath("live/audit-a"), {
      token: PLAIN,
      body: { backpressure: "metric" },
      ifMatch: a.body.mod_revision,
      reason: "end of the backfill",
    });
    expect([a.status, b.status, c.status]).toEqual([200, 200, 200]);
    const t1 = Date.now();
    const audit = async (query: string) => {
      const res = await call(app.url, "GET", `/api/v1/audit?${query}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return auditResponseSchema.parse(res.body).entries.map((e) => [e.target, e.actor, e.reason]);
    };
    const plainActor = (await audit(`target=live%2Faudit-a&from_ms=${t0}`))[0][1];
    expect(plainActor).toMatch(/^admin:[0-9a-f]{12}$/);
    expect(await audit(`from_ms=${t0}&to_ms=${t1}`)).toEqual([
      ["live/audit-a", plainActor, "end of the backfill"],
      ["live/audit-b", "deploy-bot", "nightly compaction window"],
      ["live/audit-a", "alice", "Backfill of Q3 orders"],
    ]);
    // alice also made the two saves of "no empty saves" (with the helpers' default reason)
    expect((await audit("actor=alice")).map((e) => e[0])).toEqual(["live/audit-a", "live/same", "live/same"]);
    expect((await audit("actor=deploy-bot")).map((e) => e[2])).toEqual(["nightly compaction window"]);
    expect(await audit(`q=BACKFILL&from_ms=${t0}`)).toEqual([
      ["live/audit-a", plainActor, "end of the backfill"],
      ["live/audit-a", "alice", "Backfill of Q3 orders"],
    ]);
    expect(await audit(`target=live%2Faudit-a&actor=alice&q=q3`)).toEqual([
      ["live/audit-a", "alice", "Backfill of Q3 orders"],
    ]);
    expect(await audit(`to_ms=${t0 - 1}&target=live%2Faudit-b`)).toEqual([]);
    // target_q: any part of the table's name, any case (the audit page's "Table contains")
    expect(await audit(`target_q=AUDIT-&from_ms=${t0}`)).toEqual([
      ["live/audit-a", plainActor, "end of the backfill"],
      ["live/audit-b", "deploy-bot", "nightly compaction window"],
      ["live/audit-a", "alice", "Backfill of Q3 orders"],
    ]);
    expect(await audit(`target_q=audit-b&from_ms=${t0}`)).toEqual([
      ["live/audit-b", "deploy-bot", "nightly compaction window"],
    ]);
    expect(await audit(`target=live&from_ms=${t0}`)).toEqual([]); // `target` stays the exact name
    const bad = await call(app.url, "GET", `/api/v1/audit?from_ms=${t1}&to_ms=${t0}`);
    expect([bad.status, bad.body.error.code]).toEqual([400, "invalid_query"]);
  });
});

describe("stale means material, on a fleet whose tables move", () => {
  // the executor has 2 merge slots: a and b are placed, c waits behind them
  const [A, B, C, D] = ["motion/a", "motion/b", "motion/c", "motion/d"];
  const FREEZE = { mode: "frozen" };
  const previewOf = async (target: string, body: unknown) => {
    const res = await call(app.url, "POST", `${policyPath(target)}/preview`, { token: ALICE, body });
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    return previewResponseSchema.parse(res.body);
  };
  const gained = (p: { changed: { target: string; effects: string[] }[] }) =>
    p.changed.filter((r) => r.effects.includes("placements_gained")).map((r) => r.target);

  it("a table that stood still but lost its turn to a table that moved (the placement rule) does not refuse the reviewed save", async () => {
    await seedTables(put, prefix, Date.now(), { [A]: 20, [B]: 19, [C]: 18 });
    const reviewed = await previewOf(A, FREEZE);
    expect(gained(reviewed)).toEqual([C]);
    // d's writer flushes 40 generations: d now takes a slot, and freezing a frees one for b, not c
    await seedTables(put, prefix, Date.now(), { [D]: 40 });
    const fresh = await previewOf(A, FREEZE);
    expect(gained(fresh)).toEqual([B]);
    // b and c did not move: by the decision sets alone this is stale; the reviewed fleet with
    // today's executors and policies decides what was reviewed, so it is d's own motion
    const saved = await call(app.url, "PUT", policyPath(A), {
      token: ALICE,
      body: FREEZE,
      ifMatch: 0,
      headers: { "x-preview-digest": reviewed.digest },
    });
    expect(saved.status, JSON.stringify(saved.body).slice(0, 400)).toBe(200);
    const deleted = await call(app.url, "DELETE", policyPath(A), { token: ALICE, ifMatch: saved.body.mod_revision });
    expect(deleted.status).toBe(200);
  });

  it("the same moves with an executor that changed are material: 409 with what changed, nothing written", async () => {
    const reviewed = await previewOf(A, FREEZE);
    expect(gained(reviewed)).toEqual([B]);
    // a third merge slot: freezing a would now let c in as well, though no table moved
    const heartbeatKey = keys.executor(prefix, EXECUTOR_ID);
    const heartbeat = (await client.get(heartbeatKey).string())!;
    const wider = JSON.parse(heartbeat) as { slots_total: Record<string, number> };
    await put(heartbeatKey, JSON.stringify({ ...wider, slots_total: { ...wider.slots_total, merge_wal: 3 } }));
    try {
      const error = await refused(
        () =>
          call(app.url, "PUT", policyPath(A), {
            token: ALICE,
            body: FREEZE,
            ifMatch: 0,
            headers: { "x-preview-digest": reviewed.digest },
          }),
        409,
        "preview_stale",
      );
      expect(error.changed?.placements_gained).toEqual({ added: [C], removed: [B] });
    } finally {
      await put(heartbeatKey, heartbeat);
    }
  });
});
