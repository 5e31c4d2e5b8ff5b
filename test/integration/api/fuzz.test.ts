// Bad input never crashes and never writes where it must not (issue "Bad input in paths",
// console-api.md "Conventions"): a seeded fuzz over every endpoint's path segments, query
// parameters and bodies, against a real `next start` and its own etcd, with an admin token
// so writes are attempted. No answer is 5xx except 503/504, every API error is JSON with a
// code, and afterwards no key outside `P/policies/` and `P/console/` has changed.
// A new endpoint is one line of ENDPOINTS.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { Etcd3 } from "etcd3";
import { createRawEtcdClient } from "@/lib/etcd/raw";
import { keys } from "@/lib/schema/keys";
import { errorBodySchema } from "@/lib/schema/api/common";
import { demandQuerySchema } from "@/lib/schema/api/demand";
import { executorsQuerySchema } from "@/lib/schema/api/executors";
import { assignmentsQuerySchema } from "@/lib/schema/api/assignments";
import { shadowQuerySchema } from "@/lib/schema/api/shadow";
import { failuresQuerySchema } from "@/lib/schema/api/failures";
import { skippedQuerySchema } from "@/lib/schema/api/skipped";
import { uuidv7 } from "@/lib/schema/task-id";
import { startApp, type RunningApp } from "../../support/app";
import { startEtcd, type EtcdCluster } from "../../support/etcd";

const P = "/fuzz";
const ADMIN = "fuzz-admin-token-0123456789abcdef";
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_201);
const RUNS = Number(process.env.FUZZ_RUNS ?? 800);

type Method = "GET" | "PUT" | "POST" | "DELETE";
interface Endpoint {
  method: Method;
  /** `{target}` marks a path segment */
  path: string;
  /** query parameter names (from the endpoint's zod query schema where there is one) */
  query: string[];
  body?: boolean;
}

/** What every API error must be (console-api.md "Conventions"): JSON with a snake_case code. */
const anError = z.object({ error: z.looseObject({ code: z.string().regex(/^[a-z][a-z_]*$/), message: z.string() }) });

const namesOf = (schema: { shape?: Record<string, unknown> }) => Object.keys(schema.shape ?? {});
const READ = ["revision", "now_ms", "now"];

/** Every endpoint and page of console-api.md: one line each. */
const ENDPOINTS: Endpoint[] = [
  { method: "GET", path: "/api/v1/scheduler/demand", query: namesOf(demandQuerySchema) },
  { method: "GET", path: "/api/v1/scheduler/executors", query: namesOf(executorsQuerySchema) },
  { method: "GET", path: "/api/v1/scheduler/assignments", query: namesOf(assignmentsQuerySchema) },
  { method: "GET", path: "/api/v1/scheduler/shadow", query: namesOf(shadowQuerySchema) },
  { method: "GET", path: "/api/v1/scheduler/shadow/history", query: ["from_ms", "to_ms"] },
  { method: "GET", path: "/api/v1/scheduler/failures", query: namesOf(failuresQuerySchema) },
  { method: "GET", path: "/api/v1/scheduler/skipped", query: namesOf(skippedQuerySchema) },
  { method: "GET", path: "/api/v1/scheduler/demand/history", query: ["target", "from_ms", "to_ms"] },
  { method: "GET", path: "/api/v1/scheduler/diff", query: ["from", "to", "from_ms", "to_ms"] },
  { method: "GET", path: "/api/v1/health", query: [] },
  { method: "GET", path: "/api/v1/openapi.json", query: [] },
  { method: "GET", path: "/api/metrics", query: [] },
  { method: "GET", path: "/api/v1/policies", query: READ },
  { method: "GET", path: "/api/v1/policies/{target}", query: READ },
  { method: "PUT", path: "/api/v1/policies/{target}", query: [], body: true },
  { method: "DELETE", path: "/api/v1/policies/{target}", query: [] },
  { method: "POST", path: "/api/v1/policies/{target}/preview", query: READ, body: true },
  { method: "GET", path: "/api/v1/audit", query: ["target", "limit", "cursor", "revision"] },
  { method: "GET", path: "/api/v1/session", query: [] },
  { method: "POST", path: "/api/v1/session", query: [], body: true },
  { method: "DELETE", path: "/api/v1/session", query: [] },
  { method: "GET", path: "/", query: READ },
  { method: "GET", path: "/tables", query: ["q", "sort", "class", "backlog", "revision", "cursor"] },
  { method: "GET", path: "/tables/{target}", query: READ },
  { method: "GET", path: "/policies", query: READ },
  { method: "GET", path: "/policies/{target}", query: READ },
  { method: "GET", path: "/executors", query: READ },
  { method: "GET", path: "/failures", query: READ },
  { method: "GET", path: "/shadow", query: [...READ, "outcome"] },
  { method: "GET", path: "/skipped", query: READ },
  { method: "GET", path: "/audit", query: READ },
];

