// Policy administration against a real etcd and a real `next start` (console-api.md
// policies and Security): the CAS under 20 concurrent editors, invalid bodies that write
// nothing, the auth matrix, 413/415/428, audit, preview and sessions.
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { Etcd3 } from "etcd3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedEtcd } from "../../support/shared-etcd";
import { createRawEtcdClient } from "@/lib/etcd/raw";
import { BUILTIN_POLICY } from "@/lib/schema/policy";
import { startApp, type RunningApp } from "../../support/app";
import { testPrefix } from "../../support/prefix";
import { EXECUTOR_ID, POLICY_TABLES, policyKey, seedPolicyFleet } from "./fleet";
import { DEFAULT_REASON, auditRecords, call, policyPath, writtenFingerprint } from "./helpers";

const ADMIN = `adm-${randomBytes(12).toString("hex")}`;
const VIEWER = `view-${randomBytes(12).toString("hex")}`;
const prefix = testPrefix("policies");
let client: Etcd3;
let app: RunningApp;

beforeAll(async () => {
  const endpoints = sharedEtcd();
  client = createRawEtcdClient({ endpoints: endpoints.split(","), callTimeoutMs: 10_000 });
  await seedPolicyFleet(
    async (k, v) => Number((await client.put(k).value(v).exec()).header.revision),
    prefix,
    Date.now(),
  );
  app = await startApp({
    ETCD_ENDPOINTS: endpoints,
    ETCD_PREFIX: prefix,
    CONSOLE_ADMIN_TOKENS: ADMIN,
    CONSOLE_VIEWER_TOKENS: VIEWER,
  });
});

afterAll(async () => {
  await app?.stop();
  client?.close();
});

const get = (path: string, token = VIEWER) => call(app.url, "GET", path, { token });

describe("GET /api/v1/policies/{target}", () => {
  it("answers the built-in defaults with ETag 0 when nothing is stored", async () => {
    const res = await get(policyPath("_default"));
    expect(res.status).toBe(200);
    expect(res.headers.get("etag")).toBe("0");
    expect(res.body.mod_revision).toBe(0);
    expect(res.body.stored).toBeNull();
    expect(res.body.effective).toEqual(BUILTIN_POLICY);
    expect(res.body.sources.default).toBe(false);
    expect(res.body.sources.fields["merge.min_generations"]).toBe("builtin");
  });
});

describe("concurrent editors", () => {
  it("20 PUTs from the same read revision: one 200, nineteen 412, one audit record, the winner stored", async () => {
    const target = "race/table one";
    const read = await get(policyPath(target));
    expect(read.status).toBe(200);
    const etag = read.headers.get("etag");
    expect(etag).toBe("0");
    const before = (await auditRecords(client, prefix)).length;
    const bodies = Array.from({ length: 20 }, (_, i) => ({ v: 1, merge: { min_generations: i + 1 } }));
    const answers = await Promise.all(
      bodies.map((body) => call(app.url, "PUT", policyPath(target), { token: ADMIN, body, ifMatch: etag! })),
    );
    const ok = answers.filter((a) => a.status === 200);
    const conflicts = answers.filter((a) => a.status === 412);
    expect(ok.length).toBe(1);
    expect(conflicts.length).toBe(19);
    const winner = bodies[answers.indexOf(ok[0])];
    const stored = JSON.parse((await client.get(policyKey(prefix, target)).string()) ?? "null");
    expect(stored).toEqual(winner);
    for (const c of conflicts) {
      expect(c.body.error.code).toBe("precondition_failed");
      expect(c.body.error.stored).toEqual(winner);
      expect(c.body.error.mod_revision).toBe(ok[0].body.mod_revision);
    }
    const records = (await auditRecords(client, prefix)).filter((r) => r.target === target);
    expect(records.length).toBe(1);
    expect((await auditRecords(client, prefix)).length).toBe(before + 1);
    expect(records[0]).toMatchObject({ target, before: null, after: winner, reason: DEFAULT_REASON });
    const listed = await get(`/api/v1/audit?target=${encodeURIComponent(target)}`);
    expect(listed.body.entries.length).toBe(1);
    expect(listed.body.entries[0].mod_revision).toBe(ok[0].body.mod_revision);
  });
});

