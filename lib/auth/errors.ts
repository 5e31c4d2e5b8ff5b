import "server-only";
import type { SignInFailure } from "@/lib/schema/api/session";

// Typed auth failures with stable codes (console-api.md Security). The API wrapper maps
// them to `{error: {code, message}}` with `status`.
export type AuthErrorCode =
  | "unauthorized" // 401: no credentials, or credentials that match no token
  | "forbidden" // 403: valid credentials without the needed role
  | "cross_site" // 403: a mutation from another origin
  | "read_only"; // 403: no admin tokens configured, so nothing can be written

export class AuthError extends Error {
  readonly status: 401 | 403;
  readonly code: AuthErrorCode;

  constructor(
    code: AuthErrorCode,
    message: string,
    /** more fields of the error body, e.g. the globs an admin may save (`admin_targets`) */
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = "AuthError";
    this.code = code;
    this.status = code === "unauthorized" ? 401 : 403;
  }

  /** The JSON error body of console-api.md conventions. */
  body(): { error: { code: AuthErrorCode; message: string } } {
    return { error: { code: this.code, message: this.message, ...this.details } };
  }
}

export function isAuthError(e: unknown): e is AuthError {
  return e instanceof AuthError;
}

/** The HTTP status of each way a sign-in through the provider can end without a session. */
const SIGN_IN_STATUS: Record<SignInFailure, 400 | 401 | 403 | 404 | 503> = {
  sso_not_configured: 404,
  provider_unavailable: 503,
  sign_in_refused: 403,
  sign_in_failed: 401,
  sign_in_expired: 400,
  no_rule: 403,
};

/**
 * A sign-in through the OpenID Connect provider that ended without a session (console-api.md
 * "Single sign-on and team rights"), with a stable code; `message` carries the detail for
 * the log and for API clients. The page shows the code's words (lib/words/rights.ts).
 */
export class SignInError extends Error {
  readonly status: 400 | 401 | 403 | 404 | 503;

  constructor(
    readonly code: SignInFailure,
    message: string,
  ) {
    super(message);
    this.name = "SignInError";
    this.status = SIGN_IN_STATUS[code];
  }
}
