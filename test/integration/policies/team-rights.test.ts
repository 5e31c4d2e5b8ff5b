// Single sign-on and team rights (console-api.md fourth version), with no browser: a real
// OpenID Connect provider (test/support/oidc-provider.ts) driven with fetch through its own
// login form, the console's route handlers in-process, a real etcd. A save inside the
// person's globs is 200 and audited with their email and the rule; outside them 403 forbidden
// with etcd unchanged (read back from etcd); the sign-in's own failures are typed: a tampered
// state, a sign-in with no cookie, a person no rule names, a provider that is down.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Etcd3 } from "etcd3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedEtcd } from "../../support/shared-etcd";
import { createRawEtcdClient } from "@/lib/etcd/raw";
import { resetConsoleEnv } from "@/lib/config/env";
import { startOidcProvider, writeTeamRules, type RunningProvider } from "../../support/oidc-provider";
import { testPrefix } from "../../support/prefix";
import { policyKey, seedPolicyFleet, seedTables } from "./fleet";
import { auditRecords, writtenFingerprint } from "./helpers";

const prefix = testPrefix("team-rights");
const CONSOLE = "http://127.0.0.1:9"; // the handlers run in-process; the provider only hands this URL back to the "browser"
const ADMIN_TOKEN = "adm-team-rights-token";
const PEOPLE = {
  alice: { password: "alice-pw", email: "Alice@Orders.example", groups: ["team-orders", "all-staff"] },
  bob: { password: "bob-pw", email: "bob@incident.example", groups: ["team-incident"] },
  mallory: { password: "mallory-pw", email: "mallory@elsewhere.example", groups: ["strangers"] },
};
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "team-rights-"));
let client: Etcd3;
let provider: RunningProvider;

beforeAll(async () => {
  const endpoints = sharedEtcd();
  client = createRawEtcdClient({ endpoints: endpoints.split(","), callTimeoutMs: 10_000 });
  const put = async (k: string, v: string) => Number((await client.put(k).value(v).exec()).header.revision);
  await seedPolicyFleet(put, prefix, Date.now());
  await seedTables(put, prefix, Date.now(), { "incident/db-failover": 5 });
  provider = await startOidcProvider({ redirectUri: `${CONSOLE}/api/v1/session/oidc/callback`, people: PEOPLE });
  const rules = writeTeamRules(dir, ['  - {group: all-staff, role: viewer, targets: ["*"]}']);
  Object.assign(process.env, {
    ETCD_ENDPOINTS: endpoints,
    ETCD_PREFIX: prefix,
    CONSOLE_SHADOW_SAMPLER: "off",
    CONSOLE_ADMIN_TOKENS: `deploy-bot:${ADMIN_TOKEN}`,
    CONSOLE_SESSION_SECRET: "team-rights-session-secret-0123456789",
    CONSOLE_OIDC_ISSUER: provider.issuer,
    CONSOLE_OIDC_CLIENT_ID: provider.clientId,
    CONSOLE_OIDC_CLIENT_SECRET: provider.clientSecret,
    CONSOLE_OIDC_REDIRECT_URL: `${CONSOLE}/api/v1/session/oidc/callback`,
    CONSOLE_RBAC_FILE: rules,
  });
  resetConsoleEnv();
});

afterAll(async () => {
  await provider?.stop();
  client?.close();
  for (const v of ["CONSOLE_ADMIN_TOKENS", "CONSOLE_SESSION_SECRET", "CONSOLE_RBAC_FILE"]) delete process.env[v];
  for (const v of ["ISSUER", "CLIENT_ID", "CLIENT_SECRET", "REDIRECT_URL"]) delete process.env[`CONSOLE_OIDC_${v}`];
  resetConsoleEnv();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The cookie pairs a response sets (`name=value`), and the ones it clears. */
function setCookies(res: Response): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of res.headers.getSetCookie()) {
    const pair = line.split(";")[0];
    const eq = pair.indexOf("=");
    out.set(pair.slice(0, eq), pair.slice(eq + 1));
  }
  return out;
}

const login = async (query: string, accept = "text/html") => {
  const { GET } = await import("@/app/api/v1/session/oidc/login/route");
  return GET(new Request(`${CONSOLE}/api/v1/session/oidc/login${query}`, { headers: { accept } }));
};
const callback = async (search: string, cookie: string | null, accept = "text/html") => {
  const { GET } = await import("@/app/api/v1/session/oidc/callback/route");
  const headers: Record<string, string> = { accept };
  if (cookie) headers.cookie = cookie;
  return GET(new Request(`${CONSOLE}/api/v1/session/oidc/callback${search}`, { headers }));
};

/**
 * A browser's trip through the provider with fetch: its cookies kept per provider, its login
 * form filled in. Answers the callback's query and the sign-in cookie the login set.
 */
