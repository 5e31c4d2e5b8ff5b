import "server-only";
// The contract's entries for the console's own services: policies (read, preview, guarded
// writes), the canary and takeover gates, the audit log, the session, and operations
// (health, metrics and the document itself).
import { z } from "zod";
import { errorBodySchema, noQuerySchema } from "@/lib/schema/api/common";
import { auditQuerySchema, auditResponseSchema } from "@/lib/schema/api/audit";
import { healthResponseSchema } from "@/lib/schema/api/health";
import {
  deletedPolicyResponseSchema,
  policyBodySchema,
  policyListResponseSchema,
  policyQuerySchema,
  policyResponseSchema,
  previewQuerySchema,
  previewResponseSchema,
  savedPolicyResponseSchema,
} from "@/lib/schema/api/policies";
import {
  oidcCallbackQuerySchema,
  oidcLoginQuerySchema,
  sessionGetQuerySchema,
  sessionResponseSchema,
  signedInResponseSchema,
  signedOutResponseSchema,
  signInBodySchema,
} from "@/lib/schema/api/session";
import { canaryQuerySchema, canaryResponseSchema } from "@/lib/schema/api/canary";
import {
  factsQuerySchema,
  factsResponseSchema,
  mastersQuerySchema,
  mastersResponseSchema,
} from "@/lib/schema/api/fleet";
import { gatesQuerySchema, gatesResponseSchema } from "@/lib/schema/api/takeover";
import { calibrationQuerySchema, calibrationResponseSchema } from "@/lib/schema/api/forecasts";
import { READ_ERRORS, WRITE_ERRORS, TARGET, type Endpoint } from "./openapi-endpoint";

export const CONSOLE_ENDPOINTS: Endpoint[] = [
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
    body: { schema: policyBodySchema, description: "the sparse policy document (null or absent = inherit)" },
    responses: {
      "200": { description: "saved; ETag = the new mod_revision", schema: savedPolicyResponseSchema, etag: true },
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
    body: { schema: policyBodySchema, description: "the proposed document (`{}` previews deleting an override)" },
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
    query: canaryQuerySchema,
    responses: { "200": { description: "the canary report", schema: canaryResponseSchema } },
    errors: READ_ERRORS,
  },
  {
    method: "get",
    path: "/api/v1/forecasts/calibration",
    operationId: "getForecastCalibration",
    tag: "takeover",
    access: "read",
    summary:
      "How often each world's forecasts came true over a window (default 6 h): made, resolved (within, early, late), open, coverage at the stated level, median width and error, and the reliability at other levels",
    query: calibrationQuerySchema,
    responses: { "200": { description: "the forecasts' score", schema: calibrationResponseSchema } },
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
    query: factsQuerySchema,
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
    query: mastersQuerySchema,
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
    summary:
      "Who this request is signed in as (a token or the OpenID Connect provider), until when, every right they have, whether the console is read-only, and with ?target= whether they may save that target's policy and why not",
    query: sessionGetQuerySchema,
    responses: { "200": { description: "the session", schema: sessionResponseSchema } },
    errors: ["400"],
  },
  {
    method: "get",
    path: "/api/v1/session/oidc/login",
    operationId: "oidcLogin",
    tag: "session",
    access: "public",
    summary:
      "Sign in through the OpenID Connect provider (CONSOLE_OIDC_*): 302 to its authorization endpoint (code flow with PKCE, state and nonce sealed in an httpOnly cookie for ten minutes); return_to is a path of this console (anything else lands on /policies)",
    query: oidcLoginQuerySchema,
    responses: {
      "302": { description: "to the provider", location: true },
      "303": {
        description:
          "a browser (Accept: text/html) whose sign-in cannot start is sent to /signin?sso_error=<code>; the body is the error",
        location: true,
      },
      // a redirect endpoint has no 2xx: what else may come back is the unexpected failure every route can give
      default: {
        description: "internal: an unexpected failure (request_id names it in the server log)",
        schema: errorBodySchema,
      },
    },
    errors: ["400", "404", "503"],
  },
  {
    method: "get",
    path: "/api/v1/session/oidc/callback",
    operationId: "oidcCallback",
    tag: "session",
    access: "public",
    summary:
      "The provider's answer (CONSOLE_OIDC_REDIRECT_URL): state, the PKCE verifier, the nonce and the ID token's signature are checked; the person (the ID token's email, else sub) gets the session cookie and a page that moves on to return_to",
    query: oidcCallbackQuerySchema,
    responses: {
      "200": {
        description: "signed in: the session cookie is set; a page that moves on to return_to",
        text: "text/html",
      },
      "303": {
        description: "a browser whose sign-in failed is sent to /signin?sso_error=<code>; the body is the error",
        location: true,
      },
    },
    errors: ["400", "401", "403", "404", "503"],
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
    summary:
      "etcd endpoints, leader, live-cache state, memory (resident MiB beside CONSOLE_MEMORY_MIB, held and pinned views) and readiness; 503 while starting or when no endpoint answers",
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