describe("invalid bodies write nothing", () => {
  const target = POLICY_TABLES[0];
  const cases: { name: string; call: () => Promise<{ status: number; body: any }>; status: number; code: string }[] = [
    { name: "unknown top-level key", call: () => put({ v: 1, bogus: 1 }), status: 422, code: "invalid_policy" },
    { name: "unknown nested key", call: () => put({ merge: { min_gens: 3 } }), status: 422, code: "invalid_policy" },
    { name: "v other than 1", call: () => put({ v: 2 }), status: 422, code: "invalid_policy" },
    { name: "mode outside the enum", call: () => put({ mode: "turbo" }), status: 422, code: "invalid_policy" },
    {
      name: "min_generations 0",
      call: () => put({ merge: { min_generations: 0 } }),
      status: 422,
      code: "invalid_policy",
    },
    { name: "negative min_bytes", call: () => put({ merge: { min_bytes: -1 } }), status: 422, code: "invalid_policy" },
    {
      name: "fractional max_age_secs",
      call: () => put({ merge: { max_age_secs: 1.5 } }),
      status: 422,
      code: "invalid_policy",
    },
    {
      name: "min above the inherited critical (256)",
      call: () => put({ merge: { min_generations: 300 } }),
      status: 422,
      code: "invalid_policy",
    },
    { name: "empty allow-list", call: () => put({ executors_allowed: [] }), status: 422, code: "invalid_policy" },
    {
      name: "unknown allow-list value",
      call: () => put({ kinds_allowed: ["Vacuum"] }),
      status: 422,
      code: "invalid_policy",
    },
    {
      name: "string for an integer",
      call: () => put({ merge: { min_generations: "8" } }),
      status: 422,
      code: "invalid_policy",
    },
    { name: "an array body", call: () => put([1, 2]), status: 422, code: "invalid_policy" },
    {
      name: "malformed JSON",
      call: () => call(app.url, "PUT", policyPath(target), { token: ADMIN, rawBody: "{", ifMatch: 0 }),
      status: 400,
      code: "invalid_json",
    },
    {
      name: "text/plain",
      call: () =>
        call(app.url, "PUT", policyPath(target), {
          token: ADMIN,
          rawBody: "{}",
          contentType: "text/plain",
          ifMatch: 0,
        }),
      status: 415,
      code: "unsupported_media_type",
    },
    {
      name: "form-encoded",
      call: () =>
        call(app.url, "PUT", policyPath(target), {
          token: ADMIN,
          rawBody: "a=1",
          contentType: "application/x-www-form-urlencoded",
          ifMatch: 0,
        }),
      status: 415,
      code: "unsupported_media_type",
    },
    {
      name: "a body over 64 KiB",
      call: () => put({ mode: "legacy", pad: "x".repeat(70 * 1024) }),
      status: 413,
      code: "payload_too_large",
    },
    {
      name: "a streamed body over 64 KiB without Content-Length",
      call: () => putStream(66),
      status: 413,
      code: "payload_too_large",
    },
    {
      name: "no If-Match",
      call: () => call(app.url, "PUT", policyPath(target), { token: ADMIN, body: { mode: "legacy" } }),
      status: 428,
      code: "precondition_required",
    },
    {
      name: "a stale If-Match",
      call: () => put({ mode: "legacy" }, 999_999),
      status: 412,
      code: "precondition_failed",
    },
  ];
  async function putStream(kib: number) {
    const body = new ReadableStream({
      start(c) {
        c.enqueue(new TextEncoder().encode('{"v":1,"mode":"legacy","pad":"'));
        for (let i = 0; i < kib; i++) c.enqueue(new TextEncoder().encode("x".repeat(1024)));
        c.enqueue(new TextEncoder().encode('"}'));
        c.close();
      },
    });
    const init = {
      method: "PUT",
      body,
      duplex: "half",
      headers: {
        authorization: `Bearer ${ADMIN}`,
        "content-type": "application/json",
        "if-match": "0",
        "x-change-reason": DEFAULT_REASON,
      },
    };
    const res = await fetch(`${app.url}${policyPath(target)}`, init as RequestInit);
    return { status: res.status, body: await res.json() };
  }
  function put(body: unknown, ifMatch: number = 0) {
    return call(app.url, "PUT", policyPath(target), { token: ADMIN, body, ifMatch });
  }
  for (const c of cases) {
    it(`${c.name} → ${c.status} ${c.code}, prefix unchanged`, async () => {
      const before = await writtenFingerprint(client, prefix);
      const res = await c.call();
      expect(res.status).toBe(c.status);
      expect(res.body.error.code).toBe(c.code);
      expect(await writtenFingerprint(client, prefix)).toBe(before);
    });
  }
  it("a refusal that leaves the body unread (413, 415) closes the connection; a read one keeps it", async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const put = (headers: Record<string, string>, body: string) =>
      new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
        const req = http.request(
          `${app.url}${policyPath(target)}`,
          {
            method: "PUT",
            agent,
            headers: {
              authorization: `Bearer ${ADMIN}`,
              "if-match": "0",
              "x-change-reason": "keep-alive check",
              ...headers,
            },
          },
          (res) => {
            res.resume();
            res.on("end", () => resolve({ status: res.statusCode!, connection: res.headers.connection }));
          },
        );
        req.on("error", reject);
        req.end(body);
      });
    try {
      expect(await put({ "content-type": "text/plain" }, "{}")).toEqual({ status: 415, connection: "close" });
      expect(await put({ "content-type": "application/json" }, "x".repeat(70 * 1024))).toEqual({
        status: 413,
        connection: "close",
      });
      expect(await put({ "content-type": "application/json" }, "{")).toEqual({ status: 400, connection: "keep-alive" });
    } finally {
      agent.destroy();
    }
  });
  it("422 names the offending fields", async () => {
    const res = await call(app.url, "PUT", policyPath(target), {
      token: ADMIN,
      body: { merge: { min_generations: 10, critical_generations: 5 } },
      ifMatch: 0,
    });
    expect(res.status).toBe(422);
    expect(res.body.error.issues.map((i: { path: string }) => i.path)).toEqual(["merge.critical_generations"]);
  });
  it("a stored document with a newer v is never overwritten (409) and never deleted", async () => {
    const t = "from-the-future";
    await client
      .put(policyKey(prefix, t))
      .value(JSON.stringify({ v: 2, shiny: true }))
      .exec();
    const read = await get(policyPath(t));
    expect(read.body.stored_issue.reason).toBe("unknown_version");
    const before = await writtenFingerprint(client, prefix);
    const res = await call(app.url, "PUT", policyPath(t), {
      token: ADMIN,
      body: { mode: "legacy" },
      ifMatch: read.headers.get("etag")!,
    });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("unsupported_version");
    const del = await call(app.url, "DELETE", policyPath(t), { token: ADMIN, ifMatch: read.headers.get("etag")! });
    expect(del.status).toBe(409);
    expect(await writtenFingerprint(client, prefix)).toBe(before);
  });
});

