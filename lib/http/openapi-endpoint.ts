import "server-only";
// What one entry of the served contract (./openapi.ts) says about its endpoint: method, path,
// access, query, headers, body, replies and the error statuses it documents, each status
// with its contract codes.
import type { z } from "zod";
import type { Access } from "./handler";

export type JsonSchema = Record<string, unknown>;
type Method = "get" | "put" | "post" | "delete";
export type HeaderName =
  | "If-Match"
  | "If-None-Match"
  | "X-Change-Reason"
  | "X-Preview-Digest"
  | "X-Evidence-Digest"
  | "X-Override-Gates"
  | "X-Override-Reason";

/** The documented error statuses; each names its contract codes. */
export const ERRORS = {
  "400": {
    description:
      "invalid_query (issues list each bad parameter; an endpoint without parameters refuses any), invalid_json, invalid_body or cannot_delete_default; on the OIDC callback: sign_in_expired (no sign-in in progress in this browser, or it took over ten minutes)",
    schema: "Error",
  },
  "401": {
    description:
      "unauthorized: no credentials, credentials that match no token, or a session that expired (the message says when); on the OIDC callback: sign_in_failed (state, PKCE, nonce or the ID token did not check out)",
    schema: "Error",
  },
  "403": {
    description:
      "forbidden (not an admin; or an admin whose rules do not cover this target: `admin_targets` lists the globs they may save, and `_default` needs `*`), cross_site (another origin) or read_only (no admin token and no admin rule configured); on the OIDC callback: sign_in_refused (the provider said no) or no_rule (no rule of CONSOLE_RBAC_FILE names the person)",
    schema: "Error",
  },
  "404": { description: "not_found; sso_not_configured (no CONSOLE_OIDC_*)", schema: "Error" },
  "409": {
    description:
      "preview_stale (the body carries the fresh preview and `changed`: per decision set, the targets added and removed since the reviewed preview; the clock alone never refuses), unsupported_version (a newer console wrote the stored document) or takeover_not_ready (a switch to mode planner while a gate fails; the body carries `gates: [{gate, ok, detail}]`); on /scheduler/reasons: journal_not_covering (the body carries the journal's `coverage`)",
    schema: "PolicyError",
  },
  "410": { description: "revision_compacted: the pinned revision was compacted (compact_revision)", schema: "Error" },
  "412": {
    description: "precondition_failed: someone else changed the policy first (the body carries what is stored now)",
    schema: "PolicyError",
  },
  "413": { description: "payload_too_large", schema: "Error" },
  "415": { description: "unsupported_media_type", schema: "Error" },
  "422": {
    description:
      "invalid_policy: every issue of the request at once (field and cross-field issues, `reason` when X-Change-Reason is missing), bounds stated in words; or no_change: the document equals the stored one (nothing written)",
    schema: "PolicyError",
  },
  "428": { description: "precondition_required: If-Match is missing", schema: "Error" },
  "503": {
    description:
      "etcd_unavailable: no etcd member answered (retry_after_ms); or overloaded: the heavy-work queue has no room for this request now (a read pinned outside the live view, a history, a diff or a preview; console-api.md 'Overload and memory'): refused at once, retry after Retry-After seconds (retry_after_ms); on an OIDC sign-in: provider_unavailable (the provider did not answer within 5 s, or answered 5xx)",
    schema: "Error",
  },
  "504": { description: "etcd_timeout", schema: "Error" },
} as const;
export type ErrorStatus = keyof typeof ERRORS;

export interface Reply {
  description: string;
  /** JSON body; omitted for a body-less or non-JSON answer */
  schema?: z.ZodType | z.ZodType[];
  /** non-JSON media type, e.g. Prometheus text */
  text?: string;
  etag?: boolean;
  /** a cacheable read (lib/http/encoded-response.ts): strong ETag of the bytes, Cache-Control: no-cache, 304 on If-None-Match */
  cached?: boolean;
  location?: boolean;
}

export interface Endpoint {
  method: Method;
  /** OpenAPI path, e.g. `/api/v1/policies/{target}` */
  path: string;
  operationId: string;
  summary: string;
  tag: keyof typeof TAGS;
  access: Access;
  query?: z.ZodType;
  /** path parameters with their descriptions */
  pathParams?: Record<string, string>;
  headers?: HeaderName[];
  body?: { schema: z.ZodType; description: string; form?: boolean };
  responses: Record<string, Reply>;
  errors: ErrorStatus[];
}

export const TAGS = {
  scheduler:
    "The planner's view of one etcd revision: demand, executors, assignments, shadow comparison, failures, skipped records",
  policies: "Per-table and fleet-default scheduling policies (scheduler-model.md §7.3): read, preview, guarded writes",
  audit: "Every accepted policy write, with its actor and reason",
  session:
    "Sign-in with a token, or through the OpenID Connect provider, for an httpOnly session cookie; who is signed in and what they may save",
  operations: "Health, metrics and this document",
  takeover:
    "From canary to takeover: the canary report, the fleet's facts and masters, and the gates a switch to mode planner must pass",
  time: "Every revision has a wall time: the revision clock, stepping by change, a table's history and what changed between two moments",
};

const READ_ERRORS: ErrorStatus[] = ["400", "401", "410", "503", "504"];
const WRITE_ERRORS: ErrorStatus[] = ["400", "401", "403", "409", "412", "413", "415", "422", "428", "503", "504"];
export { READ_ERRORS, WRITE_ERRORS };
export const TARGET = { target: "the table (URL-encoded, 1..512 characters), or `_default` for the fleet default" };
