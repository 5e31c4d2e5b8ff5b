import { describe, expect, it } from "vitest";
import { authorize, cookieValue, signIn } from "./authorize";
import { readAuthConfig } from "./config";
import { AuthError } from "./errors";
import { checkSameOrigin } from "./origin";
import { SESSION_TTL_SECS, sessionCookie, signSession, verifySession } from "./session";
import { actorFor, matchToken, parseNamedTokens, parseTokenList, tokensEqual } from "./tokens";

const NOW = 1_800_000_000_000;
const config = readAuthConfig({ CONSOLE_ADMIN_TOKENS: "adm-one, adm-two", CONSOLE_SESSION_SECRET: "s3cret" });
const gated = readAuthConfig({
  CONSOLE_ADMIN_TOKENS: "adm-one",
  CONSOLE_VIEWER_TOKENS: "view-one",
  CONSOLE_SESSION_SECRET: "s3cret",
});
const readOnly = readAuthConfig({});

function req(method: string, headers: Record<string, string> = {}): Request {
  return new Request("http://console.test:3000/api/v1/policies/_default", {
    method,
    headers: { host: "console.test:3000", ...headers },
  });
}

async function failure(p: Promise<unknown>): Promise<{ status: number; code: string }> {
  try {
    await p;
  } catch (e) {
    if (e instanceof AuthError) return { status: e.status, code: e.code };
    throw e;
  }
  throw new Error("expected an AuthError");
}

describe("tokens", () => {
  it("compares by equal-length digests, so different lengths are simply unequal", () => {
    expect(tokensEqual("abc", "abc")).toBe(true);
    expect(tokensEqual("abc", "abd")).toBe(false);
    expect(tokensEqual("abc", "abcdef-much-longer")).toBe(false);
    expect(tokensEqual("", "x")).toBe(false);
  });
  it("matches against every configured token", () => {
    expect(matchToken("adm-two", ["adm-one", "adm-two"])).toBe("adm-two");
    expect(matchToken("adm-three", ["adm-one", "adm-two"])).toBeNull();
    expect(matchToken("x", [])).toBeNull();
  });
  it("parses comma lists and names actors without the token", () => {
    expect(parseTokenList(" a, ,b ,")).toEqual(["a", "b"]);
    expect(parseTokenList(undefined)).toEqual([]);
    const actor = actorFor("admin", "adm-one");
    expect(actor).toMatch(/^admin:[0-9a-f]{12}$/);
    expect(actor).not.toContain("adm-one");
  });
});

describe("session cookie", () => {
  it("signs and verifies; the cookie is httpOnly and SameSite=Strict, Secure only on https", async () => {
    const jwt = await signSession(config, "admin:abc", "admin", NOW);
    expect(await verifySession(config, jwt, NOW + 1000)).toEqual({
      actor: "admin:abc",
      role: "admin",
      expiresAtMs: Math.floor(NOW / 1000) * 1000 + SESSION_TTL_SECS * 1000,
    });
    // the cookie outlives its hour by 12 h, so a late request can be told its session expired
    expect(sessionCookie(jwt, false)).toBe(`console_session=${jwt}; Path=/; HttpOnly; SameSite=Strict; Max-Age=46800`);
    expect(sessionCookie(jwt, true).endsWith("; Secure")).toBe(true);
  });
  it("rejects expired, tampered, differently keyed and rotated-token sessions", async () => {
    const jwt = await signSession(config, "admin:abc", "admin", NOW);
    expect(await verifySession(config, jwt, NOW + (SESSION_TTL_SECS + 1) * 1000)).toBeNull();
    const [h, p, s] = jwt.split(".");
    const forgedPayload = Buffer.from(
      JSON.stringify({ role: "admin", sub: "admin:evil", iss: "scheduler-console", exp: 9e9 }),
    ).toString("base64url");
    expect(await verifySession(config, `${h}.${forgedPayload}.${s}`, NOW)).toBeNull();
    expect(await verifySession(config, `${h}.${p}.${s.slice(0, -2)}xx`, NOW)).toBeNull();
    expect(await verifySession({ ...config, sessionSecret: "other" }, jwt, NOW)).toBeNull();
    expect(await verifySession({ ...config, adminTokens: ["adm-one"] }, jwt, NOW)).toBeNull();
    expect(await verifySession(config, "not-a-jwt", NOW)).toBeNull();
  });
  it("works across replicas that share CONSOLE_SESSION_SECRET, and not without it", async () => {
    const replicaA = readAuthConfig({ CONSOLE_ADMIN_TOKENS: "adm-one,adm-two", CONSOLE_SESSION_SECRET: "s3cret" });
    const jwt = await signSession(replicaA, "admin:abc", "admin", NOW);
    expect((await verifySession(config, jwt, NOW))?.actor).toBe("admin:abc");
    const noSecret = readAuthConfig({ CONSOLE_ADMIN_TOKENS: "adm-one,adm-two" });
    const own = await signSession(noSecret, "admin:abc", "admin", NOW);
    expect(await verifySession(noSecret, own, NOW)).toMatchObject({ role: "admin" });
    expect(await verifySession(config, own, NOW)).toBeNull();
  });
  it("reads one cookie out of a Cookie header", () => {
    expect(cookieValue("a=1; console_session=xyz; b=2", "console_session")).toBe("xyz");
    expect(cookieValue("a=1", "console_session")).toBeNull();
    expect(cookieValue(null, "console_session")).toBeNull();
  });
});

