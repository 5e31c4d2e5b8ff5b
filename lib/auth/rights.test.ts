// console-api.md "Single sign-on and team rights": globs, the rights of tokens and of people,
// a person's session (keyed apart from the tokens'), and an expired session told apart from a forged one.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { coveringGlob, globCovers } from "@/lib/schema/target-glob";
import { authorizeSave, personRole, whoIs } from "./authorize";
import { readAuthConfig } from "./config";
import { AuthError } from "./errors";
import { grantsOf, writeRightOn } from "./rights";
import { readSession, SESSION_TTL_SECS, signPersonSession, signSession, verifySession } from "./session";
import { sessionAnswer } from "./session-answer";

const NOW = 1_800_000_000_000;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rights-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const rulesFile = path.join(dir, "rules.yaml");
fs.writeFileSync(
  rulesFile,
  `rules:
  - {group: team-orders, role: admin, targets: ["orders/*"]}
  - {group: team-incident, role: admin, targets: ["incident/*", "clicks"]}
  - {group: sre, role: admin, targets: ["*"]}
  - {actor: carol@example.com, role: viewer, targets: ["*"]}
  - {group: everyone, role: viewer, targets: ["*"]}
`,
);
const OIDC = {
  CONSOLE_OIDC_ISSUER: "https://id.example.com",
  CONSOLE_OIDC_CLIENT_ID: "console",
  CONSOLE_OIDC_CLIENT_SECRET: "client-secret",
  CONSOLE_OIDC_REDIRECT_URL: "https://console.example.com/api/v1/session/oidc/callback",
};
const env = {
  ...OIDC,
  CONSOLE_RBAC_FILE: rulesFile,
  CONSOLE_ADMIN_TOKENS: "bot:adm-bot",
  CONSOLE_SESSION_SECRET: "s".repeat(32),
};
const config = readAuthConfig(env);
const person = (actor: string, groups: string[]) => ({
  actor,
  role: personRole(config, actor, groups)!,
  person: { groups },
});

function req(headers: Record<string, string> = {}): Request {
  return new Request("http://console.test/api/v1/policies/x", {
    method: "PUT",
    headers: { host: "console.test", ...headers },
  });
}

describe("globs: `*` everything, `orders/*` a prefix, else one exact name; `_default` only by `*`", () => {
  it.each([
    ["*", "orders/eu", true],
    ["*", "_default", true],
    ["orders/*", "orders/eu", true],
    ["orders/*", "orders/", true],
    ["orders/*", "orders", false],
    ["orders/*", "ordersx/eu", false],
    ["orders*", "ordersx/eu", true],
    ["clicks", "clicks", true],
    ["clicks", "clicks/2", false],
    ["_*", "_default", false],
    ["_*", "_staging", true],
  ])("%s covers %s: %s", (glob, target, covers) => {
    expect(globCovers(glob, target)).toBe(covers);
  });
  it("the first covering glob is the one named", () => {
    expect(coveringGlob(["clicks", "orders/*", "*"], "orders/eu")).toBe("orders/*");
    expect(coveringGlob(["clicks"], "orders/eu")).toBeNull();
  });
});

