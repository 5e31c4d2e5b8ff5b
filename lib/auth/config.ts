import "server-only";
import { sessionSecretOf } from "@/lib/config/env";
import type { RbacRule } from "@/lib/config/rbac-file";
import { loadSsoEnv, variablesKey, type OidcEnv, type SsoEnv } from "@/lib/config/sso-env";
import { parseNamedTokens } from "./tokens";

// console-api.md Configuration/Security: CONSOLE_ADMIN_TOKENS, CONSOLE_VIEWER_TOKENS
// (comma-separated); CONSOLE_SESSION_SECRET (optional) lets replicas share sessions;
// "Single sign-on and team rights": CONSOLE_OIDC_* and the rules of CONSOLE_RBAC_FILE.
export interface AuthConfig {
  adminTokens: string[];
  viewerTokens: string[];
  /** `name:token` items: the name of each named token, by `<role> <token>` (plain tokens have none) */
  tokenNames: ReadonlyMap<string, string>;
  /** shared session secret; when unset each process draws its own random one */
  sessionSecret: string | null;
  /** the OpenID Connect provider people sign in with, or null */
  oidc: OidcEnv | null;
  /** CONSOLE_RBAC_FILE's rules (null: unset, so a signed-in person is a viewer) */
  rules: readonly RbacRule[] | null;
}

/** The variables readAuthConfig reads itself (loadSsoEnv reads and remembers the rest). */
const TOKEN_VARIABLES = ["CONSOLE_ADMIN_TOKENS", "CONSOLE_VIEWER_TOKENS", "CONSOLE_SESSION_SECRET"] as const;

/** the last config made, from these values and this single sign-on part (every request reads it) */
let made: { values: string; sso: SsoEnv; config: AuthConfig } | null = null;

/** The access settings of `env`: made again only when a value they come from changes, not on every request. */
export function readAuthConfig(env: Record<string, string | undefined> = process.env): AuthConfig {
  const sso = loadSsoEnv(env);
  const values = variablesKey(env, TOKEN_VARIABLES);
  if (made !== null && made.values === values && made.sso === sso) return made.config;
  const config = authConfigOf(env, sso);
  made = { values, sso, config };
  return config;
}

function authConfigOf(env: Record<string, string | undefined>, sso: SsoEnv): AuthConfig {
  const admins = parseNamedTokens(env.CONSOLE_ADMIN_TOKENS);
  const viewers = parseNamedTokens(env.CONSOLE_VIEWER_TOKENS);
  const tokenNames = new Map<string, string>();
  for (const [role, list] of [
    ["admin", admins],
    ["viewer", viewers],
  ] as const) {
    for (const t of list) if (t.name !== null) tokenNames.set(tokenNameKey(role, t.token), t.name);
  }
  return {
    adminTokens: admins.map((t) => t.token),
    viewerTokens: viewers.map((t) => t.token),
    tokenNames,
    sessionSecret: sessionSecretOf(env),
    ...sso,
  };
}

const tokenNameKey = (role: "admin" | "viewer", token: string) => `${role} ${token}`;

/** The configured name of a token, or null (a plain token). */
export function nameOfToken(config: AuthConfig, role: "admin" | "viewer", token: string): string | null {
  return config.tokenNames?.get(tokenNameKey(role, token)) ?? null;
}

/** Some rule of CONSOLE_RBAC_FILE makes the people it names admins (and people can sign in). */
function peopleMayWrite(config: AuthConfig): boolean {
  return Boolean(config.oidc) && (config.rules ?? []).some((r) => r.role === "admin");
}

/** With no admin token and no admin rule for signed-in people, the console is read-only (console-api.md Security). */
export function isReadOnly(config: AuthConfig): boolean {
  return config.adminTokens.length === 0 && !peopleMayWrite(config);
}

/** Viewer tokens gate reads only when some are configured. */
export function readsNeedToken(config: AuthConfig): boolean {
  return config.viewerTokens.length > 0;
}