describe("auth matrix", () => {
  const target = POLICY_TABLES[1];
  const body = { merge: { min_generations: 3 } };
  it("reads need a viewer or admin token when viewer tokens are set", async () => {
    expect((await call(app.url, "GET", policyPath(target))).status).toBe(401);
    expect((await call(app.url, "GET", "/api/v1/audit")).status).toBe(401);
    expect((await call(app.url, "GET", policyPath(target), { token: "wrong" })).status).toBe(401);
    expect((await get(policyPath(target), VIEWER)).status).toBe(200);
    expect((await get(policyPath(target), ADMIN)).status).toBe(200);
  });
  it("writes: none 401, viewer 403, cross-site admin 403, admin 200 — nothing written until the last", async () => {
    const before = await writtenFingerprint(client, prefix);
    const none = await call(app.url, "PUT", policyPath(target), { body, ifMatch: 0 });
    expect([none.status, none.body.error.code]).toEqual([401, "unauthorized"]);
    const viewer = await call(app.url, "PUT", policyPath(target), { token: VIEWER, body, ifMatch: 0 });
    expect([viewer.status, viewer.body.error.code]).toEqual([403, "forbidden"]);
    const crossOrigin = await call(app.url, "PUT", policyPath(target), {
      token: ADMIN,
      body,
      ifMatch: 0,
      headers: { origin: "https://evil.example" },
    });
    expect([crossOrigin.status, crossOrigin.body.error.code]).toEqual([403, "cross_site"]);
    const crossSite = await call(app.url, "PUT", policyPath(target), {
      token: ADMIN,
      body,
      ifMatch: 0,
      headers: { "sec-fetch-site": "cross-site" },
    });
    expect([crossSite.status, crossSite.body.error.code]).toEqual([403, "cross_site"]);
    const crossDelete = await call(app.url, "DELETE", policyPath(target), {
      token: ADMIN,
      ifMatch: 0,
      headers: { origin: "https://evil.example" },
    });
    expect(crossDelete.status).toBe(403);
    const crossPreview = await call(app.url, "POST", `${policyPath(target)}/preview`, {
      token: ADMIN,
      body,
      headers: { origin: "https://evil.example" },
    });
    expect(crossPreview.status).toBe(403);
    expect(await writtenFingerprint(client, prefix)).toBe(before);
    const admin = await call(app.url, "PUT", policyPath(target), {
      token: ADMIN,
      body,
      ifMatch: 0,
      headers: { origin: app.url, "sec-fetch-site": "same-origin" },
    });
    expect(admin.status).toBe(200);
    expect(admin.headers.get("etag")).toBe(String(admin.body.mod_revision));
    expect(admin.body.stored).toEqual({ ...body, v: 1 });
    expect(admin.body.effective.merge.min_generations).toBe(3);
    expect(admin.body.sources.fields["merge.min_generations"]).toBe("table");
  });
  it("read-only mode: no admin tokens → every write 403 read_only, reads open", async () => {
    const ro = await startApp({ ETCD_ENDPOINTS: sharedEtcd(), ETCD_PREFIX: prefix });
    try {
      const before = await writtenFingerprint(client, prefix);
      const res = await call(ro.url, "PUT", policyPath(target), { token: ADMIN, body, ifMatch: 0 });
      expect([res.status, res.body.error.code]).toEqual([403, "read_only"]);
      expect(res.body.error.message).toMatch(/read-only/);
      expect((await call(ro.url, "DELETE", policyPath(target), { token: ADMIN, ifMatch: 0 })).status).toBe(403);
      expect((await call(ro.url, "GET", policyPath(target))).status).toBe(200);
      expect((await call(ro.url, "GET", "/api/v1/session")).body).toMatchObject({ read_only: true, can_write: false });
      expect(await writtenFingerprint(client, prefix)).toBe(before);
    } finally {
      await ro.stop();
    }
  });
});