/** Raw text that is not valid percent-encoding, or is valid but odd. */
const HOSTILE = [
  "%ZZ",
  "%E0%A4%A",
  "%",
  "%%",
  "%C0%AF",
  "%FF",
  "%ED%A0%80",
  "%00",
  "%2F",
  "a%2Fb",
  "_default",
  "x".repeat(600),
  "%F0%9F%98%80",
  "~!*'()",
  "%20",
  "+",
];

// A dot segment (".", "..", "%2e") is resolved by the URL itself before it is sent, so the
// request lands on another route (e.g. POST /api/v1/policies/preview): not a path segment.
const isDotOrEmpty = (s: string) => /^(\.|%2e)*$/i.test(s);
const segment = fc
  .oneof(
    fc.constantFrom(...HOSTILE),
    fc.string({ maxLength: 40 }).map(encodeURIComponent),
    fc.string({ unit: "grapheme", maxLength: 20 }).map(encodeURIComponent),
    fc.constantFrom("alpha", "beta", "generic%3Agamma"),
  )
  .filter((s) => !isDotOrEmpty(s));

const queryValue = fc.oneof(
  fc.constantFrom(
    ...HOSTILE,
    "",
    "-1",
    "0",
    "1",
    "1e3",
    "0x10",
    "99999999999999999999",
    "9007199254740993",
    "NaN",
    "true",
    "planner",
    "critical",
  ),
  fc.integer().map(String),
  fc.string({ maxLength: 30 }).map(encodeURIComponent),
);

const queryString = (names: string[]) =>
  fc
    .array(
      fc.tuple(
        fc.oneof(fc.constantFrom(...(names.length > 0 ? names : ["x"])), fc.constantFrom("unknown", "%ZZ", "")),
        queryValue,
      ),
      { maxLength: 4 },
    )
    .map((pairs) => (pairs.length === 0 ? "" : `?${pairs.map(([k, v]) => `${k}=${v}`).join("&")}`));

const policyish = fc.record(
  {
    merge: fc.record(
      { min_generations: fc.oneof(fc.integer(), fc.string()), max_age_secs: fc.oneof(fc.nat(), fc.constant(-1)) },
      { requiredKeys: [] },
    ),
    paused: fc.oneof(fc.boolean(), fc.string()),
    v: fc.oneof(fc.constant(1), fc.integer()),
  },
  { requiredKeys: [] },
);

const body = fc.oneof(
  fc.json({ maxDepth: 3 }),
  policyish.map((p) => JSON.stringify(p)),
  fc.string({ maxLength: 200 }),
  fc.constantFrom("", "{", "null", "[]", `{"token":"${ADMIN}"}`, "token=nope&action=signout", "x".repeat(100_000)),
);

const headers = fc.record({
  auth: fc.constantFrom("admin", "admin", "admin", "none", "wrong"),
  contentType: fc.constantFrom(
    "application/json",
    "application/x-www-form-urlencoded",
    "text/plain",
    "application/json; charset=utf-8",
  ),
  ifMatch: fc.option(fc.oneof(fc.nat().map(String), fc.constantFrom("*", 'W/"1"', "abc", "-1", "")), {
    nil: undefined,
  }),
  reason: fc.option(
    fc.string({ maxLength: 600 }).map((s) => s.replace(/[^\x20-\x7e]/g, "")),
    { nil: undefined },
  ),
  digest: fc.option(fc.constantFrom("0", "abc", "x".repeat(64)), { nil: undefined }),
});

const request = fc.constantFrom(...ENDPOINTS).chain((endpoint) =>
  fc.record({
    endpoint: fc.constant(endpoint),
    segment,
    query: queryString(endpoint.query),
    body: endpoint.body ? body : fc.constant(undefined),
    headers,
  }),
);

let etcd: EtcdCluster;
let client: Etcd3;
let app: RunningApp;

/** Every key of the etcd (the whole keyspace: this etcd is the test's own). */
async function dump(): Promise<Map<string, string>> {
  const res = await client.getAll().prefix("").exec();
  return new Map(
    res.kvs.map((kv) => [kv.key.toString(), `${kv.mod_revision} ${kv.lease} ${kv.value.toString("base64")}`]),
  );
}

const writable = (key: string) => key.startsWith(`${P}/policies/`) || key.startsWith(`${P}/console/`);

function outside(d: Map<string, string>): Map<string, string> {
  return new Map([...d].filter(([k]) => !writable(k)));
}

