import "server-only";
// GET /api/v1/openapi.json: OpenAPI 3.1 generated from the zod schemas of lib/schema/api
// (zod 4 JSON Schema output), so the contract served and the code cannot drift. Every
// endpoint of console-api.md is one entry of ENDPOINTS (./openapi-fleet-endpoints.ts,
// ./openapi-console-endpoints.ts; what an entry says: ./openapi-endpoint.ts): adding an
// endpoint is adding an entry. `redocly.yaml` holds the lint rules; lib/http/openapi.test.ts
// runs the linter.
import { z } from "zod";
import { errorBodySchema, minRevisionQuerySchema } from "@/lib/schema/api/common";
import { takesRevision } from "./min-revision";
import { policyErrorBodySchema } from "@/lib/schema/api/policies";
import type { Access } from "./handler";
import {
  ERRORS,
  TAGS,
  type Endpoint,
  type ErrorStatus,
  type HeaderName,
  type JsonSchema,
  type Reply,
} from "./openapi-endpoint";
import { FLEET_ENDPOINTS } from "./openapi-fleet-endpoints";
import { CONSOLE_ENDPOINTS } from "./openapi-console-endpoints";

/** Every documented endpoint, in the order the document lists them. */
export const ENDPOINTS: Endpoint[] = [...FLEET_ENDPOINTS, ...CONSOLE_ENDPOINTS];

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
      "the digest of the reviewed preview, opaque (it binds the decision sets: targets losing or gaining a placement, promoted, demoted, newly starving; and names the revision and now_ms reviewed, so any replica re-plans the reviewed fleet): 409 preview_stale when saving now would decide differently for a table whose own records did not move since the review",
    schema: { type: "string", pattern: "^[A-Za-z0-9_-]{66}$" },
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
        ...(s === "503"
          ? {
              headers: {
                "Retry-After": {
                  description: "with overloaded: seconds until the heavy-work queue may have room",
                  schema: { type: "integer", minimum: 1 },
                },
              },
            }
          : {}),
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
          description:
            "the session cookie POST /api/v1/session (a token) or GET /api/v1/session/oidc/callback (a person) sets (httpOnly, SameSite=Strict, one hour)",
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