describe("sessions", () => {
  it("sign-in sets an httpOnly SameSite=Strict cookie that authorizes same-origin writes; the actor never holds the token", async () => {
    const signIn = await call(app.url, "POST", "/api/v1/session", {
      body: { token: ADMIN },
      headers: { origin: app.url },
    });
    expect(signIn.status).toBe(200);
    const setCookie = signIn.headers.get("set-cookie") ?? "";
    // the session lasts an hour (its JWT's exp); the cookie 12 h more, so a late request is told it expired
    expect(setCookie).toMatch(
      /^console_session=[\w-]+\.[\w-]+\.[\w-]+; Path=\/; HttpOnly; SameSite=Strict; Max-Age=46800$/,
    );
    const cookie = setCookie.split(";")[0];
    const target = POLICY_TABLES[2];
    const saved = await call(app.url, "PUT", policyPath(target), {
      cookie,
      body: { mode: "drain" },
      ifMatch: 0,
      headers: { origin: app.url },
    });
    expect(saved.status).toBe(200);
    const audit = await call(app.url, "GET", `/api/v1/audit?target=${encodeURIComponent(target)}`, { cookie });
    expect(audit.status).toBe(200);
    expect(audit.body.entries[0].actor).toMatch(/^admin:[0-9a-f]{12}$/);
    expect(JSON.stringify(audit.body)).not.toContain(ADMIN);
    const me = await call(app.url, "GET", "/api/v1/session", { cookie });
    expect(me.body).toMatchObject({ role: "admin", can_write: true, read_only: false });
    const viewerSession = await call(app.url, "POST", "/api/v1/session", { body: { token: VIEWER } });
    const viewerCookie = (viewerSession.headers.get("set-cookie") ?? "").split(";")[0];
    expect((await call(app.url, "GET", policyPath(target), { cookie: viewerCookie })).status).toBe(200);
    expect(
      (
        await call(app.url, "PUT", policyPath(target), {
          cookie: viewerCookie,
          body: {},
          ifMatch: saved.body.mod_revision,
        })
      ).status,
    ).toBe(403);
  });
  it("refuses a cross-site sign-in, a bad token and a forged cookie", async () => {
    expect(
      (
        await call(app.url, "POST", "/api/v1/session", {
          body: { token: ADMIN },
          headers: { origin: "https://evil.example" },
        })
      ).status,
    ).toBe(403);
    expect((await call(app.url, "POST", "/api/v1/session", { body: { token: "nope" } })).status).toBe(401);
    const forged = "console_session=eyJhbGciOiJIUzI1NiJ9.eyJyb2xlIjoiYWRtaW4iLCJzdWIiOiJhZG1pbjp4In0.AAAA";
    expect((await call(app.url, "PUT", policyPath("x"), { cookie: forged, body: {}, ifMatch: 0 })).status).toBe(401);
  });
  it("a form sign-in redirects (303) with the cookie; a bad one back to /signin", async () => {
    const ok = await call(app.url, "POST", "/api/v1/session", {
      rawBody: `token=${ADMIN}&next=%2Fpolicies%2Fclicks`,
      contentType: "application/x-www-form-urlencoded",
    });
    expect(ok.status).toBe(303);
    expect(ok.headers.get("location")).toBe("/policies/clicks");
    expect(ok.headers.get("set-cookie")).toMatch(/HttpOnly; SameSite=Strict/);
    const bad = await call(app.url, "POST", "/api/v1/session", {
      rawBody: "token=nope&next=//evil.example",
      contentType: "application/x-www-form-urlencoded",
    });
    expect(bad.status).toBe(303);
    expect(bad.headers.get("location")).toBe("/signin?error=1&next=%2Fpolicies");
  });
});

