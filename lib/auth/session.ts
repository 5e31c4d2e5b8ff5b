import "server-only";
import { createHmac, randomBytes } from "node:crypto";
import { SignJWT, errors, jwtVerify, type JWTHeaderParameters } from "jose";
import { nameOfToken, type AuthConfig } from "./config";

// The session cookie: a jose-signed HS256 JWT. Two kinds, told apart by the header's `kid`:
// * `token`: signed in with a token; names the actor and role (admin, or viewer when viewer
//   tokens gate reads). Its key is derived from the configured tokens and a secret, so
//   rotating CONSOLE_ADMIN_TOKENS / CONSOLE_VIEWER_TOKENS ends every such session.
// * `oidc` (console-api.md "Single sign-on and team rights"): signed in through the
//   provider; names the person (the ID token's email, else sub) and their groups. Its key is
//   derived from the secret, the issuer and the client id; the person's rights are read
//   from CONSOLE_RBAC_FILE on every request, not stored here.
// The secret is CONSOLE_SESSION_SECRET when set (replicas then accept each other's
// sessions), else one random value per process (the engine's: one per process, lib/engine).

export const SESSION_COOKIE = "console_session";
export const SESSION_TTL_SECS = 60 * 60; // short: one hour
/**
 * The cookie outlives the session it holds by this much, so a request after the hour still
 * carries it and the console can say "your session expired" instead of forgetting silently.
 * The JWT's own `exp` is what is checked.
 */
const COOKIE_GRACE_SECS = 12 * 60 * 60;
const ISSUER = "scheduler-console";
const TOKEN_KID = "token";
const OIDC_KID = "oidc";

let secret: string | undefined;
const processSecret = () => (secret ??= randomBytes(32).toString("hex"));

/** A named token's name joins the key: renaming a token ends its sessions, as rotating it does. */
const named = (config: AuthConfig, role: "admin" | "viewer", token: string) => {
  const name = nameOfToken(config, role, token);
  return name === null ? "" : ` as ${name}`;
};

/** HMAC(secret, material): 32 bytes of key, the same on every replica that shares CONSOLE_SESSION_SECRET. */
export const derivedKey = (config: AuthConfig, material: string) =>
  new Uint8Array(
    createHmac("sha256", config.sessionSecret ?? processSecret())
      .update(material, "utf8")
      .digest(),
  );

/** HMAC(secret, sorted tokens and their names): 32 bytes of HS256 key. */
function sessionKey(config: AuthConfig): Uint8Array {
  return derivedKey(
    config,
    [
      "console-session-v1",
      ...[...config.adminTokens].sort().map((t) => `admin ${t}${named(config, "admin", t)}`),
      ...[...config.viewerTokens].sort().map((t) => `viewer ${t}${named(config, "viewer", t)}`),
    ].join("\n"),
  );
}

/** HMAC(secret, issuer and client): another provider or client makes another key. Null without OIDC. */
function oidcSessionKey(config: AuthConfig): Uint8Array | null {
  if (!config.oidc) return null;
  return derivedKey(config, ["console-session-oidc-v1", config.oidc.issuer, config.oidc.clientId].join("\n"));
}

export type SessionRole = "admin" | "viewer";

/** A token's session (actor and role) or a person's (actor and groups), with its end. */
export type Session =
  | { actor: string; role: SessionRole; expiresAtMs: number }
  | { actor: string; groups: readonly string[]; expiresAtMs: number };

/** What a cookie holds: a session, one that was genuine but has ended, or nothing usable. */
export type SessionRead = { session: Session } | { expiredAtMs: number } | null;

function signed(payload: Record<string, unknown>, kid: string, actor: string, nowMs: number, key: Uint8Array) {
  const iat = Math.floor(nowMs / 1000);
  return new SignJWT(payload)
    .setProtectedHeader({ alg: "HS256", typ: "JWT", kid })
    .setSubject(actor)
    .setIssuer(ISSUER)
    .setIssuedAt(iat)
    .setExpirationTime(iat + SESSION_TTL_SECS)
    .sign(key);
}

export async function signSession(
  config: AuthConfig,
  actor: string,
  role: SessionRole,
  nowMs: number,
): Promise<string> {
  return signed({ role }, TOKEN_KID, actor, nowMs, sessionKey(config));
}

/** A person's session after the provider vouched for them (lib/auth/oidc.ts). */
export async function signPersonSession(
  config: AuthConfig,
  person: { actor: string; groups: readonly string[] },
  nowMs: number,
): Promise<string> {
  const key = oidcSessionKey(config);
  if (!key) throw new Error("signPersonSession needs CONSOLE_OIDC_* to be configured");
  return signed({ groups: [...person.groups] }, OIDC_KID, person.actor, nowMs, key);
}

/** The key a header names: the token key, or the person key (none when OIDC is not configured). */
function keyFor(config: AuthConfig, header: JWTHeaderParameters): Uint8Array {
  const key = header.kid === OIDC_KID ? oidcSessionKey(config) : sessionKey(config);
  if (!key) throw new Error("no key for this session");
  return key;
}

function sessionOf(config: AuthConfig, kid: string | undefined, payload: Record<string, unknown>): Session | null {
  const { sub, exp } = payload;
  if (typeof sub !== "string" || typeof exp !== "number") return null;
  if (kid === OIDC_KID) {
    const groups = payload.groups;
    if (!Array.isArray(groups) || !groups.every((g) => typeof g === "string")) return null;
    return { actor: sub, groups, expiresAtMs: exp * 1000 };
  }
  const role = payload.role;
  if (role !== "admin" && role !== "viewer") return null;
  // a role whose token list was emptied since signing is gone (the key changed too)
  if ((role === "admin" ? config.adminTokens : config.viewerTokens).length === 0) return null;
  return { actor: sub, role, expiresAtMs: exp * 1000 };
}

/** What `jwt` holds: a session, an ended one (signature good, past `exp`), or null when malformed or forged. */
export async function readSession(config: AuthConfig, jwt: string, nowMs: number): Promise<SessionRead> {
  if (jwt.length === 0 || jwt.length > 4096) return null;
  try {
    const { payload, protectedHeader } = await jwtVerify(jwt, (header) => keyFor(config, header), {
      algorithms: ["HS256"],
      issuer: ISSUER,
      currentDate: new Date(nowMs),
    });
    const session = sessionOf(config, protectedHeader.kid, payload);
    return session ? { session } : null;
  } catch (e) {
    // jose checks the signature before the claims: an expired session here was genuine
    if (e instanceof errors.JWTExpired && typeof e.payload.exp === "number")
      return { expiredAtMs: e.payload.exp * 1000 };
    return null;
  }
}

/** The session in `jwt`, or null when it is malformed, forged, expired or from old tokens. */
export async function verifySession(config: AuthConfig, jwt: string, nowMs: number): Promise<Session | null> {
  const read = await readSession(config, jwt, nowMs);
  return read && "session" in read ? read.session : null;
}

const cookie = (value: string, maxAgeSecs: number, secure: boolean) => {
  const parts = [`${SESSION_COOKIE}=${value}`, "Path=/", "HttpOnly", "SameSite=Strict", `Max-Age=${maxAgeSecs}`];
  if (secure) parts.push("Secure");
  return parts.join("; ");
};

/** Set-Cookie value: httpOnly, SameSite=Strict, Path=/, Secure when served over https. */
export function sessionCookie(jwt: string, secure: boolean): string {
  return cookie(jwt, SESSION_TTL_SECS + COOKIE_GRACE_SECS, secure);
}

export function clearedSessionCookie(secure: boolean): string {
  return cookie("", 0, secure);
}