describe("origin rules", () => {
  const h = (o: Record<string, string>) => new Headers({ host: "console.test:3000", ...o });
  const url = "http://console.test:3000/api/v1/policies/x";
  it("allows same-origin browsers and header-less API clients", () => {
    expect(checkSameOrigin(h({}), url).ok).toBe(true);
    expect(checkSameOrigin(h({ origin: "http://console.test:3000", "sec-fetch-site": "same-origin" }), url).ok).toBe(
      true,
    );
    expect(checkSameOrigin(h({ "sec-fetch-site": "none" }), url).ok).toBe(true);
    expect(
      checkSameOrigin(h({ origin: "https://console.example", "x-forwarded-host": "console.example" }), url).ok,
    ).toBe(true);
  });
  it("refuses other origins, other sites and a null origin", () => {
    expect(checkSameOrigin(h({ origin: "https://evil.example" }), url).ok).toBe(false);
    expect(checkSameOrigin(h({ origin: "http://console.test:3001" }), url).ok).toBe(false);
    expect(checkSameOrigin(h({ "sec-fetch-site": "cross-site" }), url).ok).toBe(false);
    expect(checkSameOrigin(h({ "sec-fetch-site": "same-site" }), url).ok).toBe(false);
    expect(checkSameOrigin(h({ origin: "null" }), url).ok).toBe(false);
  });
});

describe("authorize", () => {
  const at = { config, nowMs: NOW };
  it("reads are open without viewer tokens; writes need an admin", async () => {
    expect(await authorize(req("GET"), "read", at)).toEqual({ actor: "anonymous", role: "anonymous" });
    expect(await failure(authorize(req("PUT"), "write", at))).toEqual({ status: 401, code: "unauthorized" });
    const admin = await authorize(req("PUT", { authorization: "Bearer adm-two" }), "write", at);
    expect(admin).toEqual({ actor: actorFor("admin", "adm-two"), role: "admin" });
    expect(await failure(authorize(req("GET", { authorization: "Bearer wrong" }), "read", at))).toEqual({
      status: 401,
      code: "unauthorized",
    });
  });
  it("a session cookie from sign-in authorizes writes", async () => {
    const signed = await signIn(config, "adm-one", NOW);
    expect(signed?.principal.role).toBe("admin");
    const p = await authorize(
      req("PUT", { cookie: `console_session=${signed?.jwt}`, origin: "http://console.test:3000" }),
      "write",
      at,
    );
    expect(p.actor).toBe(actorFor("admin", "adm-one"));
    expect(await signIn(config, "nope", NOW)).toBeNull();
  });
  it("viewer tokens gate reads and never write", async () => {
    const g = { config: gated, nowMs: NOW };
    expect(await failure(authorize(req("GET"), "read", g))).toEqual({ status: 401, code: "unauthorized" });
    expect((await authorize(req("GET", { authorization: "Bearer view-one" }), "read", g)).role).toBe("viewer");
    expect((await authorize(req("GET", { authorization: "Bearer adm-one" }), "read", g)).role).toBe("admin");
    expect(await failure(authorize(req("PUT", { authorization: "Bearer view-one" }), "write", g))).toEqual({
      status: 403,
      code: "forbidden",
    });
  });
  it("cross-site writes are refused even with an admin token", async () => {
    const r = req("PUT", {
      authorization: "Bearer adm-one",
      origin: "https://evil.example",
      "sec-fetch-site": "cross-site",
    });
    expect(await failure(authorize(r, "write", at))).toEqual({ status: 403, code: "cross_site" });
  });
  it("read-only mode answers 403 read_only to every write", async () => {
    const ro = { config: readOnly, nowMs: NOW };
    expect(await failure(authorize(req("PUT", { authorization: "Bearer adm-one" }), "write", ro))).toEqual({
      status: 403,
      code: "read_only",
    });
    expect((await authorize(req("GET"), "read", ro)).role).toBe("anonymous");
  });
});

