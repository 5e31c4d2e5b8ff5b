// console-api.md "Single sign-on and team rights": CONSOLE_OIDC_ISSUER, CONSOLE_OIDC_CLIENT_ID,
// CONSOLE_OIDC_CLIENT_SECRET, CONSOLE_OIDC_REDIRECT_URL (all or none) and CONSOLE_RBAC_FILE.
// Checked at start-up with the rest of the environment (./env.ts `loadEnv`); a bad value
// fails with one line naming the variable (the secret's value is never echoed).
import { z } from "zod";
import { ConfigError, parseBlock } from "./config-error";
import { loadRbacFile, type RbacRule } from "./rbac-file";

/** Where the provider sends the browser back: the console's own callback route. */
const OIDC_CALLBACK_PATH = "/api/v1/session/oidc/callback";

const OIDC_VARIABLES = [
  "CONSOLE_OIDC_ISSUER",
  "CONSOLE_OIDC_CLIENT_ID",
  "CONSOLE_OIDC_CLIENT_SECRET",
  "CONSOLE_OIDC_REDIRECT_URL",
] as const;

const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|localhost|\[::1\])$/;

/** https, or http on a loopback host (a provider on the same machine, as in the tests). */
function urlProblem(s: string): string | null {
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    return "must be a URL";
  }
  if (u.protocol !== "https:" && !(u.protocol === "http:" && LOOPBACK.test(u.hostname)))
    return "must be an https:// URL (http:// only on a loopback host)";
  if (u.search || u.hash) return "must not carry a query or a fragment";
  return null;
}

const optionalSchema = z
  .string()
  .optional()
  .transform((s) => (s === undefined || s.trim() === "" ? undefined : s.trim()));

const checkedUrl = (extra?: (u: URL) => string | null) =>
  optionalSchema.superRefine((s, ctx) => {
    const problem = s === undefined ? null : (urlProblem(s) ?? extra?.(new URL(s)) ?? null);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

const ssoEnvSchema = z.object({
  CONSOLE_OIDC_ISSUER: checkedUrl(),
  CONSOLE_OIDC_CLIENT_ID: optionalSchema.pipe(z.string().max(256, "is longer than 256 characters").optional()),
  CONSOLE_OIDC_CLIENT_SECRET: optionalSchema.pipe(z.string().max(1024, "is longer than 1024 characters").optional()),
  CONSOLE_OIDC_REDIRECT_URL: checkedUrl((u) =>
    u.pathname === OIDC_CALLBACK_PATH ? null : `must end in the console's callback path ${OIDC_CALLBACK_PATH}`,
  ),
  CONSOLE_RBAC_FILE: optionalSchema,
});

export interface OidcEnv {
  issuer: string;
  clientId: string;
  clientSecret: string;
  redirectUrl: string;
}

export interface SsoEnv {
  /** null when no CONSOLE_OIDC_* is set */
  oidc: OidcEnv | null;
  /** the rules of CONSOLE_RBAC_FILE, or null when it is unset */
  rules: readonly RbacRule[] | null;
}

/** The rules of one file, read once per process (the file is read at start-up; edit it, then restart). */
const rulesByPath = new Map<string, readonly RbacRule[]>();

function rulesOf(path: string): readonly RbacRule[] {
  let rules = rulesByPath.get(path);
  if (!rules) {
    rules = loadRbacFile(path);
    rulesByPath.set(path, rules);
  }
  return rules;
}

const SSO_VARIABLES = [...OIDC_VARIABLES, "CONSOLE_RBAC_FILE"] as const;

/** the last answer and the values it was read from: every request's access check reads it (lib/auth/config.ts) */
let lastRead: { values: string; sso: SsoEnv } | null = null;

/**
 * The values of `names` in `source` as one string, an unset variable told apart from an empty
 * one: what a setting read once per set of values is remembered by (here and lib/auth/config.ts).
 */
export function variablesKey(source: Record<string, string | undefined>, names: readonly string[]): string {
  return names.map((v) => source[v] ?? "\u0001").join("\u0000");
}

/** The single sign-on settings of `source`: the same object while the variables keep their values. */
export function loadSsoEnv(source: Record<string, string | undefined> = process.env): SsoEnv {
  const values = variablesKey(source, SSO_VARIABLES);
  if (lastRead?.values === values) return lastRead.sso;
  const sso = readSsoEnv(source);
  lastRead = { values, sso };
  return sso;
}

function readSsoEnv(source: Record<string, string | undefined>): SsoEnv {
  const e = parseBlock(ssoEnvSchema, source);
  const set = OIDC_VARIABLES.filter((v) => e[v] !== undefined);
  if (set.length > 0 && set.length < OIDC_VARIABLES.length) {
    const missing = OIDC_VARIABLES.filter((v) => e[v] === undefined);
    throw new ConfigError(missing[0], `must be set together with ${set.join(", ")} (all four CONSOLE_OIDC_* or none)`);
  }
  const oidc =
    set.length === 0
      ? null
      : {
          issuer: e.CONSOLE_OIDC_ISSUER!,
          clientId: e.CONSOLE_OIDC_CLIENT_ID!,
          clientSecret: e.CONSOLE_OIDC_CLIENT_SECRET!,
          redirectUrl: e.CONSOLE_OIDC_REDIRECT_URL!,
        };
  return { oidc, rules: e.CONSOLE_RBAC_FILE === undefined ? null : rulesOf(e.CONSOLE_RBAC_FILE) };
}

/** Forget the rules read (tests that change the file). */
export function resetSsoEnv(): void {
  rulesByPath.clear();
  lastRead = null;
}