describe("rights", () => {
  it("a person's role comes from the rules naming them or their groups; no rule, no entry", () => {
    expect(personRole(config, "alice@example.com", ["team-orders"])).toBe("admin");
    expect(personRole(config, "Carol@Example.com", [])).toBe("viewer"); // emails in any case
    expect(personRole(config, "dave@example.com", ["everyone"])).toBe("viewer");
    expect(personRole(config, "eve@example.com", ["strangers"])).toBeNull();
    // without a rules file every signed-in person is a viewer
    expect(personRole(readAuthConfig(OIDC), "eve@example.com", [])).toBe("viewer");
  });

  it("a save needs an admin rule covering the target; the first one is the audit's rule", () => {
    const alice = person("alice@example.com", ["team-orders", "everyone"]);
    expect(writeRightOn(alice, config, "orders/eu")).toEqual({
      allowed: true,
      rule: { source: "rbac_file", index: 0, subject: "group team-orders", glob: "orders/*" },
    });
    expect(writeRightOn(alice, config, "incident/db")).toEqual({
      allowed: false,
      why: "outside_targets",
      adminTargets: ["orders/*"],
    });
    expect(writeRightOn(alice, config, "_default")).toMatchObject({ allowed: false, why: "outside_targets" });
    const bob = person("bob@example.com", ["team-incident"]);
    expect(writeRightOn(bob, config, "clicks")).toMatchObject({ allowed: true, rule: { index: 1, glob: "clicks" } });
    const sre = person("sam@example.com", ["sre", "team-orders"]);
    expect(writeRightOn(sre, config, "_default")).toMatchObject({ allowed: true, rule: { index: 2, glob: "*" } });
    // a rule earlier in the file wins
    expect(writeRightOn(sre, config, "orders/eu")).toMatchObject({ allowed: true, rule: { index: 0 } });
    const carol = person("carol@example.com", []);
    expect(writeRightOn(carol, config, "orders/eu")).toEqual({ allowed: false, why: "not_admin", adminTargets: [] });
    expect(writeRightOn({ actor: "anonymous", role: "anonymous" }, config, "x")).toMatchObject({ why: "signed_out" });
  });

  it("tokens are admins (or viewers) of `*`, whatever the rules", () => {
    const bot = { actor: "bot", role: "admin" as const };
    expect(grantsOf(bot, config)).toEqual([
      { source: "token", index: null, subject: null, role: "admin", targets: ["*"] },
    ]);
    expect(writeRightOn(bot, config, "_default")).toEqual({
      allowed: true,
      rule: { source: "token", index: null, subject: null, glob: "*" },
    });
    // a write that is not one table's needs `*`
    expect(writeRightOn(person("alice@example.com", ["team-orders"]), config, null)).toMatchObject({ allowed: false });
    expect(writeRightOn(bot, config, null)).toMatchObject({ allowed: true });
  });

  it("read-only only when no token and no admin rule can write", () => {
    const noTokens = readAuthConfig({ ...OIDC, CONSOLE_RBAC_FILE: rulesFile });
    expect(writeRightOn(person("alice@example.com", ["team-orders"]), noTokens, "orders/eu").allowed).toBe(true);
    const none = readAuthConfig(OIDC);
    expect(writeRightOn({ actor: "x", role: "viewer", person: { groups: [] } }, none, "orders/eu")).toMatchObject({
      why: "read_only",
    });
  });
});