describe("named tokens (console-api.md third version)", () => {
  const named = readAuthConfig({
    CONSOLE_ADMIN_TOKENS: "alice:adm-alice, deploy-bot:adm-bot, adm-plain",
    CONSOLE_VIEWER_TOKENS: "carol:view-carol",
    CONSOLE_SESSION_SECRET: "s3cret",
  });
  it("parses name:token items beside plain tokens", () => {
    expect(parseNamedTokens("alice:adm-alice, adm-plain ,, :odd, deploy-bot:")).toEqual([
      { name: "alice", token: "adm-alice" },
      { name: null, token: "adm-plain" },
      { name: null, token: ":odd" },
      { name: null, token: "deploy-bot:" },
    ]);
    expect(parseTokenList("alice:adm-alice,adm-plain")).toEqual(["adm-alice", "adm-plain"]);
  });
  it("the actor is the token's name; a plain token keeps its hashed name", async () => {
    const at = { config: named, nowMs: NOW };
    expect(await authorize(req("PUT", { authorization: "Bearer adm-alice" }), "write", at)).toEqual({
      actor: "alice",
      role: "admin",
    });
    expect(await authorize(req("PUT", { authorization: "Bearer adm-bot" }), "write", at)).toEqual({
      actor: "deploy-bot",
      role: "admin",
    });
    expect(await authorize(req("PUT", { authorization: "Bearer adm-plain" }), "write", at)).toEqual({
      actor: actorFor("admin", "adm-plain"),
      role: "admin",
    });
    expect(await authorize(req("GET", { authorization: "Bearer view-carol" }), "read", at)).toEqual({
      actor: "carol",
      role: "viewer",
    });
    // the whole item is not a token: only its secret is
    expect(await failure(authorize(req("PUT", { authorization: "Bearer alice:adm-alice" }), "write", at))).toEqual({
      status: 401,
      code: "unauthorized",
    });
  });
  it("sign-in names the session after the token; renaming a token ends its sessions", async () => {
    const signed = await signIn(named, "adm-alice", NOW);
    expect(signed?.principal).toEqual({ actor: "alice", role: "admin" });
    expect((await verifySession(named, signed!.jwt, NOW + 1000))?.actor).toBe("alice");
    const renamed = readAuthConfig({
      CONSOLE_ADMIN_TOKENS: "alicia:adm-alice, deploy-bot:adm-bot, adm-plain",
      CONSOLE_VIEWER_TOKENS: "carol:view-carol",
      CONSOLE_SESSION_SECRET: "s3cret",
    });
    expect(await verifySession(renamed, signed!.jwt, NOW + 1000)).toBeNull();
  });
});

describe("the access settings (read on every request)", () => {
  it("are made once per set of values, and again as soon as one value changes", () => {
    const env = { CONSOLE_ADMIN_TOKENS: "a-1", CONSOLE_VIEWER_TOKENS: "v-1" };
    const first = readAuthConfig(env);
    expect(readAuthConfig({ ...env })).toBe(first);
    const changed = readAuthConfig({ ...env, CONSOLE_ADMIN_TOKENS: "a-2" });
    expect(changed.adminTokens).toEqual(["a-2"]);
    expect(readAuthConfig({ ...env, CONSOLE_SESSION_SECRET: "s" }).sessionSecret).toBe("s");
    // an empty variable and an unset one are different values
    expect(readAuthConfig({ ...env, CONSOLE_VIEWER_TOKENS: "" }).viewerTokens).toEqual([]);
    const oidc = readAuthConfig({
      ...env,
      CONSOLE_OIDC_ISSUER: "https://id.example.com",
      CONSOLE_OIDC_CLIENT_ID: "console",
      CONSOLE_OIDC_CLIENT_SECRET: "x",
      CONSOLE_OIDC_REDIRECT_URL: "https://console.example.com/api/v1/session/oidc/callback",
    });
    expect(oidc.oidc?.clientId).toBe("console");
    expect(readAuthConfig(env).oidc).toBeNull();
    expect(readAuthConfig(env)).toEqual(first);
  });
});
