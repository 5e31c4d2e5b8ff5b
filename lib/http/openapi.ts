import "server-only";
// GET /api/v1/openapi.json: OpenAPI 3.1 generated from the zod schemas of lib/schema/api
// (zod 4 JSON Schema output), so the contract served and the code cannot drift. Every
// endpoint of console-api.md is one entry of ENDPOINTS: adding an endpoint is adding an
// entry. `redocly.yaml` holds the lint rules; lib/http/openapi.test.ts runs the linter.
import { z } from "zod";
import { errorBodySchema, minRevisionQuerySchema, noQuerySchema } from "@/lib/schema/api/common";
import { takesRevision } from "./min-revision";
import { assignmentsQuerySchema, assignmentsResponse } from "@/lib/schema/api/assignments";
import { auditQuerySchema, auditResponseSchema } from "@/lib/schema/api/audit";
import { demandChanges, demandDetail, demandList, demandQuerySchema } from "@/lib/schema/api/demand";
import { executorsQuery, executorsResponse } from "@/lib/schema/api/executors";
import { failuresQuerySchema, failuresResponse } from "@/lib/schema/api/failures";
import { healthResponseSchema } from "@/lib/schema/api/health";
import { journalCoverageSchema, journalCoverageQuery } from "@/lib/schema/api/journal";
import {
  reasonTargetsQuerySchema,
  reasonTargetsResponseSchema,
  reasonsQuerySchema,
  reasonsResponseSchema,
} from "@/lib/schema/api/reasons";
import {
  deletedPolicyResponseSchema,
  policyBody,
  policyErrorBodySchema,
  policyListResponseSchema,
  policyQuerySchema,
  policyResponseSchema,
  previewQuerySchema,
  previewResponseSchema,
  savedPolicyResponse,
} from "@/lib/schema/api/policies";
import {
  sessionResponseSchema,
  signedInResponseSchema,
  signedOutResponseSchema,
  signInBodySchema,
} from "@/lib/schema/api/session";
import {
  shadowHistoryQuerySchema,
  shadowHistoryResponseSchema,
  shadowQuery,
  shadowResponse,
} from "@/lib/schema/api/shadow";
import { skippedQuery, skippedResponse } from "@/lib/schema/api/skipped";
import { changeQuerySchema, revisionTime, revisionTimeQuerySchema } from "@/lib/schema/api/revisions";
import { historyQuerySchema, historyResponseSchema } from "@/lib/schema/api/history";
import { diffQuerySchema, diffResponseSchema } from "@/lib/schema/api/diff";
import { canaryQuery, canaryResponseSchema } from "@/lib/schema/api/canary";
import { factsQuery, factsResponseSchema, mastersQuery, mastersResponseSchema } from "@/lib/schema/api/fleet";
import { gatesQuerySchema, gatesResponseSchema } from "@/lib/schema/api/takeover";
import type { Access } from "./handler";

type JsonSchema = Record<string, unknown>;
type Method = "get" | "put" | "post" | "delete";
type HeaderName =
  | "If-Match"
  | "If-None-Match"
  | "X-Change-Reason"
  | "X-Preview-Digest"
  | "X-Evidence-Digest"
  | "X-Override-Gates"
  | "X-Override-Reason";

/** The documented error statuses; each names its contract codes. */
const ERRORS = {
  "400": {
    description:
      "invalid_query (issues list each bad parameter; an endpoint without parameters refuses any), invalid_json, invalid_body or cannot_delete_default",
    schema: "Error",
  },
  "401": { description: "unauthorized: no credentials, or credentials that match no token", schema: "Error" },
  "403": {
    description: "forbidden (not an admin), cross_site (another origin) or read_only (no admin tokens configured)",
    schema: "Error",
  },
  "404": { description: "not_found", schema: "Error" },
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
  "503": { description: "etcd_unavailable: no etcd member answered (retry_after_ms)", schema: "Error" },
  "504": { description: "etcd_timeout", schema: "Error" },
} as const;
type ErrorStatus = keyof typeof ERRORS;