describe("delete and audit", () => {
  it("DELETE removes an override with If-Match and audits it; never _default; 404 when absent", async () => {
    const target = "to-delete";
    const created = await call(app.url, "PUT", policyPath(target), {
      token: ADMIN,
      body: { backpressure: "off" },
      ifMatch: 0,
    });
    expect(created.status).toBe(200);
    expect((await call(app.url, "DELETE", policyPath(target), { token: ADMIN })).status).toBe(428);
    expect(
      (await call(app.url, "DELETE", policyPath(target), { token: ADMIN, ifMatch: created.body.mod_revision - 1 }))
        .status,
    ).toBe(412);
    const del = await call(app.url, "DELETE", policyPath(target), { token: ADMIN, ifMatch: created.body.mod_revision });
    expect(del.status).toBe(200);
    expect(await client.get(policyKey(prefix, target)).string()).toBeNull();
    expect((await call(app.url, "DELETE", policyPath(target), { token: ADMIN, ifMatch: 0 })).status).toBe(404);
    const def = await call(app.url, "DELETE", policyPath("_default"), { token: ADMIN, ifMatch: 0 });
    expect([def.status, def.body.error.code]).toEqual([400, "cannot_delete_default"]);
    const audit = await get(`/api/v1/audit?target=${target}`);
    expect(audit.body.entries.map((e: { before: unknown; after: unknown }) => [e.before, e.after])).toEqual([
      [{ backpressure: "off", v: 1 }, null],
      [null, { backpressure: "off", v: 1 }],
    ]);
    expect(audit.body.entries[0].mod_revision).toBe(del.body.revision);
  });
  it("lists newest first and pages with the cursor", async () => {
    const target = "paged";
    let rev = 0;
    for (let i = 1; i <= 5; i++) {
      const res = await call(app.url, "PUT", policyPath(target), {
        token: ADMIN,
        body: { merge: { min_generations: i } },
        ifMatch: rev,
      });
      expect(res.status).toBe(200);
      rev = res.body.mod_revision;
    }
    const first = await get(`/api/v1/audit?target=${target}&limit=2`);
    expect(first.body.entries.map((e: any) => e.after.merge.min_generations)).toEqual([5, 4]);
    const second = await get(`/api/v1/audit?target=${target}&limit=2&cursor=${first.body.next_cursor}`);
    expect(second.body.entries.map((e: any) => e.after.merge.min_generations)).toEqual([3, 2]);
    const third = await get(`/api/v1/audit?target=${target}&limit=2&cursor=${second.body.next_cursor}`);
    expect(third.body.entries.map((e: any) => e.after.merge.min_generations)).toEqual([1]);
    expect(third.body.next_cursor).toBeNull();
    const all = await get(`/api/v1/audit?limit=500`);
    const ats = all.body.entries.map((e: { at_ms: number }) => e.at_ms);
    expect(ats).toEqual([...ats].sort((a, b) => b - a));
  });
});