describe("a person's session (console-api.md: the cookie works as today's)", () => {
  it("carries the person and their groups; their role is read from the rules on each request", async () => {
    const jwt = await signPersonSession(config, { actor: "alice@example.com", groups: ["team-orders"] }, NOW);
    const cookie = { cookie: `console_session=${jwt}`, origin: "http://console.test" };
    const who = await whoIs(req(cookie).headers, config, NOW + 1000);
    expect(who.principal).toEqual({ actor: "alice@example.com", role: "admin", person: { groups: ["team-orders"] } });
    expect(who.expiresAtMs).toBe(Math.floor(NOW / 1000) * 1000 + SESSION_TTL_SECS * 1000);
    expect((await authorizeSave(req(cookie), "orders/eu", { config, nowMs: NOW })).rule.glob).toBe("orders/*");
    const refused = await authorizeSave(req(cookie), "incident/db", { config, nowMs: NOW }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AuthError);
    expect((refused as AuthError).status).toBe(403);
    expect((refused as AuthError).body()).toEqual({
      error: {
        code: "forbidden",
        message: "alice@example.com may change the policies of orders/* only; incident/db is outside them.",
        admin_targets: ["orders/*"],
      },
    });
  });

  it("works on every replica that shares the secret; not across providers, clients or secrets; never as a token session", async () => {
    const jwt = await signPersonSession(config, { actor: "alice@example.com", groups: [] }, NOW);
    expect(await verifySession(readAuthConfig(env), jwt, NOW)).toMatchObject({ actor: "alice@example.com" });
    for (const other of [
      { ...env, CONSOLE_OIDC_ISSUER: "https://other.example.com" },
      { ...env, CONSOLE_OIDC_CLIENT_ID: "other" },
      { ...env, CONSOLE_SESSION_SECRET: "t".repeat(32) },
      { CONSOLE_ADMIN_TOKENS: "bot:adm-bot", CONSOLE_SESSION_SECRET: "s".repeat(32) }, // single sign-on turned off
    ])
      expect(await verifySession(readAuthConfig(other), jwt, NOW)).toBeNull();
    // a token session's payload under the person key's kid, or the reverse, does not verify
    const [, tokenPayload] = (await signSession(config, "bot", "admin", NOW)).split(".");
    const [personHeader, , personSig] = jwt.split(".");
    expect(await verifySession(config, `${personHeader}.${tokenPayload}.${personSig}`, NOW)).toBeNull();
  });

  it("an ended session is told apart from a forged one, and the answer says when it ended", async () => {
    const jwt = await signPersonSession(config, { actor: "alice@example.com", groups: ["team-orders"] }, NOW);
    const later = NOW + (SESSION_TTL_SECS + 60) * 1000;
    const endedAt = Math.floor(NOW / 1000) * 1000 + SESSION_TTL_SECS * 1000;
    expect(await readSession(config, jwt, later)).toEqual({ expiredAtMs: endedAt });
    expect(await readSession(config, `${jwt.slice(0, -3)}abc`, later)).toBeNull();
    const headers = req({ cookie: `console_session=${jwt}`, origin: "http://console.test" }).headers;
    const answer = await sessionAnswer(headers, config, later, "orders/eu");
    expect(answer).toMatchObject({
      actor: "anonymous",
      role: "anonymous",
      session_expired_at_ms: endedAt,
      target: { target: "orders/eu", can_write: false, why: "signed_out", rule: null },
    });
    const refused = await authorizeSave(req({ cookie: `console_session=${jwt}` }), "orders/eu", {
      config,
      nowMs: later,
    }).catch((e: unknown) => e);
    expect((refused as AuthError).body().error).toEqual({
      code: "unauthorized",
      message: `Your session expired at ${new Date(endedAt)
        .toISOString()
        .replace("T", " ")
        .replace(/\.\d+Z$/, "Z")}: sign in again.`,
    });
  });

  it("the session answer lists the rights, and one target's right with its rule", async () => {
    const jwt = await signPersonSession(config, { actor: "bob@example.com", groups: ["team-incident"] }, NOW);
    const headers = req({ cookie: `console_session=${jwt}` }).headers;
    const answer = await sessionAnswer(headers, config, NOW, "clicks");
    expect(answer).toEqual({
      actor: "bob@example.com",
      role: "admin",
      can_write: true,
      read_only: false,
      reads_need_token: false,
      signed_in_with: "oidc",
      groups: ["team-incident"],
      expires_at_ms: Math.floor(NOW / 1000) * 1000 + SESSION_TTL_SECS * 1000,
      session_expired_at_ms: null,
      grants: [
        {
          source: "rbac_file",
          index: 1,
          subject: "group team-incident",
          role: "admin",
          targets: ["incident/*", "clicks"],
        },
      ],
      admin_targets: ["incident/*", "clicks"],
      oidc: { issuer: "https://id.example.com", login_path: "/api/v1/session/oidc/login" },
      target: {
        target: "clicks",
        can_write: true,
        why: null,
        rule: { source: "rbac_file", index: 1, subject: "group team-incident", glob: "clicks" },
      },
    });
  });
});