interface Reply {
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

const TAGS = {
  scheduler:
    "The planner's view of one etcd revision: demand, executors, assignments, shadow comparison, failures, skipped records",
  policies: "Per-table and fleet-default scheduling policies (scheduler-model.md §7.3): read, preview, guarded writes",
  audit: "Every accepted policy write, with its actor and reason",
  session: "Sign-in with a token for an httpOnly session cookie",
  operations: "Health, metrics and this document",
  takeover:
    "From canary to takeover: the canary report, the fleet's facts and masters, and the gates a switch to mode planner must pass",
  time: "Every revision has a wall time: the revision clock, stepping by change, a table's history and what changed between two moments",
};

const READ_ERRORS: ErrorStatus[] = ["400", "401", "410", "503", "504"];
const WRITE_ERRORS: ErrorStatus[] = ["400", "401", "403", "409", "412", "413", "415", "422", "428", "503", "504"];
const TARGET = { target: "the table (URL-encoded, 1..512 characters), or `_default` for the fleet default" };

export const ENDPOINTS: Endpoint[] = [
  {
    method: "get",
    path: "/api/v1/scheduler/demand",
    operationId: "getDemand",
    tag: "scheduler",
    access: "read",
    summary:
      "Demand list (planner order, filters, cursor paging), its changes since a listing (?since=), or one table with ?target=",
    query: demandQuerySchema,
    headers: ["If-None-Match"],
    responses: {
      "200": {
        description: "the list, the changes since a listing, or one table",
        schema: [demandList, demandChanges, demandDetail],
        cached: true,
      },
    },
    errors: [...READ_ERRORS, "404"],
  },
  {
    method: "get",
    path: "/api/v1/scheduler/executors",
    operationId: "getExecutors",
    tag: "scheduler",
    access: "read",
    summary: "Executors with headroom and orphan rows",
    query: executorsQuery,
    headers: ["If-None-Match"],
    responses: { "200": { description: "executors", schema: executorsResponse, cached: true } },
    errors: READ_ERRORS,
  },
  {
    method: "get",
    path: "/api/v1/scheduler/assignments",
    operationId: "getAssignments",
    tag: "scheduler",
    access: "read",
    summary: "Live assignments with bind age and overdue flag",
    query: assignmentsQuerySchema,
    responses: { "200": { description: "assignments", schema: assignmentsResponse } },
    errors: READ_ERRORS,
  },
  {
    method: "get",
    path: "/api/v1/scheduler/shadow",
    operationId: "getShadow",
    tag: "scheduler",
    access: "read",
    summary: "Shadow comparison: outcomes and placements, console vs master",
    query: shadowQuery,
    headers: ["If-None-Match"],
    responses: { "200": { description: "the comparison", schema: shadowResponse, cached: true } },
    errors: READ_ERRORS,
  },
  {
    method: "get",
    path: "/api/v1/scheduler/shadow/history",
    operationId: "getShadowHistory",
    tag: "scheduler",
    access: "read",
    summary: "Shadow outcome counts sampled over time",
    query: shadowHistoryQuerySchema,
    responses: { "200": { description: "samples", schema: shadowHistoryResponseSchema } },
    errors: ["400", "401", "503", "504"],
  },
  {
    method: "get",
    path: "/api/v1/scheduler/failures",
    operationId: "getFailures",
    tag: "scheduler",
    access: "read",
    summary: "Merge failure ledger (read-time corrected) and task cooldowns",
    query: failuresQuerySchema,
    responses: { "200": { description: "failures and cooldowns", schema: failuresResponse } },
    errors: READ_ERRORS,
  },
  {
    method: "get",
    path: "/api/v1/scheduler/skipped",
    operationId: "getSkipped",
    tag: "scheduler",
    access: "read",
    summary: "Records skipped at one revision, with reasons",
    query: skippedQuery,
    responses: { "200": { description: "skipped records", schema: skippedResponse } },
    errors: READ_ERRORS,
  },

  {
    method: "get",
    path: "/api/v1/scheduler/demand/history",
    operationId: "getDemandHistory",
    tag: "time",
    access: "read",
    summary:
      "One table over time: from the decision journal where it covers the window (a point per entry change), else a point per revision at which its own keys changed, each evaluated at its own time; with the time in each verdict",
    query: historyQuerySchema,
    responses: {
      "200": {
        description: "the points, oldest first, each naming its basis; time_in_state; where compaction cut the history",
        schema: historyResponseSchema,
      },
    },
    errors: [...READ_ERRORS, "404"],
  },
  {
    method: "get",
    path: "/api/v1/scheduler/diff",
    operationId: "getDiff",
    tag: "time",
    access: "read",
    summary:
      "What changed between two moments, each side evaluated at its own time. `from`/`to`: a revision (digits below 10^12), Unix ms (10^12 and up) or an ISO 8601 time with its zone; `from_ms`/`to_ms` still work",
    query: diffQuerySchema,
    responses: { "200": { description: "counts and members of every change", schema: diffResponseSchema } },
    errors: [...READ_ERRORS, "404"],
  },
  {
    method: "get",
    path: "/api/v1/revisions/time",
    operationId: "getRevisionTime",
    tag: "time",
    access: "read",
    summary: "A revision's wall time, or the newest revision at or before a wall time, with its basis and error",
    query: revisionTimeQuerySchema,
    responses: { "200": { description: "the revision and when it was written", schema: revisionTime } },
    errors: [...READ_ERRORS, "404"],
  },
  {
    method: "get",
    path: "/api/v1/journal/coverage",
    operationId: "getJournalCoverage",
    tag: "time",
    access: "read",
    summary: "The decision journal's span, entries, bytes, retention and gaps (no_sampler, etcd_unavailable, trimmed)",
    query: journalCoverageQuery,
    responses: { "200": { description: "what the journal covers", schema: journalCoverageSchema } },
    errors: READ_ERRORS,
  },
  {
    method: "get",
    path: "/api/v1/scheduler/reasons",
    operationId: "getReasons",
    tag: "time",
    access: "read",
    summary:
      "Due tables by verdict code at each step of a window, from the decision journal. `due`: tables whose journalled class is neither tail nor idle (the entry holds the class, not the score: §6.2's non-tail scored tables); `placed` counts would_place. Defaults: the last hour, about 60 steps; a to_ms up to 5 minutes ahead reads as now",
    query: reasonsQuerySchema,
    responses: { "200": { description: "one point per step, oldest first", schema: reasonsResponseSchema } },
    errors: [...READ_ERRORS, "409"],
  },
  {
    method: "get",
    path: "/api/v1/scheduler/reasons/targets",
    operationId: "getReasonTargets",
    tag: "time",
    access: "read",
    summary:
      "The due tables holding one verdict code (`placed` for would_place) at one moment, from the decision journal (a band of the reasons view, opened)",
    query: reasonTargetsQuerySchema,
    responses: {
      "200": {
        description: "the tables, sorted, and the journal evaluation that held then",
        schema: reasonTargetsResponseSchema,
      },
    },
    errors: [...READ_ERRORS, "409"],
  },
  {
    method: "get",
    path: "/api/v1/revisions/change",
    operationId: "getRevisionChange",
    tag: "time",
    access: "read",
    summary: "The neighbouring revision at which something a page shows changed (step back / forward one change)",
    query: changeQuerySchema,
    responses: { "200": { description: "the neighbouring revision and its time", schema: revisionTime } },
    errors: [...READ_ERRORS, "404"],
  },

  {
    method: "get",
    path: "/api/v1/policies",
    operationId: "listPolicies",
    tag: "policies",
    access: "read",
    summary: "The fleet default and every per-table override, at one revision",
    query: policyQuerySchema,
    responses: { "200": { description: "stored policies", schema: policyListResponseSchema } },
    errors: READ_ERRORS,
  },
  {
    method: "get",
    path: "/api/v1/policies/{target}",
    operationId: "getPolicy",
    tag: "policies",
    access: "read",
    summary: "One policy: stored document, effective policy and the source of every field",
    query: policyQuerySchema,
    pathParams: TARGET,
    responses: {
      "200": {
        description: "the policy; ETag = the stored record's mod_revision (0 when absent)",
        schema: policyResponseSchema,
        etag: true,
      },
    },
    errors: READ_ERRORS,
  },
  {
    method: "put",
    path: "/api/v1/policies/{target}",
    operationId: "putPolicy",
    tag: "policies",
    access: "admin",
    pathParams: TARGET,
    summary:
      "Replace the policy document: one etcd txn comparing If-Match, writing the policy and its audit record; nothing is written on any error",
    headers: [
      "If-Match",
      "X-Change-Reason",
      "X-Preview-Digest",
      "X-Evidence-Digest",
      "X-Override-Gates",
      "X-Override-Reason",
    ],
    body: { schema: policyBody, description: "the sparse policy document (null or absent = inherit)" },
    responses: {
      "200": { description: "saved; ETag = the new mod_revision", schema: savedPolicyResponse, etag: true },
    },
    errors: WRITE_ERRORS,
  },
  {
    method: "delete",
    path: "/api/v1/policies/{target}",
    operationId: "deletePolicy",
    tag: "policies",
    access: "admin",
    pathParams: TARGET,
    summary: "Remove a per-table override (never `_default`), with the same guards as PUT",
    headers: ["If-Match", "X-Change-Reason", "X-Preview-Digest"],
    responses: { "200": { description: "deleted", schema: deletedPolicyResponseSchema, etag: true } },
    errors: [...WRITE_ERRORS, "404"],
  },
  {
    method: "post",
    path: "/api/v1/policies/{target}/preview",
    operationId: "previewPolicy",
    tag: "policies",
    access: "read",
    pathParams: TARGET,
    summary:
      "What saving the body would change on one revision: changed tables, the blast-radius summary, its digest and range warnings (writes nothing)",
    query: previewQuerySchema,
    body: { schema: policyBody, description: "the proposed document (`{}` previews deleting an override)" },
    responses: { "200": { description: "the preview", schema: previewResponseSchema } },
    errors: ["400", "401", "403", "413", "415", "422", "503", "504"],
  },
  {
    method: "get",
    path: "/api/v1/canary",
    operationId: "getCanary",
    tag: "takeover",
    access: "read",
    summary:
      "The shadow outcomes over a window (1 h, 6 h, 24 h, 7 d) as observations: level and trend, placement agreement, chronic tables, the evidence digest",
    query: canaryQuery,
    responses: { "200": { description: "the canary report", schema: canaryResponseSchema } },
    errors: READ_ERRORS,
  },
  {
    method: "get",
    path: "/api/v1/fleet/facts",
    operationId: "getFleetFacts",
    tag: "takeover",
    access: "read",
    summary:
      "Tables and hot share, generation sizes, task durations and failure shares per kind (nearest-rank), and what they imply",
    query: factsQuery,
    responses: { "200": { description: "the facts", schema: factsResponseSchema } },
    errors: READ_ERRORS,
  },
  {
    method: "get",
    path: "/api/v1/fleet/masters",
    operationId: "getFleetMasters",
    tag: "takeover",
    access: "read",
    summary:
      "Each resident master's version against CONSOLE_POLICY_AWARE_VERSION, and whether the fleet is homogeneous",
    query: mastersQuery,
    responses: { "200": { description: "the masters", schema: mastersResponseSchema } },
    errors: READ_ERRORS,
  },
  {
    method: "get",
    path: "/api/v1/takeover/gates",
    operationId: "getTakeoverGates",
    tag: "takeover",
    access: "read",
    summary: "The gates a switch of a table (or _default) to mode planner must pass now",
    query: gatesQuerySchema,
    responses: { "200": { description: "the gates", schema: gatesResponseSchema } },
    errors: ["400", "401", "503", "504"],
  },
  {
    method: "get",
    path: "/api/v1/audit",
    operationId: "listAudit",
    tag: "audit",
    access: "read",
    summary:
      "Policy changes, newest first, with actors and reasons (entries up to ?revision=R when pinned); filters target, actor, from_ms/to_ms (inclusive) and q (a substring of the reason or of the override reason, any case)",
    query: auditQuerySchema,
    responses: { "200": { description: "audit entries", schema: auditResponseSchema } },
    errors: READ_ERRORS,
  },

  {
    method: "get",
    path: "/api/v1/session",
    operationId: "getSession",
    tag: "session",
    access: "public",
    summary: "Who this request is signed in as, and whether the console is read-only",
    query: noQuerySchema,
    responses: { "200": { description: "the session", schema: sessionResponseSchema } },
    errors: ["400"],
  },
  {
    method: "post",
    path: "/api/v1/session",
    operationId: "signIn",
    tag: "session",
    access: "public",
    summary:
      "Sign in with a token (sets the session cookie), or sign out with action=signout; a form gets a 303 redirect",
    body: { schema: signInBodySchema, description: '`{token, next?}` or `{action: "signout"}`', form: true },
    responses: {
      "200": { description: "signed in or out (JSON)", schema: [signedInResponseSchema, signedOutResponseSchema] },
      "303": { description: "the sign-in form's redirect", location: true },
    },
    errors: ["400", "401", "403", "413", "415"],
  },
  {
    method: "delete",
    path: "/api/v1/session",
    operationId: "signOut",
    tag: "session",
    access: "public",
    summary: "Sign out (clears the session cookie)",
    query: noQuerySchema,
    responses: { "200": { description: "signed out", schema: signedOutResponseSchema } },
    errors: ["400", "403"],
  },

  {
    method: "get",
    path: "/api/v1/health",
    operationId: "getHealth",
    tag: "operations",
    access: "public",
    summary: "etcd endpoints, leader, live-cache state and readiness; 503 while starting or when no endpoint answers",
    query: noQuerySchema,
    responses: {
      "200": { description: "etcd answers", schema: healthResponseSchema },
      "503": {
        description:
          "not ready yet (status starting: the first full read and plan are not done) or no endpoint answers (status down)",
        schema: healthResponseSchema,
      },
    },
    errors: ["400"],
  },
  {
    method: "get",
    path: "/api/metrics",
    operationId: "getMetrics",
    tag: "operations",
    access: "public",
    summary: "Prometheus metrics",
    query: noQuerySchema,
    responses: { "200": { description: "the text exposition format", text: "text/plain" } },
    errors: ["400"],
  },
  {
    method: "get",
    path: "/api/v1/openapi.json",
    operationId: "getOpenApi",
    tag: "operations",
    access: "public",
    summary: "This OpenAPI document",
    query: noQuerySchema,
    responses: { "200": { description: "OpenAPI 3.1", schema: z.looseObject({ openapi: z.string() }) } },
    errors: ["400"],
  },
];

function schemaOf(s: z.ZodType, io: "input" | "output"): JsonSchema {
  const { $schema: _drop, ...rest } = z.toJSONSchema(s, { io, unrepresentable: "any" }) as JsonSchema;
  return rest;
}

/** Query object schema → OpenAPI parameters (repeatable params become arrays, `explode`). */
function queryParameters(query: z.ZodType): JsonSchema[] {
  const json = schemaOf(query, "input") as {
    properties?: Record<string, JsonSchema & { description?: string }>;
    required?: string[];
  };
  return Object.entries(json.properties ?? {}).map(([name, schema]) => ({
    name,
    in: "query",
    required: json.required?.includes(name) ?? false,
    description: schema.description ?? QUERY_HELP[name] ?? name,
    schema,
    ...(JSON.stringify(schema).includes('"array"') ? { style: "form", explode: true } : {}),
  }));
}

/**
 * `?min_revision` belongs to the wrapper (./min-revision.ts), not to a route's query schema:
 * every GET that reads at one revision (it takes `?revision`) accepts it.
 */
function minRevisionParameters(e: Endpoint): JsonSchema[] {
  return e.method === "get" && e.query !== undefined && takesRevision(e.query)
    ? queryParameters(minRevisionQuerySchema)
    : [];
}

const QUERY_HELP: Record<string, string> = {
  min_revision:
    "a live read answers at this revision or later (read-your-writes after a save): the server waits up to 5 s for it, then answers with what it has; the X-Min-Revision response header says `reached` or `timed_out`. Ignored on a pinned read",
  revision: "pin an etcd revision (time travel); 410 when compacted",
  now_ms: "evaluate the planner as of this wall time (Unix ms)",
  target: "a table (raw, URL-encoded)",
  limit: "page size",
  cursor: "the next_cursor of the previous page",
  since:
    "the `listing` of an earlier answer: answer the whole listing as the changes to it (changes: null when it is no longer known; read it again)",
};

const HEADER_PARAMETERS: Record<HeaderName, JsonSchema> = {
  "If-Match": {
    name: "If-Match",
    in: "header",
    required: true,
    description: "the mod_revision (ETag) the editor read; 0 to create",
    schema: { type: "string", pattern: '^(W/)?"?[0-9]{1,16}"?$' },
  },
  "If-None-Match": {
    name: "If-None-Match",
    in: "header",
    required: false,
    description: "the ETag of the answer the client holds: 304 without a body while it is still the answer",
    schema: { type: "string" },
  },
  "X-Change-Reason": {
    name: "X-Change-Reason",
    in: "header",
    required: true,
    description:
      "why the policy changes, 1..500 characters (percent-encoded UTF-8 when not ASCII); kept in the audit entry",
    schema: { type: "string", minLength: 1 },
  },
  "X-Preview-Digest": {
    name: "X-Preview-Digest",
    in: "header",
    required: false,
    description:
      "the digest of the reviewed preview (it binds the decision sets: targets losing or gaining a placement, promoted, demoted, newly starving): 409 preview_stale when saving now would decide differently for a table whose own records did not move since the review",
    schema: { type: "string", pattern: "^[0-9a-f]{64}$" },
  },
  "X-Evidence-Digest": {
    name: "X-Evidence-Digest",
    in: "header",
    required: false,
    description:
      "the `digest` of the canary report the admin read (GET /api/v1/canary, within 15 minutes): the takeover gate's evidence_read",
    schema: { type: "string" },
  },
  "X-Override-Gates": {
    name: "X-Override-Gates",
    in: "header",
    required: false,
    description:
      "comma list of takeover gates to override (fleet_homogeneous, observed_days, evidence_read); the audit entry records them",
    schema: { type: "string" },
  },
  "X-Override-Reason": {
    name: "X-Override-Reason",
    in: "header",
    required: false,
    description:
      "why the gates are overridden, 1..500 characters; required with X-Override-Gates; kept in the audit entry",
    schema: { type: "string" },
  },
};
/** Response headers of a cacheable read (errors and writes are `Cache-Control: no-store`). */
const CACHED_HEADERS: JsonSchema = {
  ETag: {
    description: "strong validator of the answer's bytes (before the server's gzip); send it back in If-None-Match",
    schema: { type: "string" },
  },
  "Cache-Control": {
    description: "no-cache: a cache may keep the answer but must revalidate it on every use",
    schema: { type: "string", const: "no-cache" },
  },
  Vary: { description: "accept-encoding: gzipped when the request accepts it", schema: { type: "string" } },
};
const headerKey = (h: HeaderName) => h.replace(/-/g, "");

const SECURITY: Record<Access, JsonSchema[]> = {
  public: [],
  // open unless CONSOLE_VIEWER_TOKENS is set
  read: [{}, { bearer: [] }, { session: [] }],
  admin: [{ bearer: [] }, { session: [] }],
};

function reply(r: Reply): JsonSchema {
  const out: JsonSchema = { description: r.description };
  const headers: JsonSchema = {};
  if (r.etag) headers.ETag = { $ref: "#/components/headers/ETag" };
  if (r.cached) Object.assign(headers, CACHED_HEADERS);
  if (r.location) headers.Location = { description: "where the browser goes next", schema: { type: "string" } };
  if (Object.keys(headers).length > 0) out.headers = headers;
  if (r.schema) {
    const schema = Array.isArray(r.schema)
      ? { oneOf: r.schema.map((s) => schemaOf(s, "output")) }
      : schemaOf(r.schema, "output");
    out.content = { "application/json": { schema } };
  } else if (r.text) out.content = { [r.text]: { schema: { type: "string" } } };
  return out;
}

function operation(e: Endpoint): JsonSchema {
  const query = e.query ? queryParameters(e.query) : [];
  const parameters = [
    ...Object.entries(e.pathParams ?? {}).map(([name, description]) => ({
      name,
      in: "path",
      required: true,
      description,
      schema: { type: "string", minLength: 1, maxLength: 512 },
    })),
    ...query,
    ...minRevisionParameters(e),
    // a read's If-None-Match is written out where it is used (GET parameters carry name and schema)
    ...(e.headers ?? []).map((h) =>
      h === "If-None-Match" ? HEADER_PARAMETERS[h] : { $ref: `#/components/parameters/${headerKey(h)}` },
    ),
  ];
  const responses: JsonSchema = {};
  for (const [status, r] of Object.entries(e.responses)) responses[status] = reply(r);
  if (Object.values(e.responses).some((r) => r.cached))
    responses["304"] = {
      description: "not modified: If-None-Match holds the current ETag (no body)",
      headers: CACHED_HEADERS,
    };
  for (const status of e.errors) responses[status] = { $ref: `#/components/responses/E${status}` };
  return {
    operationId: e.operationId,
    summary: e.summary,
    tags: [e.tag],
    security: SECURITY[e.access],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(e.body
      ? {
          requestBody: {
            required: true,
            description: e.body.description,
            content: {
              "application/json": { schema: schemaOf(e.body.schema, "input") },
              ...(e.body.form
                ? { "application/x-www-form-urlencoded": { schema: schemaOf(e.body.schema, "input") } }
                : {}),
            },
          },
        }
      : {}),
    responses,
  };
}

export function openApiDocument(endpoints: readonly Endpoint[] = ENDPOINTS): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const e of endpoints) (paths[e.path] ??= {})[e.method] = operation(e);
  const errorResponses = Object.fromEntries(
    (Object.keys(ERRORS) as ErrorStatus[]).map((s) => [
      `E${s}`,
      {
        description: ERRORS[s].description,
        content: { "application/json": { schema: { $ref: `#/components/schemas/${ERRORS[s].schema}` } } },
      },
    ]),
  );
  return {
    openapi: "3.1.0",
    info: {
      title: "Scheduler Console API",
      version: "2",
      description:
        "console-api.md: the HTTP API of the lance-context scheduler console (reads at one etcd revision, guarded policy writes).",
      license: { name: "UNLICENSED (private)", identifier: "LicenseRef-Private" },
    },
    servers: [{ url: "/", description: "this console (same origin)" }],
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    security: [{}, { bearer: [] }, { session: [] }],
    paths,
    components: {
      securitySchemes: {
        bearer: {
          type: "http",
          scheme: "bearer",
          description:
            "a CONSOLE_ADMIN_TOKENS or CONSOLE_VIEWER_TOKENS token (the secret of a `name:token` item; the audit names its holder)",
        },
        session: {
          type: "apiKey",
          in: "cookie",
          name: "console_session",
          description: "the session cookie POST /api/v1/session sets (httpOnly, SameSite=Strict)",
        },
      },
      parameters: Object.fromEntries(
        (Object.keys(HEADER_PARAMETERS) as HeaderName[])
          .filter((h) => h !== "If-None-Match")
          .map((h) => [headerKey(h), HEADER_PARAMETERS[h]]),
      ),
      headers: {
        ETag: { description: "the stored policy record's mod_revision (0 when absent)", schema: { type: "string" } },
      },
      responses: errorResponses,
      schemas: { Error: schemaOf(errorBodySchema, "output"), PolicyError: schemaOf(policyErrorBodySchema, "output") },
    },
  };
}
