import "server-only";

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

  constructor(code: AuthErrorCode, message: string) {
    super(message);
    this.name = "AuthError";
    this.code = code;
    this.status = code === "unauthorized" ? 401 : 403;
  }

  /** The JSON error body of console-api.md conventions. */
  body(): { error: { code: AuthErrorCode; message: string } } {
    return { error: { code: this.code, message: this.message } };
  }
}

export function isAuthError(e: unknown): e is AuthError {
  return e instanceof AuthError;
}
