import "server-only";
import { isReadOnly, nameOfToken, readAuthConfig, readsNeedToken, type AuthConfig } from "./config";
import { AuthError } from "./errors";
import { checkSameOrigin } from "./origin";
import { SESSION_COOKIE, signSession, verifySession, type SessionRole } from "./session";
import { actorFor, matchToken } from "./tokens";

// console-api.md Security. Reads: open, or a viewer/admin credential when
// CONSOLE_VIEWER_TOKENS is set. Writes: an admin bearer token or admin session,
// same-origin only; with no admin tokens configured the console is read-only.

export type Role = "admin" | "viewer" | "anonymous";
export interface Principal {
  actor: string;
  role: Role;
}
export type Need = "read" | "write";

const ANONYMOUS: Principal = { actor: "anonymous", role: "anonymous" };

/** The value of cookie `name` in a Cookie header, or null. */
export function cookieValue(cookieHeader: string | null, name: string): string | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

/** The role and actor of whoever holds `token` (its configured name, console-api.md third version), or null. */
function holderOfToken(config: AuthConfig, token: string): (Principal & { role: SessionRole }) | null {
  const admin = matchToken(token, config.adminTokens);
  const viewer = matchToken(token, config.viewerTokens);
  if (admin !== null) return { role: "admin", actor: actorFor("admin", admin, nameOfToken(config, "admin", admin)) };
  if (viewer !== null)
    return { role: "viewer", actor: actorFor("viewer", viewer, nameOfToken(config, "viewer", viewer)) };
  return null;
}

/**
 * Who sent these headers: a bearer token wins, else a valid session cookie, else anonymous.
 * A bearer token that matches nothing is an error (401), never silently anonymous.
 */
export async function identify(headers: Headers, config: AuthConfig, nowMs: number): Promise<Principal> {
  const authorization = headers.get("authorization");
  if (authorization !== null) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    const token = match?.[1];
    const holder = token ? holderOfToken(config, token) : null;
    if (!holder) throw new AuthError("unauthorized", "The bearer token matches no configured token.");
    return holder;
  }
  const jwt = cookieValue(headers.get("cookie"), SESSION_COOKIE);
  if (jwt) {
    const session = await verifySession(config, jwt, nowMs);
    if (session) return { actor: session.actor, role: session.role };
  }
  return ANONYMOUS;
}

/** The principal allowed to do `need` with `request`, or an AuthError (401/403). */
export async function authorize(
  request: Request,
  need: Need,
  opts: { config?: AuthConfig; nowMs?: number } = {},
): Promise<Principal> {
  const config = opts.config ?? readAuthConfig();
  const nowMs = opts.nowMs ?? Date.now();
  if (need === "write") {
    const origin = checkSameOrigin(request.headers, request.url);
    if (!origin.ok) throw new AuthError("cross_site", `Cross-site write refused (${origin.reason}).`);
    if (isReadOnly(config)) {
      throw new AuthError(
        "read_only",
        "The console is read-only: no admin tokens are configured (CONSOLE_ADMIN_TOKENS).",
      );
    }
  }
  const principal = await identify(request.headers, config, nowMs);
  if (need === "read") {
    if (principal.role === "anonymous" && readsNeedToken(config)) {
      throw new AuthError("unauthorized", "Sign in or send a viewer bearer token to read.");
    }
    return principal;
  }
  if (principal.role === "anonymous")
    throw new AuthError("unauthorized", "Sign in or send an admin bearer token to write.");
  if (principal.role !== "admin") throw new AuthError("forbidden", "Only admins may change policies.");
  return principal;
}

/** Sign-in: a session JWT for a configured token, or null. */
export async function signIn(
  config: AuthConfig,
  token: string,
  nowMs: number,
): Promise<{ principal: Principal; jwt: string } | null> {
  const holder = holderOfToken(config, token.trim());
  if (!holder) return null;
  return { principal: holder, jwt: await signSession(config, holder.actor, holder.role, nowMs) };
}