describe("preview", () => {
  it("lists the one table a lower merge.min_generations moves, counts the rest, writes nothing", async () => {
    const target = POLICY_TABLES[0];
    const before = await writtenFingerprint(client, prefix);
    const res = await call(app.url, "POST", `${policyPath(target)}/preview`, {
      token: ADMIN,
      body: { merge: { min_generations: 2 } },
    });
    expect(res.status).toBe(200);
    expect(res.body.changed.map((c: { target: string }) => c.target)).toEqual([target]);
    const [row] = res.body.changed;
    // 5 pending: below the built-in 8 it is a tail, never placed; above 2 it is due and placed
    expect([row.before.class, row.before.verdict.state, row.before.verdict.code]).toEqual([
      "tail",
      "would_skip",
      "tail_below_threshold",
    ]);
    expect([row.after.class, row.after.verdict.state, row.after.verdict.executor]).toEqual([
      "normal",
      "would_place",
      EXECUTOR_ID,
    ]);
    expect(res.body.unchanged_count).toBe(POLICY_TABLES.length - 1);
    expect(await writtenFingerprint(client, prefix)).toBe(before);
    const invalid = await call(app.url, "POST", `${policyPath(target)}/preview`, {
      token: ADMIN,
      body: { merge: { min_generations: 0 } },
    });
    expect(invalid.status).toBe(422);
  });
});

describe("secrets", () => {
  it("no token appears in the server log", () => {
    expect(app.logs()).not.toContain(ADMIN);
    expect(app.logs()).not.toContain(VIEWER);
  });
});