beforeAll(async () => {
  etcd = await startEtcd();
  client = createRawEtcdClient({ endpoints: etcd.endpoints.split(","), callTimeoutMs: 10_000 });
  const event = (shard: string, sealed: number) =>
    JSON.stringify({
      v: 1,
      shard,
      sealed_through: sealed,
      merged_through: 1,
      flushed_at_ms: 1000,
      writer_epoch: 1,
      source: "writer",
    });
  await client.put(keys.demandEvent(P, "alpha", "s1")).value(event("s1", 40));
  await client.put(keys.demandEvent(P, "beta", "s1")).value(event("s1", 3));
  await client.put(keys.demandEvent(P, "generic:gamma", "s2")).value(event("s2", 300));
  await client.put(keys.executor(P, "worker-1")).value(
    JSON.stringify({
      v: 1,
      kind: "worker",
      instance: "worker-1",
      heartbeat_ms: Date.now(),
      slots: { merge_wal: 2 },
      bytes_total: 8 * 1024 ** 3,
    }),
  );
  const id = uuidv7(Date.now() - 60_000, 1);
  await client
    .put(`${P}/tasks/${id}`)
    .value(JSON.stringify({ id, kind: "merge_wal", target: "alpha", state: "done", enqueued_at: Date.now() - 60_000 }));
  app = await startApp({
    ETCD_ENDPOINTS: etcd.endpoints,
    ETCD_PREFIX: P,
    CONSOLE_ADMIN_TOKENS: ADMIN,
    CONSOLE_SHADOW_SAMPLER: "off",
  });
});

afterAll(async () => {
  await app?.stop();
  client?.close();
  await etcd?.stop();
});

interface Answer {
  status: number;
  contentType: string;
  text: string;
}

async function send(
  method: Method,
  path: string,
  opts: { body?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const res = await fetch(`${app.url}${path}`, {
    method,
    body: opts.body,
    headers: opts.headers,
    redirect: "manual",
    signal: AbortSignal.timeout(30_000),
  });
  return { status: res.status, contentType: res.headers.get("content-type") ?? "", text: await res.text() };
}

/** The house rule for one answer; returns what is wrong, or null. */
function problem(path: string, a: Answer): string | null {
  if (a.status >= 500 && a.status !== 503 && a.status !== 504) return `${a.status}: ${a.text.slice(0, 300)}`;
  if (!path.startsWith("/api/") || a.status < 400) return null;
  if (!a.contentType.includes("application/json"))
    return `${a.status} is ${a.contentType || "untyped"}, not JSON: ${a.text.slice(0, 200)}`;
  try {
    anError.parse(JSON.parse(a.text));
  } catch (e) {
    return `${a.status} body is not {error: {code, message}}: ${a.text.slice(0, 200)} (${(e as Error).message.slice(0, 200)})`;
  }
  return null;
}

describe("bad input in paths, queries and bodies", () => {
  it("broken percent-encoding in a path is 400: JSON with a code under /api, a readable page elsewhere", async () => {
    for (const path of ["/api/v1/policies/%ZZ", "/api/v1/policies/%E0%A4%A", "/api/v1/policies/%ZZ/preview"]) {
      const a = await send("GET", path);
      expect(a.status, path).toBe(400);
      expect(errorBodySchema.parse(JSON.parse(a.text)).error.code, path).toBe("invalid_query");
    }
    for (const path of ["/tables/%ZZ", "/policies/%ZZ", "/tables/%E0%A4%A"]) {
      const a = await send("GET", path);
      expect(a.status, path).toBe(400);
      expect(a.contentType, path).toContain("text/html");
      expect(a.text, path).toContain("This address cannot be opened");
    }
  });

  it(`a seeded fuzz (seed ${SEED}) of every endpoint: no 5xx but 503/504, API errors are JSON with a code, no write outside P/policies/ and P/console/`, async () => {
    const before = await dump();
    let writes = 0;
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const path = r.endpoint.path.replace("{target}", r.segment) + r.query;
        const h: Record<string, string> = { origin: app.url, "content-type": r.headers.contentType };
        if (r.headers.auth === "admin") h.authorization = `Bearer ${ADMIN}`;
        if (r.headers.auth === "wrong") h.authorization = "Bearer not-a-token";
        if (r.headers.ifMatch !== undefined) h["if-match"] = r.headers.ifMatch;
        if (r.headers.reason !== undefined) h["x-change-reason"] = r.headers.reason;
        if (r.headers.digest !== undefined) h["x-preview-digest"] = r.headers.digest;
        const a = await send(r.endpoint.method, path, { body: r.body, headers: h });
        if (r.endpoint.method !== "GET" && a.status < 300) writes += 1;
        const wrong = problem(path, a);
        if (wrong) throw new Error(`${r.endpoint.method} ${path}: ${wrong}`);
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    const after = await dump();
    expect(outside(after)).toEqual(outside(before));
    console.log(
      `[fuzz] ${RUNS} requests, ${writes} accepted writes; keys outside P/policies/ and P/console/ unchanged (${outside(after).size})`,
    );
  });
});