async function throughProvider(username: string, password: string, returnTo = "/policies") {
  const started = await login(`?return_to=${encodeURIComponent(returnTo)}`);
  expect(started.status).toBe(302);
  const sealed = setCookies(started).get("console_oidc");
  expect(sealed?.length ?? 0, "the sealed sign-in cookie").toBeGreaterThan(20);
  const authorize = new URL(started.headers.get("location")!);
  expect(authorize.origin).toBe(provider.issuer);
  expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
  expect(authorize.searchParams.get("scope")).toBe("openid email profile groups");
  const jar = new Map<string, string>();
  let url = authorize.href;
  let form: Record<string, string> | null = null;
  for (let hop = 0; hop < 10; hop++) {
    const res = await fetch(url, {
      method: form ? "POST" : "GET",
      redirect: "manual",
      headers: {
        cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; "),
        ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}),
      },
      body: form ? new URLSearchParams(form).toString() : undefined,
    });
    for (const [k, v] of setCookies(res)) jar.set(k, v);
    form = null;
    const location = res.headers.get("location");
    if (location?.startsWith(CONSOLE)) return { search: new URL(location).search, cookie: `console_oidc=${sealed}` };
    if (location) {
      url = new URL(location, url).href;
      continue;
    }
    const page = await res.text();
    expect(res.status, page).toBe(200);
    if (page.includes("Wrong username or password")) return null;
    expect(page).toContain('name="password"');
    form = { username, password };
  }
  throw new Error("the provider never sent the browser back");
}

/** Signs `username` in and answers their session cookie. */
async function signIn(username: keyof typeof PEOPLE): Promise<string> {
  const back = await throughProvider(username, PEOPLE[username].password);
  const res = await callback(back!.search, back!.cookie);
  expect(res.status, await res.clone().text()).toBe(200);
  const session = setCookies(res).get("console_session");
  expect(session?.length ?? 0, "the session cookie").toBeGreaterThan(20);
  expect(setCookies(res).get("console_oidc")).toBe(""); // the sign-in's cookie is cleared
  return `console_session=${session}`;
}

async function save(target: string, cookie: string, minGenerations: number, method: "PUT" | "DELETE" = "PUT") {
  const route = await import("@/app/api/v1/policies/[target]/route");
  const request = new Request(`${CONSOLE}/api/v1/policies/${encodeURIComponent(target)}`, {
    method,
    headers: {
      cookie,
      origin: CONSOLE,
      "sec-fetch-site": "same-origin",
      "content-type": "application/json",
      "if-match": "0",
      "x-change-reason": "team rights integration test",
    },
    body: method === "PUT" ? JSON.stringify({ merge: { min_generations: minGenerations } }) : undefined,
  });
  const res = await route[method](request, { params: Promise.resolve({ target }) });
  return {
    status: res.status,
    body: (await res.json()) as { error?: { code: string; message: string; admin_targets?: string[] } },
  };
}

async function session(cookie: string, target?: string) {
  const { GET } = await import("@/app/api/v1/session/route");
  const query = target === undefined ? "" : `?target=${encodeURIComponent(target)}`;
  const res = await GET(new Request(`${CONSOLE}/api/v1/session${query}`, { headers: { cookie } }));
  return (await res.json()) as Record<string, unknown>;
}

describe("a save is checked against the person's rules", () => {
  it("inside their globs: 200, stored, audited with their email and the rule that allowed it", async () => {
    const alice = await signIn("alice");
    expect(await session(alice, "orders/eu")).toMatchObject({
      actor: "alice@orders.example",
      role: "admin",
      signed_in_with: "oidc",
      groups: ["all-staff", "team-orders"],
      admin_targets: ["orders/*"],
      target: {
        can_write: true,
        rule: { source: "rbac_file", index: 0, subject: "group team-orders", glob: "orders/*" },
      },
    });
    const saved = await save("orders/eu", alice, 3);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(JSON.parse((await client.get(policyKey(prefix, "orders/eu")).string()) ?? "null")).toEqual({
      v: 1,
      merge: { min_generations: 3 },
    });
    const audit = (await auditRecords(client, prefix)).find((r) => r.target === "orders/eu");
    expect(audit).toMatchObject({
      actor: "alice@orders.example",
      reason: "team rights integration test",
      rule: { source: "rbac_file", index: 0, subject: "group team-orders", glob: "orders/*" },
    });
    // the audit filter finds it by the email, in any case
    const { GET } = await import("@/app/api/v1/audit/route");
    const listed = await GET(
      new Request(`${CONSOLE}/api/v1/audit?actor=${encodeURIComponent("ALICE@orders.example")}`),
    );
    const entries = ((await listed.json()) as { entries: { target: string; rule: unknown }[] }).entries;
    expect(entries.map((e) => e.target)).toEqual(["orders/eu"]);
    expect(entries[0].rule).toEqual({ source: "rbac_file", index: 0, subject: "group team-orders", glob: "orders/*" });
  });

  it("outside them: 403 forbidden, naming the globs, and etcd is unchanged", async () => {
    const alice = await signIn("alice");
    const bob = await signIn("bob");
    const before = await writtenFingerprint(client, prefix);
    for (const [cookie, target, method, globs] of [
      [alice, "incident/db-failover", "PUT", ["orders/*"]],
      [alice, "_default", "PUT", ["orders/*"]],
      [alice, "clicks", "DELETE", ["orders/*"]],
      [bob, "orders/us", "PUT", ["incident/*"]],
    ] as const) {
      const refused = await save(target, cookie, 2, method);
      expect(refused.status, `${target} ${method}`).toBe(403);
      expect(refused.body.error?.code).toBe("forbidden");
      expect(refused.body.error?.admin_targets).toEqual(globs);
      expect(refused.body.error?.message).toContain("is outside them");
    }
    // refused before the body is read: a body that is not even JSON answers 403, not 400
    const route = await import("@/app/api/v1/policies/[target]/route");
    const garbled = await route.PUT(
      new Request(`${CONSOLE}/api/v1/policies/incident%2Fdb-failover`, {
        method: "PUT",
        headers: { cookie: alice, "content-type": "application/json", "if-match": "0", "x-change-reason": "x" },
        body: "{not json",
      }),
      { params: Promise.resolve({ target: "incident/db-failover" }) },
    );
    expect(garbled.status).toBe(403);
    expect(await writtenFingerprint(client, prefix)).toBe(before);
    expect(await client.get(policyKey(prefix, "incident/db-failover")).string()).toBeNull();
    // inside bob's own globs his save goes through
    expect((await save("incident/db-failover", bob, 4)).status).toBe(200);
  });

  it("tokens keep working for automation: an admin token is an admin of `*`", async () => {
    const res = await save("_default", "", 9).catch(() => null);
    expect(res?.status).toBe(401);
    const route = await import("@/app/api/v1/policies/[target]/route");
    const put = await route.PUT(
      new Request(`${CONSOLE}/api/v1/policies/_default`, {
        method: "PUT",
        headers: {
          authorization: `Bearer ${ADMIN_TOKEN}`,
          "content-type": "application/json",
          "if-match": "0",
          "x-change-reason": "automation still works",
        },
        body: JSON.stringify({ merge: { min_generations: 9 } }),
      }),
      { params: Promise.resolve({ target: "_default" }) },
    );
    expect(put.status).toBe(200);
    const audit = (await auditRecords(client, prefix)).find((r) => r.target === "_default");
    expect(audit).toMatchObject({
      actor: "deploy-bot",
      rule: { source: "token", index: null, subject: null, glob: "*" },
    });
  });
});

