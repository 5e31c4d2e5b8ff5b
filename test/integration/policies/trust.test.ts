// Policy edits an admin can trust (console-api.md Additions), against a real etcd and a
// real `next start`: the blast-radius summary and its digest, 409 preview_stale, the
// required X-Change-Reason kept in the audit, reads pinned to a revision, and every
// rejected write leaving etcd untouched.
import { randomBytes } from "node:crypto";
import type { Etcd3 } from "etcd3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedEtcd } from "../../support/shared-etcd";
import { createRawEtcdClient } from "@/lib/etcd/raw";
import { auditResponseSchema } from "@/lib/schema/api/audit";
import { policyErrorBodySchema, policyResponseSchema, previewResponseSchema } from "@/lib/schema/api/policies";
import { startApp, type RunningApp } from "../../support/app";
import { testPrefix } from "../../support/prefix";
import { keys } from "@/lib/schema/keys";
import { decodeDigest, encodeDigest } from "@/lib/policies/preview-digest";
import { EXECUTOR_ID, policyKey, seedPolicyFleet, seedTables } from "./fleet";
import { auditRecords, call, policyPath, writtenFingerprint } from "./helpers";

const ADMIN = `adm-${randomBytes(12).toString("hex")}`;
const prefix = testPrefix("policies-trust");
let client: Etcd3;
let app: RunningApp;
const put = async (k: string, v: string) => Number((await client.put(k).value(v).exec()).header.revision);

/** 20 pending: due (normal) and placed; 300 pending: critical, placed, and its backlog warns writers. */
const DUE = "trust/due";
const HOT = "trust/hot";
const STARVING_DEFAULT = { merge: { min_generations: 100_000, critical_generations: 100_000 } };

beforeAll(async () => {
  const endpoints = sharedEtcd();
  client = createRawEtcdClient({ endpoints: endpoints.split(","), callTimeoutMs: 10_000 });
  const now = Date.now();
  await seedPolicyFleet(put, prefix, now);
  await seedTables(put, prefix, now, { [DUE]: 20, [HOT]: 300 });
  app = await startApp({ ETCD_ENDPOINTS: endpoints, ETCD_PREFIX: prefix, CONSOLE_ADMIN_TOKENS: ADMIN });
});

afterAll(async () => {
  await app?.stop();
  client?.close();
});

