import "server-only";
// GET /api/v1/session's answer (console-api.md Security; "Single sign-on and team rights"):
// who this request is signed in as, how, until when, every right they have and, for one
// target, whether they may save it and why not. The pages read the same answer
// (./viewer.ts), so a page shows exactly the edit controls the API would accept.
import { OIDC_LOGIN_PATH, type SessionResponse, type TargetRight } from "@/lib/schema/api/session";
import { whoIs, type Identity } from "./authorize";
import { isReadOnly, readsNeedToken, type AuthConfig } from "./config";
import { isAuthError } from "./errors";
import { ANONYMOUS } from "./principal";
import { adminTargetsOf, grantsOf, writeRightOn } from "./rights";

const NOBODY: Identity = { principal: ANONYMOUS, expiresAtMs: null, expiredAtMs: null };

function targetRight(identity: Identity, config: AuthConfig, target: string): TargetRight {
  const right = writeRightOn(identity.principal, config, target);
  return right.allowed
    ? { target, can_write: true, why: null, rule: right.rule }
    : { target, can_write: false, why: right.why, rule: null };
}

export async function sessionAnswer(
  headers: Headers,
  config: AuthConfig,
  nowMs: number,
  target?: string,
): Promise<SessionResponse> {
  let identity = NOBODY;
  try {
    identity = await whoIs(headers, config, nowMs);
  } catch (e) {
    if (!isAuthError(e)) throw e; // a bearer token that matches nothing: this answer says "anonymous"
  }
  const { principal } = identity;
  const grants = grantsOf(principal, config);
  const adminTargets = adminTargetsOf(grants);
  const readOnly = isReadOnly(config);
  return {
    actor: principal.actor,
    role: principal.role,
    can_write: adminTargets.length > 0 && !readOnly,
    read_only: readOnly,
    reads_need_token: readsNeedToken(config),
    signed_in_with: principal.role === "anonymous" ? null : principal.person ? "oidc" : "token",
    groups: [...(principal.person?.groups ?? [])],
    expires_at_ms: identity.expiresAtMs,
    session_expired_at_ms: identity.expiredAtMs,
    grants: grants.map((g) => ({ ...g, targets: [...g.targets] })),
    admin_targets: readOnly ? [] : adminTargets,
    oidc: config.oidc ? { issuer: config.oidc.issuer, login_path: OIDC_LOGIN_PATH } : null,
    ...(target === undefined ? {} : { target: targetRight(identity, config, target) }),
  };
}
