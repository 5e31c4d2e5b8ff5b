import "server-only";
import { isReadOnly, nameOfToken, readAuthConfig, readsNeedToken, type AuthConfig } from "./config";
import { AuthError } from "./errors";
import { checkSameOrigin } from "./origin";
import { ANONYMOUS, type Principal } from "./principal";
import { rulesNaming, writeRightOn, type AllowingRule } from "./rights";
import { EVERY_TARGET } from "@/lib/schema/target-glob";
import { readSession, SESSION_COOKIE, signSession, type Session, type SessionRole } from "./session";
import { actorFor, matchToken } from "./tokens";
import { refusalWords, sessionExpiredWords } from "@/lib/words/rights";

// console-api.md Security. Reads: open, or a viewer/admin credential when
// CONSOLE_VIEWER_TOKENS is set. Writes: an admin bearer token or admin session,
// same-origin only; with no admin tokens and no admin rule the console is read-only.
// "Single sign-on and team rights": a person's session takes its role from the rules.

export type { Principal } from "./principal";
export type Need = "read" | "write";

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
 * A person's role from the rules that name them: admin when one is an admin rule, viewer
 * when any names them (or when there is no rules file); null when the file names them not
 * at all (then they are not let in).
 */
export function personRole(config: AuthConfig, actor: string, groups: readonly string[]): SessionRole | null {
  if (config.rules === null) return "viewer";
  const named = rulesNaming(config.rules, actor, groups);
  if (named.some((r) => r.role === "admin")) return "admin";
  return named.length > 0 ? "viewer" : null;
}

function principalOf(config: AuthConfig, session: Session): Principal {
  if (!("groups" in session)) return { actor: session.actor, role: session.role };
  const role = personRole(config, session.actor, session.groups);
  return role === null ? ANONYMOUS : { actor: session.actor, role, person: { groups: session.groups } };
}

/** Who sent a request, and the session it came with. */
export interface Identity {
  principal: Principal;
  /** when the session ends (null: a bearer token, or no session) */
  expiresAtMs: number | null;
  /** a genuine session cookie came along but had ended then: treated as signed out, and said so */
  expiredAtMs: number | null;
}

/**
 * Who sent these headers: a bearer token wins, else a valid session cookie, else anonymous.
 * A bearer token that matches nothing is an error (401), never silently anonymous.
 */
export async function whoIs(headers: Headers, config: AuthConfig, nowMs: number): Promise<Identity> {
  const authorization = headers.get("authorization");
  if (authorization !== null) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    const token = match?.[1];
    const holder = token ? holderOfToken(config, token) : null;
    if (!holder) throw new AuthError("unauthorized", "The bearer token matches no configured token.");
    return { principal: holder, expiresAtMs: null, expiredAtMs: null };
  }
  const jwt = cookieValue(headers.get("cookie"), SESSION_COOKIE);
  const read = jwt ? await readSession(config, jwt, nowMs) : null;
  if (read && "session" in read) {
    const principal = principalOf(config, read.session);
    if (principal.role !== "anonymous") return { principal, expiresAtMs: read.session.expiresAtMs, expiredAtMs: null };
  }
  return {
    principal: ANONYMOUS,
    expiresAtMs: null,
    expiredAtMs: read && "expiredAtMs" in read ? read.expiredAtMs : null,
  };
}

const signInAgain = (identity: Identity, what: string) =>
  identity.expiredAtMs === null
    ? `Sign in or send ${what} bearer token to ${what === "an admin" ? "write" : "read"}.`
    : sessionExpiredWords(identity.expiredAtMs);

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
        "The console is read-only: no admin tokens (CONSOLE_ADMIN_TOKENS) and no admin rule (CONSOLE_RBAC_FILE) are configured.",
      );
    }
  }
  const identity = await whoIs(request.headers, config, nowMs);
  const { principal } = identity;
  if (need === "read") {
    if (principal.role === "anonymous" && readsNeedToken(config)) {
      throw new AuthError("unauthorized", signInAgain(identity, "a viewer"));
    }
    return principal;
  }
  if (principal.role === "anonymous") throw new AuthError("unauthorized", signInAgain(identity, "an admin"));
  if (principal.role !== "admin") throw new AuthError("forbidden", "Only admins may change policies.");
  return principal;
}

/**
 * A save of `target`'s policy (null: a write that is not one table's, which needs `*`):
 * an admin (as `authorize` checks) whose rights cover it (console-api.md "Single sign-on and
 * team rights": else 403 forbidden, before anything is read or written). Answers the rule that
 * allowed it, for the audit.
 */
export async function authorizeSave(
  request: Request,
  target: string | null,
  opts: { config?: AuthConfig; nowMs?: number } = {},
): Promise<{ principal: Principal; rule: AllowingRule }> {
  const config = opts.config ?? readAuthConfig();
  const principal = await authorize(request, "write", { config, nowMs: opts.nowMs });
  const right = writeRightOn(principal, config, target);
  if (right.allowed) return { principal, rule: right.rule };
  const at = { target: target ?? EVERY_TARGET, actor: principal.actor, adminTargets: right.adminTargets };
  throw new AuthError("forbidden", refusalWords(right.why, at), { admin_targets: right.adminTargets });
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
