import "server-only";
import type { SignInFailure } from "@/lib/schema/api/session";
// console-api.md "Conventions": errors are JSON `{error: {code, message, ...}}` with a stable
// snake_case code. Typed etcd errors (lib/etcd) are classified by name, never by message.

export type ApiErrorCode =
  | "invalid_query"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "revision_compacted"
  | "etcd_unavailable"
  | "etcd_timeout"
  // heavy work past its queue (console-api.md "Additions (fourth version)": Overload and memory)
  | "overloaded"
  | "internal"
  // the write side (console-api.md PUT/DELETE/preview, Security, Additions)
  | "cross_site"
  | "read_only"
  | "invalid_json"
  | "invalid_body"
  | "invalid_policy"
  | "unsupported_media_type"
  | "payload_too_large"
  | "precondition_required"
  | "precondition_failed"
  | "preview_stale"
  | "no_change"
  | "unsupported_version"
  | "cannot_delete_default"
  | "takeover_not_ready"
  // the decision journal (console-api.md "Additions (third version)")
  | "journal_not_covering"
  // a sign-in through the OpenID Connect provider that ended without a session (fourth version)
  | SignInFailure;

/** An error a handler throws on purpose; the wrapper turns it into its status and body. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ApiErrorCode,
    message: string,
    readonly extra: Record<string, unknown> = {},
    /** response headers, e.g. the ETag of a 412 or `connection: close` after an unread body */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "ApiError";
  }
}
export const notFound = (message: string) => new ApiError(404, "not_found", message);

/** Time a client should wait before retrying after etcd was unreachable. */
const ETCD_RETRY_AFTER_MS = 2000;

interface Classified {
  status: number;
  body: { error: { code: ApiErrorCode; message: string; [extra: string]: unknown } };
  headers?: Record<string, string>;
}

function numberField(e: object, ...names: string[]): number | undefined {
  for (const n of names) {
    const v = (e as Record<string, unknown>)[n];
    if (typeof v === "number" && Number.isFinite(v)) return v;
    if (typeof v === "bigint") return Number(v);
    if (typeof v === "string" && /^\d+$/.test(v)) return Number(v);
  }
  return undefined;
}

/** etcd3's auth failures (their classes set no `name`, so also matched by constructor name and text) */
const PERMISSION_DENIED_NAMES = new Set([
  "EtcdPermissionDeniedError",
  "GRPCPermissionDeniedError",
  "EtcdRoleNotGrantedError",
]);
const UNAUTHENTICATED_NAMES = new Set([
  "GRPCUnauthenticatedError",
  "EtcdAuthenticationFailedError",
  "EtcdInvalidAuthTokenError",
  "EtcdUserNotFoundError",
]);
const PERMISSION_DENIED_TEXT = /etcdserver: permission denied|PERMISSION_DENIED|role is not granted/i;
const UNAUTHENTICATED_TEXT =
  /UNAUTHENTICATED|etcdserver: (authentication failed|invalid auth token|user name not found)/i;

/**
 * gRPC PERMISSION_DENIED (7) / UNAUTHENTICATED (16) anywhere in the error or its causes
 * (a least-privilege etcd user without read on the prefix, bad or expired credentials).
 */
function authFailure(e: object): "permission_denied" | "unauthenticated" | null {
  let cur: unknown = e;
  for (let depth = 0; depth < 5 && typeof cur === "object" && cur !== null; depth++) {
    const c = cur as {
      name?: unknown;
      code?: unknown;
      message?: unknown;
      cause?: unknown;
      constructor?: { name?: unknown };
    };
    const names = [c.name, c.constructor?.name].filter((n): n is string => typeof n === "string");
    const message = typeof c.message === "string" ? c.message : "";
    if (c.code === 7 || names.some((n) => PERMISSION_DENIED_NAMES.has(n)) || PERMISSION_DENIED_TEXT.test(message))
      return "permission_denied";
    if (c.code === 16 || names.some((n) => UNAUTHENTICATED_NAMES.has(n)) || UNAUTHENTICATED_TEXT.test(message))
      return "unauthenticated";
    cur = c.cause;
  }
  return null;
}

/**
 * Maps any thrown value to the contract's status + body, or null for an unexpected error
 * (the wrapper answers 500 `internal` and logs it). lib/etcd's typed errors are matched by
 * `name` so that a duplicated module instance in another bundle still matches.
 */
export function classifyError(e: unknown): Classified | null {
  if (e instanceof ApiError)
    return { status: e.status, body: { error: { code: e.code, message: e.message, ...e.extra } }, headers: e.headers };
  if (typeof e !== "object" || e === null) return null;
  const name = (e as { name?: unknown }).name;
  const message = e instanceof Error ? e.message : String(e);
  switch (name) {
    case "RevisionCompacted":
    case "RevisionCompactedError": {
      const compact = numberField(e, "compactRevision", "compact_revision") ?? null;
      return { status: 410, body: { error: { code: "revision_compacted", message, compact_revision: compact } } };
    }
    case "EtcdUnavailable":
    case "EtcdUnavailableError":
      return {
        status: 503,
        body: {
          error: {
            code: "etcd_unavailable",
            message,
            retry_after_ms: numberField(e, "retryAfterMs", "retry_after_ms") ?? ETCD_RETRY_AFTER_MS,
          },
        },
      };
    case "EtcdTimeout":
    case "EtcdTimeoutError":
      return { status: 504, body: { error: { code: "etcd_timeout", message } } };
    case "Overloaded": {
      // lib/live/admission.ts: the heavy-work queue had no room; come back when it may
      const retryAfterMs = numberField(e, "retryAfterMs") ?? 1000;
      return {
        status: 503,
        body: { error: { code: "overloaded", message, retry_after_ms: retryAfterMs } },
        headers: { "retry-after": String(Math.max(1, Math.ceil(retryAfterMs / 1000))) },
      };
    }
    case "FutureRevision":
      return {
        status: 400,
        body: {
          error: { code: "invalid_query", message, issues: [{ path: ["revision"], code: "future_revision", message }] },
        },
      };
    case "NotFound":
    case "NotFoundError":
      return { status: 404, body: { error: { code: "not_found", message } } };
    default: {
      const auth = authFailure(e);
      if (auth === null) return null;
      const why =
        auth === "permission_denied"
          ? "etcd denied the console's user permission to read (grant its role read on the prefix)"
          : "etcd rejected the console's credentials (check ETCD_USERNAME / ETCD_PASSWORD)";
      return {
        status: 503,
        body: {
          error: {
            code: "etcd_unavailable",
            message: `${why}: ${message.slice(0, 200)}`,
            reason: auth,
            retry_after_ms: ETCD_RETRY_AFTER_MS,
          },
        },
      };
    }
  }
}