describe("the sign-in's own failures are typed", () => {
  it("a wrong password stays at the provider's form", async () => {
    expect(await throughProvider("alice", "not-her-password")).toBeNull();
  });

  it("a tampered state or code, a missing sign-in cookie, a person no rule names", async () => {
    const back = await throughProvider("alice", PEOPLE.alice.password);
    const tampered = back!.search.replace(/state=[^&]+/, "state=forged");
    const forged = await callback(tampered, back!.cookie, "application/json");
    expect(forged.status).toBe(401);
    expect(((await forged.json()) as { error: { code: string } }).error.code).toBe("sign_in_failed");
    const noCookie = await callback(back!.search, null);
    expect(noCookie.status).toBe(303);
    expect(noCookie.headers.get("location")).toBe("/signin?sso_error=sign_in_expired&next=%2Fpolicies");
    // the code was never redeemed above: with its own cookie it still signs alice in, once
    expect((await callback(back!.search, back!.cookie)).status).toBe(200);
    expect(
      ((await (await callback(back!.search, back!.cookie, "application/json")).json()) as { error: { code: string } })
        .error.code,
    ).toBe("sign_in_failed");
    const stranger = await throughProvider("mallory", PEOPLE.mallory.password);
    const refused = await callback(stranger!.search, stranger!.cookie, "application/json");
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("no_rule");
  });

  it("return_to must be a path of this console: anything else lands on /policies", async () => {
    const started = await login(`?return_to=${encodeURIComponent("https://evil.example/x")}`);
    expect(started.status).toBe(302);
    const back = await throughProvider("alice", PEOPLE.alice.password, "//evil.example/x");
    const page = await (await callback(back!.search, back!.cookie)).text();
    expect(page).toContain('content="0;url=/policies"');
    const inside = await throughProvider("alice", PEOPLE.alice.password, "/policies/orders%2Feu?x=<b>");
    const landed = await (await callback(inside!.search, inside!.cookie)).text();
    expect(landed).toContain('content="0;url=/policies/orders%2Feu?x=&lt;b&gt;"');
  });

  it("a provider that is down: a typed 503 for API clients, the sign-in page for a browser", async () => {
    const back = await throughProvider("alice", PEOPLE.alice.password);
    await provider.stop();
    const api = await login("?return_to=/policies", "application/json");
    expect(api.status).toBe(503);
    expect(((await api.json()) as { error: { code: string } }).error.code).toBe("provider_unavailable");
    const browser = await login(`?return_to=${encodeURIComponent("/policies/orders%2Feu")}`);
    expect(browser.status).toBe(303);
    expect(browser.headers.get("location")).toBe(
      "/signin?sso_error=provider_unavailable&next=%2Fpolicies%2Forders%252Feu",
    );
    // down between the login and the callback: the same
    const late = await callback(back!.search, back!.cookie, "application/json");
    expect(late.status).toBe(503);
    expect(((await late.json()) as { error: { code: string } }).error.code).toBe("provider_unavailable");
  });
});
