// Who may change which policy, in words (console-api.md "Single sign-on and team rights"):
// why a policy is read-only for this person, what a rule is, and why a sign-in through the
// provider did not end in a session. The 403 of a refused save and the policy page say the
// same thing from here. Pure: no clock, no I/O.
import type { RightRefusal, SessionResponse, SignInFailure } from "../schema/api/session";
import { DEFAULT_POLICY_TARGET } from "../schema/policy";
import { formatTime } from "../schema/format";

/** `orders/*, clicks` */
const globList = (globs: readonly string[]) => globs.join(", ");

const targetName = (target: string) => (target === DEFAULT_POLICY_TARGET ? "the fleet default (_default)" : target);

/** Why `actor` may not save `target`'s policy, in one sentence. */
export function refusalWords(
  why: RightRefusal,
  at: { target: string; actor: string; adminTargets: readonly string[] },
): string {
  const words: Record<RightRefusal, () => string> = {
    read_only: () =>
      "The console is read-only: no admin token (CONSOLE_ADMIN_TOKENS) and no admin rule (CONSOLE_RBAC_FILE) is configured, so nobody can change policies here.",
    signed_out: () => "Sign in to change policies.",
    not_admin: () =>
      `${at.actor} is a viewer: no token or rule makes them an admin, so policies are read-only for them.`,
    outside_targets: () =>
      `${at.actor} may change the policies of ${globList(at.adminTargets)} only; ${targetName(at.target)} is outside them` +
      (at.target === DEFAULT_POLICY_TARGET ? ' (the fleet default needs a rule with targets ["*"]).' : "."),
  };
  return words[why]();
}

/** A session that ended: the page treats it as signed out, and says so. */
export function sessionExpiredWords(expiredAtMs: number): string {
  return `Your session expired at ${formatTime(expiredAtMs)}: sign in again.`;
}

/** `rule 2 (group team-orders)`, or what else a right came from. */
export function ruleWords(rule: {
  source: "token" | "rbac_file" | "sign_in";
  index: number | null;
  subject: string | null;
}): string {
  if (rule.source === "token") return "an admin token";
  if (rule.source === "sign_in") return "signing in";
  return `rule ${rule.index} of CONSOLE_RBAC_FILE (${rule.subject})`;
}

/** Why a sign-in through the provider did not end in a session. */
export const SIGN_IN_FAILURE_WORDS: Record<SignInFailure, string> = {
  sso_not_configured: "Single sign-on is not configured on this console (CONSOLE_OIDC_*).",
  provider_unavailable:
    "The identity provider did not answer, so you cannot sign in with it right now. Try again in a moment, or sign in with a token.",
  sign_in_refused: "The identity provider did not sign you in.",
  sign_in_failed: "The identity provider's answer did not check out, so you were not signed in. Start again.",
  sign_in_expired: "That sign-in took too long or was started elsewhere. Start again.",
  no_rule: "You signed in, but no rule of this console (CONSOLE_RBAC_FILE) names you or your groups.",
};

/** Why a policy page shows no edit controls to this person (null when they may edit, or are signed out). */
export function whyReadOnly(session: SessionResponse, target: string): string | null {
  const right = session.target;
  if (!right || right.can_write || right.why === null) return null;
  if (right.why === "signed_out") return null; // the session bar says so (and whether the session expired)
  return refusalWords(right.why, { target, actor: session.actor, adminTargets: session.admin_targets });
}
