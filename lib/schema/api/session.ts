// /api/v1/session (console-api.md Security): who is signed in; sign in with a token
// (JSON or the sign-in form), or sign out. "Single sign-on and team rights": sign in through
// an OpenID Connect provider (`/session/oidc/login` → the provider → `/session/oidc/callback`),
// and the rights the person has, so a page shows only the edit controls they may use.
import { z } from "zod";
import { noQuerySchema, targetParamSchema } from "./common";

export const sessionQuerySchema = noQuerySchema;

/** `GET /api/v1/session?target=`: also say whether this person may save that target's policy. */
export const sessionGetQuerySchema = z.strictObject({ target: targetParamSchema.optional() });

/** Why a save would be refused (lib/words/rights.ts says each in words). */
const RIGHT_REFUSALS = ["read_only", "signed_out", "not_admin", "outside_targets"] as const;
export type RightRefusal = (typeof RIGHT_REFUSALS)[number];

/** Where a right comes from: a token, a rule of CONSOLE_RBAC_FILE (by its index), or having signed in. */
const ruleRefSchema = z.object({
  source: z.enum(["token", "rbac_file", "sign_in"]),
  index: z.number().int().nullable(),
  /** `group team-orders` or `actor alice@example.com` (rules only) */
  subject: z.string().nullable(),
});

/** The rule that allowed a save, as its audit entry records it: the rule and the glob that covered the target. */
export const allowingRuleSchema = ruleRefSchema.extend({ glob: z.string() });

const grantSchema = ruleRefSchema.extend({
  role: z.enum(["viewer", "admin"]),
  targets: z.array(z.string()),
});

const targetRightSchema = z.object({
  target: z.string(),
  can_write: z.boolean(),
  /** why not (null when `can_write`) */
  why: z.enum(RIGHT_REFUSALS).nullable(),
  /** the rule a save would be allowed by (null when refused) */
  rule: allowingRuleSchema.nullable(),
});
export type TargetRight = z.infer<typeof targetRightSchema>;

export const sessionResponseSchema = z.object({
  actor: z.string(),
  role: z.enum(["admin", "viewer", "anonymous"]),
  /** an admin of at least one target, and the console is not read-only */
  can_write: z.boolean(),
  read_only: z.boolean(),
  reads_need_token: z.boolean(),
  /** how this request was signed in: a token (bearer or its session) or the OpenID Connect provider */
  signed_in_with: z.enum(["token", "oidc"]).nullable(),
  /** the ID token's groups that the rules name (people only) */
  groups: z.array(z.string()),
  /** when the session ends (null for a bearer token or no session) */
  expires_at_ms: z.number().int().nullable(),
  /** the request carried a session that ended then: it is treated as signed out */
  session_expired_at_ms: z.number().int().nullable(),
  /** every right, in the order a save is checked against them */
  grants: z.array(grantSchema),
  /** the globs this person may save */
  admin_targets: z.array(z.string()),
  /** the provider to sign in with, when CONSOLE_OIDC_* is configured */
  oidc: z.object({ issuer: z.string(), login_path: z.string() }).nullable(),
  /** with `?target=`: whether this person may save that target's policy, and why not */
  target: targetRightSchema.optional(),
});
export type SessionResponse = z.infer<typeof sessionResponseSchema>;

export const SIGNIN_MAX_BYTES = 4096;
export const signInBodySchema = z.object({
  token: z.string().max(1024).optional(),
  next: z.string().max(2048).optional(),
  action: z.literal("signout").optional(),
});

export const signedInResponseSchema = z.object({ actor: z.string(), role: z.enum(["admin", "viewer"]) });
export const signedOutResponseSchema = z.object({ signed_out: z.literal(true) });

/** The route that sends the browser to the provider (the sign-in page links to it). */
export const OIDC_LOGIN_PATH = "/api/v1/session/oidc/login";

/** `GET /api/v1/session/oidc/login?return_to=`: where to land after signing in (a path of this console). */
export const oidcLoginQuerySchema = z.strictObject({ return_to: z.string().max(2048).optional() });

/**
 * `GET /api/v1/session/oidc/callback`: the provider's answer. Providers add parameters of
 * their own (`session_state`, `iss`, `scope`, `authuser`, …), so unknown ones are kept, not refused.
 */
export const oidcCallbackQuerySchema = z.looseObject({
  code: z.string().max(4096).optional(),
  state: z.string().max(1024).optional(),
  error: z.string().max(256).optional(),
  error_description: z.string().max(2048).optional(),
});

/** Why a sign-in through the provider did not end in a session (lib/words/rights.ts says each in words). */
export const SIGN_IN_FAILURES = [
  "sso_not_configured",
  "provider_unavailable",
  "sign_in_refused",
  "sign_in_failed",
  "sign_in_expired",
  "no_rule",
] as const;
export type SignInFailure = (typeof SIGN_IN_FAILURES)[number];
