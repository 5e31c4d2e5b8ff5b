import "server-only";
import { createHmac, randomBytes } from "node:crypto";
import { SignJWT, jwtVerify } from "jose";
import { processWide } from "@/lib/schema/process-wide";
import { nameOfToken, type AuthConfig } from "./config";

// The session cookie: a jose-signed HS256 JWT naming the actor and role (admin, or
// viewer when viewer tokens gate reads). The key is derived from the configured tokens
// and a secret, so rotating CONSOLE_ADMIN_TOKENS / CONSOLE_VIEWER_TOKENS ends every session. The secret
// is CONSOLE_SESSION_SECRET when set (replicas then accept each other's sessions), else
// one random value per process, kept on globalThis because Next bundles a module once
// per route and every route must agree on it.

export const SESSION_COOKIE = "console_session";
export const SESSION_TTL_SECS = 60 * 60; // short: one hour
const ISSUER = "scheduler-console";

const processSecret = () => processWide("scheduler-console.session-secret", () => randomBytes(32).toString("hex"));

/** A named token's name joins the key: renaming a token ends its sessions, as rotating it does. */
const named = (config: AuthConfig, role: "admin" | "viewer", token: string) => {
  const name = nameOfToken(config, role, token);
  return name === null ? "" : ` as ${name}`;
};

/** HMAC(secret, sorted tokens and their names): 32 bytes of HS256 key. */
export function sessionKey(config: AuthConfig): Uint8Array {
  const secret = config.sessionSecret ?? processSecret();
  const material = [
    "console-session-v1",
    ...[...config.adminTokens].sort().map((t) => `admin ${t}${named(config, "admin", t)}`),
    ...[...config.viewerTokens].sort().map((t) => `viewer ${t}${named(config, "viewer", t)}`),
  ].join("\n");
  return new Uint8Array(createHmac("sha256", secret).update(material, "utf8").digest());
}

export type SessionRole = "admin" | "viewer";

export interface Session {
  actor: string;
  role: SessionRole;
  expiresAtMs: number;
}

export async function signSession(
  config: AuthConfig,
  actor: string,
  role: SessionRole,
  nowMs: number,
): Promise<string> {
  const iat = Math.floor(nowMs / 1000);
  return new SignJWT({ role })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(actor)
    .setIssuer(ISSUER)
    .setIssuedAt(iat)
    .setExpirationTime(iat + SESSION_TTL_SECS)
    .sign(sessionKey(config));
}

/** The session in `jwt`, or null when it is malformed, forged, expired or from old tokens. */
export async function verifySession(config: AuthConfig, jwt: string, nowMs: number): Promise<Session | null> {
  if (jwt.length === 0 || jwt.length > 4096) return null;
  try {
    const { payload } = await jwtVerify(jwt, sessionKey(config), {
      algorithms: ["HS256"],
      issuer: ISSUER,
      currentDate: new Date(nowMs),
    });
    const role = payload.role;
    if ((role !== "admin" && role !== "viewer") || typeof payload.sub !== "string" || typeof payload.exp !== "number")
      return null;
    // a role whose token list was emptied since signing is gone (the key changed too)
    if ((role === "admin" ? config.adminTokens : config.viewerTokens).length === 0) return null;
    return { actor: payload.sub, role, expiresAtMs: payload.exp * 1000 };
  } catch {
    return null;
  }
}

/** Set-Cookie value: httpOnly, SameSite=Strict, Path=/, Secure when served over https. */
export function sessionCookie(jwt: string, secure: boolean): string {
  const parts = [`${SESSION_COOKIE}=${jwt}`, "Path=/", "HttpOnly", "SameSite=Strict", `Max-Age=${SESSION_TTL_SECS}`];
  if (secure) parts.push("Secure");
  return parts.join("; ");
}

export function clearedSessionCookie(secure: boolean): string {
  const parts = [`${SESSION_COOKIE}=`, "Path=/", "HttpOnly", "SameSite=Strict", "Max-Age=0"];
  if (secure) parts.push("Secure");
  return parts.join("; ");
}