const preview = async (target: string, body: unknown, nowMs?: number) => {
  const res = await call(app.url, "POST", `${policyPath(target)}/preview${nowMs ? `?now_ms=${nowMs}` : ""}`, {
    token: ADMIN,
    body,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return previewResponseSchema.parse(res.body);
};
const read = async (target: string, revision?: number) => {
  const res = await call(app.url, "GET", `${policyPath(target)}${revision ? `?revision=${revision}` : ""}`);
  expect(res.status).toBe(200);
  return policyResponseSchema.parse(res.body);
};

describe("the preview's blast radius", () => {
  it("a fleet default that raises both thresholds: 2 placements lost, 2 demoted, 1 newly starving", async () => {
    const now = Date.now();
    const p = await preview("_default", STARVING_DEFAULT, now);
    expect(p.summary).toEqual({ placements_lost: 2, placements_gained: 0, promoted: 0, demoted: 2, newly_starving: 1 });
    const rows = new Map(p.changed.map((r) => [r.target, r]));
    expect(rows.get(HOT)?.effects).toEqual(["placements_lost", "demoted", "newly_starving"]);
    expect([rows.get(HOT)?.before.class, rows.get(HOT)?.after.class]).toEqual(["critical", "tail"]);
    expect(rows.get(DUE)?.effects).toEqual(["placements_lost", "demoted"]);
    expect(p.modes).toEqual({ legacy: 5 });
    expect(p.warnings.map((w) => w.path).sort()).toEqual(["merge.critical_generations", "merge.min_generations"]);
    expect(p.warnings.find((w) => w.path === "merge.critical_generations")?.message).toContain(
      "4,096-generation write cliff",
    );
    // the digest names the reviewed revision and moment, and binds the effect: the same effect a
    // minute later (every score differs) binds the same decision sets (console-api.md third and fourth versions)
    const later = await preview("_default", STARVING_DEFAULT, now + 60_000);
    expect(later.changed.find((r) => r.target === DUE)?.after.score).not.toEqual(rows.get(DUE)?.after.score);
    expect(p.digest).toMatch(/^[A-Za-z0-9_-]{66}$/);
    const [reviewed, again] = [decodeDigest(p.digest)!, decodeDigest(later.digest)!];
    expect(reviewed).toMatchObject({ revision: p.revision, nowMs: now });
    expect(again).toMatchObject({ revision: later.revision, nowMs: now + 60_000, effect: reviewed.effect });
    // a different effect → a different digest
    const other = await preview(DUE, { merge: { min_generations: 100 } });
    expect(decodeDigest(other.digest)!.effect).not.toBe(reviewed.effect);
  });
});

describe("bound to what was reviewed", () => {
  it("a fleet that moved materially answers 409 preview_stale with what changed and the fresh preview, writes nothing; the fresh digest saves", async () => {
    const reviewed = await preview("_default", STARVING_DEFAULT);
    expect(reviewed.summary.placements_lost).toBe(2);
    // the executor starts draining: the two due tables would no longer lose a placement (they
    // have none), though their own records did not move: the save now decides differently
    const heartbeatKey = keys.executor(prefix, EXECUTOR_ID);
    const heartbeat = (await client.get(heartbeatKey).string())!;
    await put(heartbeatKey, JSON.stringify({ ...JSON.parse(heartbeat), draining: true }));
    const before = await writtenFingerprint(client, prefix);
    const stale = await call(app.url, "PUT", policyPath("_default"), {
      token: ADMIN,
      body: STARVING_DEFAULT,
      ifMatch: 0,
      headers: { "x-preview-digest": reviewed.digest },
    });
    expect(stale.status, JSON.stringify(stale.body).slice(0, 300)).toBe(409);
    const error = policyErrorBodySchema.parse(stale.body).error;
    expect(error.code).toBe("preview_stale");
    expect(error.changed?.placements_lost).toEqual({ added: [], removed: [DUE, HOT] });
    expect(error.changed?.placements_gained).toEqual({ added: [], removed: [] });
    expect(error.preview?.summary.placements_lost).toBe(0);
    expect(error.reviewed_revision).toBe(reviewed.revision);
    expect(await writtenFingerprint(client, prefix)).toBe(before);

    const saved = await call(app.url, "PUT", policyPath("_default"), {
      token: ADMIN,
      body: STARVING_DEFAULT,
      ifMatch: 0,
      headers: { "x-preview-digest": error.preview!.digest },
    });
    expect(saved.status, JSON.stringify(saved.body).slice(0, 300)).toBe(200);
    await put(heartbeatKey, heartbeat);
    // put the fleet default back (deleting _default is refused; an empty document inherits everything)
    const restored = await call(app.url, "PUT", policyPath("_default"), {
      token: ADMIN,
      body: {},
      ifMatch: saved.body.mod_revision,
      reason: "restore the built-in thresholds",
    });
    expect(restored.status).toBe(200);
  });

  it("a table that moved on its own (its writer flushed) is not a material change: the reviewed save lands", async () => {
    const reviewed = await preview("_default", STARVING_DEFAULT);
    const current = await read("_default");
    // a new due table appears, behind the two placed ones (no free slot is left for it): the
    // same rule demotes it too, as reviewed; no table whose own records stood still moves
    await seedTables(put, prefix, Date.now(), { "trust/new-due": 15 });
    const fresh = await preview("_default", STARVING_DEFAULT);
    expect(fresh.digest).not.toBe(reviewed.digest);
    expect(fresh.changed.find((r) => r.target === "trust/new-due")?.effects).toEqual(["demoted"]);
    const saved = await call(app.url, "PUT", policyPath("_default"), {
      token: ADMIN,
      body: STARVING_DEFAULT,
      ifMatch: current.mod_revision,
      headers: { "x-preview-digest": reviewed.digest },
    });
    expect(saved.status, JSON.stringify(saved.body).slice(0, 300)).toBe(200);
    const restored = await call(app.url, "PUT", policyPath("_default"), {
      token: ADMIN,
      body: {},
      ifMatch: saved.body.mod_revision,
      reason: "restore the built-in thresholds",
    });
    expect(restored.status).toBe(200);
  });

  it("a matching digest saves, and a DELETE is bound like a PUT (its preview is the empty document)", async () => {
    const target = DUE;
    const proposal = { merge: { min_generations: 4 } };
    const reviewed = await preview(target, proposal);
    const saved = await call(app.url, "PUT", policyPath(target), {
      token: ADMIN,
      body: proposal,
      ifMatch: 0,
      headers: { "x-preview-digest": reviewed.digest },
    });
    expect(saved.status).toBe(200);
    const removal = await preview(target, {});
    const deleted = await call(app.url, "DELETE", policyPath(target), {
      token: ADMIN,
      ifMatch: saved.body.mod_revision,
      headers: { "x-preview-digest": removal.digest },
    });
    expect(deleted.status, JSON.stringify(deleted.body).slice(0, 300)).toBe(200);
    expect(await client.get(policyKey(prefix, target)).string()).toBeNull();
  });
});

describe("every change has a reason", () => {
  it("PUT and DELETE without X-Change-Reason answer 422 with an issue at `reason`; the audit keeps the reason", async () => {
    const target = "trust/reasons";
    const body = { backpressure: "off" };
    const cases = [
      { method: "PUT", reason: null },
      { method: "PUT", reason: "   " },
      { method: "PUT", reason: "x".repeat(501) },
    ] as const;
    for (const c of cases) {
      const before = await writtenFingerprint(client, prefix);
      const res = await call(app.url, c.method, policyPath(target), {
        token: ADMIN,
        body,
        ifMatch: 0,
        reason: c.reason,
      });
      expect(res.status, JSON.stringify(c)).toBe(422);
      const error = policyErrorBodySchema.parse(res.body).error;
      expect(error.code).toBe("invalid_policy");
      expect(error.issues?.map((i) => i.path)).toEqual(["reason"]);
      expect(await writtenFingerprint(client, prefix)).toBe(before);
    }
    // an invalid body and no reason: both issues at once
    const both = await call(app.url, "PUT", policyPath(target), {
      token: ADMIN,
      body: { merge: { min_generations: 0 } },
      ifMatch: 0,
      reason: null,
    });
    expect(policyErrorBodySchema.parse(both.body).error.issues?.map((i) => i.path)).toEqual([
      "merge.min_generations",
      "reason",
    ]);

    const reason = "Lower backpressure for the backfill — ticket ÜB-7";
    const saved = await call(app.url, "PUT", policyPath(target), {
      token: ADMIN,
      body,
      ifMatch: 0,
      reason: encodeURIComponent(reason),
    });
    expect(saved.status).toBe(200);
    const noReason = await call(app.url, "DELETE", policyPath(target), {
      token: ADMIN,
      ifMatch: saved.body.mod_revision,
      reason: null,
    });
    expect([noReason.status, policyErrorBodySchema.parse(noReason.body).error.issues?.[0].path]).toEqual([
      422,
      "reason",
    ]);
    expect(await client.get(policyKey(prefix, target)).string()).not.toBeNull();
    const audit = auditResponseSchema.parse(
      (await call(app.url, "GET", `/api/v1/audit?target=${encodeURIComponent(target)}`)).body,
    );
    expect(audit.entries.map((e) => e.reason)).toEqual([reason]);
    expect((await auditRecords(client, prefix)).filter((r) => r.target === target).map((r) => r.reason)).toEqual([
      reason,
    ]);
  });
});

describe("pinned reads", () => {
  it("?revision=R shows the document stored at R and the audit entries written up to R", async () => {
    const target = "trust/pinned";
    const first = await call(app.url, "PUT", policyPath(target), {
      token: ADMIN,
      body: { merge: { min_generations: 3 } },
      ifMatch: 0,
      reason: "first",
    });
    const second = await call(app.url, "PUT", policyPath(target), {
      token: ADMIN,
      body: { merge: { min_generations: 6 } },
      ifMatch: first.body.mod_revision,
      reason: "second",
    });
    expect([first.status, second.status]).toEqual([200, 200]);
    const r1 = first.body.mod_revision as number;
    const atFirst = await read(target, r1);
    expect([atFirst.revision, atFirst.mod_revision, atFirst.effective.merge.min_generations]).toEqual([r1, r1, 3]);
    expect((await read(target)).effective.merge.min_generations).toBe(6);
    expect((await read(target, r1 - 1)).stored).toBeNull();
    const audit = auditResponseSchema.parse(
      (await call(app.url, "GET", `/api/v1/audit?target=${encodeURIComponent(target)}&revision=${r1}`)).body,
    );
    expect([audit.revision, audit.entries.map((e) => e.reason)]).toEqual([r1, ["first"]]);
    const list = await call(app.url, "GET", `/api/v1/policies?revision=${r1 - 1}`);
    expect(list.body.tables.map((t: { target: string }) => t.target)).not.toContain(target);
    const future = await call(app.url, "GET", `${policyPath(target)}?revision=${second.body.mod_revision + 1_000_000}`);
    expect(future.status).toBe(400);
  });
});

describe("rejected writes write nothing", () => {
  it("no reason, a stale digest, an invalid body, a conflict, cross-site, wrong content type, too large: etcd unchanged", async () => {
    const target = "trust/guarded";
    const created = await call(app.url, "PUT", policyPath(target), {
      token: ADMIN,
      body: { mode: "drain" },
      ifMatch: 0,
    });
    expect(created.status).toBe(200);
    const etag = created.body.mod_revision as number;
    const fresh = await preview(target, { mode: "legacy" });
    // a digest of another effect at the moment of a real preview: the reviewed fleet re-planned does not give it
    const stale = encodeDigest({ revision: fresh.revision, nowMs: fresh.now_ms, effect: "0".repeat(64) });
    const refusals: [string, () => ReturnType<typeof call>, number, string][] = [
      [
        "no reason",
        () =>
          call(app.url, "PUT", policyPath(target), {
            token: ADMIN,
            body: { mode: "legacy" },
            ifMatch: etag,
            reason: null,
          }),
        422,
        "invalid_policy",
      ],
      [
        "a stale digest",
        () =>
          call(app.url, "PUT", policyPath(target), {
            token: ADMIN,
            body: { mode: "legacy" },
            ifMatch: etag,
            headers: { "x-preview-digest": stale },
          }),
        409,
        "preview_stale",
      ],
      [
        "an invalid body",
        () => call(app.url, "PUT", policyPath(target), { token: ADMIN, body: { mode: "turbo" }, ifMatch: etag }),
        422,
        "invalid_policy",
      ],
      [
        "a conflict",
        () =>
          call(app.url, "PUT", policyPath(target), {
            token: ADMIN,
            body: { mode: "legacy" },
            ifMatch: etag - 1,
            headers: { "x-preview-digest": fresh.digest },
          }),
        412,
        "precondition_failed",
      ],
      [
        "cross-site",
        () =>
          call(app.url, "PUT", policyPath(target), {
            token: ADMIN,
            body: { mode: "legacy" },
            ifMatch: etag,
            headers: { "sec-fetch-site": "cross-site" },
          }),
        403,
        "cross_site",
      ],
      [
        "a cross-site DELETE",
        () =>
          call(app.url, "DELETE", policyPath(target), {
            token: ADMIN,
            ifMatch: etag,
            headers: { origin: "https://evil.example" },
          }),
        403,
        "cross_site",
      ],
      [
        "wrong content type",
        () =>
          call(app.url, "PUT", policyPath(target), {
            token: ADMIN,
            rawBody: '{"mode":"legacy"}',
            contentType: "text/plain",
            ifMatch: etag,
          }),
        415,
        "unsupported_media_type",
      ],
      [
        "too large",
        () =>
          call(app.url, "PUT", policyPath(target), {
            token: ADMIN,
            body: { mode: "legacy", pad: "x".repeat(65 * 1024) },
            ifMatch: etag,
          }),
        413,
        "payload_too_large",
      ],
      [
        "no credentials",
        () => call(app.url, "PUT", policyPath(target), { body: { mode: "legacy" }, ifMatch: etag }),
        401,
        "unauthorized",
      ],
      [
        "a DELETE with a stale digest",
        () =>
          call(app.url, "DELETE", policyPath(target), {
            token: ADMIN,
            ifMatch: etag,
            headers: { "x-preview-digest": stale },
          }),
        409,
        "preview_stale",
      ],
    ];
    for (const [what, send, status, code] of refusals) {
      const before = await writtenFingerprint(client, prefix);
      const res = await send();
      expect([res.status, res.body?.error?.code], what).toEqual([status, code]);
      expect(await writtenFingerprint(client, prefix), what).toBe(before);
    }
    expect((await read(target)).stored).toEqual({ mode: "drain", v: 1 });
  });
});

describe("one house for every endpoint", () => {
  it("an endpoint without parameters refuses unknown ones (400 invalid_query), writes included", async () => {
    for (const path of ["/api/v1/session?x=1", "/api/v1/openapi.json?x=1", "/api/v1/health?x=1", "/api/metrics?x=1"]) {
      const res = await call(app.url, "GET", path);
      expect([path, res.status, res.body?.error?.code]).toEqual([path, 400, "invalid_query"]);
    }
    const before = await writtenFingerprint(client, prefix);
    const res = await call(app.url, "PUT", `${policyPath("trust/params")}?force=1`, {
      token: ADMIN,
      body: {},
      ifMatch: 0,
    });
    expect([res.status, res.body.error.code]).toEqual([400, "invalid_query"]);
    expect(await writtenFingerprint(client, prefix)).toBe(before);
  });

  it("the OpenAPI document served lists every write with its headers and security", async () => {
    const doc = (await call(app.url, "GET", "/api/v1/openapi.json")).body;
    const put = doc.paths["/api/v1/policies/{target}"].put;
    expect(put.security).toEqual([{ bearer: [] }, { session: [] }]);
    expect(doc.components.parameters.XChangeReason).toMatchObject({
      in: "header",
      name: "X-Change-Reason",
      required: true,
    });
    expect(doc.components.securitySchemes.session).toMatchObject({
      type: "apiKey",
      in: "cookie",
      name: "console_session",
    });
    expect(Object.keys(doc.paths["/api/v1/policies/{target}/preview"].post.responses)).toContain("422");
  });
});
