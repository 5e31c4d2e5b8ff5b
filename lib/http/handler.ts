import "server-only";
// STYLE.md "thin route handlers behind one wrapper": request id, access (viewer / admin,
// same-origin for every non-GET), zod-parsed query (400 invalid_query), the body's content
// type and size, If-Match for writes, typed errors → contract codes (lib/schema/api/errors.ts), one
// structured JSON log line and a latency observation per request. Because the wrapper owns
// these checks, a handler cannot forget one: it only parses, calls and returns.
import { randomUUID } from "node:crypto";
import type { z } from "zod";
import type { AllowingRule, Principal } from "@/lib/auth";
import { authorizeAdmin, authorizeRead, requireSameOrigin } from "./access";
import { encodedResponse, isCacheable } from "./encoded-response";
import { classifyError } from "@/lib/schema/api/errors";
import { noteEtcdUnavailable } from "./etcd-seen";
import { admitted, offloaded, offloadedResponse, placeOf } from "./heavy";
import { metrics } from "@/lib/metrics";
import { lazily } from "@/lib/util/lazily";
import { responseOver } from "./response-body";
import { readBody, readIfMatch, type BodySpec } from "./request-body";
import { MIN_REVISION_HEADER, takeMinRevision, withMinRevision } from "./min-revision";

export interface HandlerContext<Q> {
  request: Request;
  query: Q;
  requestId: string;
  url: URL;
  /** the route's path parameters (decoded by Next), e.g. `{target}` */
  params: Record<string, string>;
  /** the admin, for `access: "admin"`; null otherwise */
  principal: Principal | null;
  /** for `access: "admin"`: the rule that allows this write (the audit records it); null otherwise */
  rule: AllowingRule | null;
  /** the decoded body when the spec asks for one (`body`), else undefined */
  body: unknown;
  /** true when the body came from an urlencoded form (`body.form`) */
  bodyIsForm: boolean;
  /** If-Match as a mod_revision when the spec asks for it (`ifMatch`), else null */
  ifMatch: number | null;
}

/**
 * "public": no credentials (health, metrics, openapi, the session itself); "read" (default):
 * the viewer-token check; "admin": an admin bearer token or session, and not read-only.
 * Every request other than GET/HEAD must also be same-origin (console-api.md Security).
 */
export type Access = "public" | "read" | "admin";

export interface HandlerSpec<S extends z.ZodType> {
  /** route label for logs and metrics, e.g. "/api/v1/scheduler/demand" */
  route: string;
  query: S;
  /**
   * the request reads or plans the fleet as of another moment than the live one (histories,
   * diffs, previews): it waits its client's turn in the heavy-work queue, or is refused with
   * 503 overloaded (./heavy.ts). Unset: heavy when it pins a revision not held in memory.
   */
  heavy?: boolean;
  /**
   * the offload worker can run this route (lib/offload/routes.ts sets it): its heavy requests
   * are answered there, off this thread (./heavy.ts)
   */
  offload?: boolean;
  access?: Access;
  /** the request carries a body: JSON (or a form when `form`), at most `maxBytes` (64 KiB) */
  body?: BodySpec;
  /** the request must carry If-Match (428 without it) */
  ifMatch?: boolean;
  /**
   * For `access: "admin"`: the path parameter naming what the write changes (`target`); the
   * admin's rights must cover it (403 forbidden, before the body is read). Without it the
   * write needs rights on `*`.
   */
  scope?: "target";
}

/** What Next passes a route handler besides the request. */
export interface RouteContext {
  params?: Promise<Record<string, string | string[]>>;
}

const NO_STORE = { "cache-control": "no-store" };

/** JSON response with the console's default headers. */
export function json(body: unknown, init: { status?: number; headers?: Record<string, string> } = {}): Response {
  return responseOver(JSON.stringify(body), {
    status: init.status ?? 200,
    headers: { "content-type": "application/json; charset=utf-8", ...NO_STORE, ...init.headers },
  });
}

/** Query string → plain object; a key given several times becomes an array (repeatable params). */
export function queryObject(params: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(params.keys())) {
    const all = params.getAll(key);
    out[key] = all.length > 1 ? all : all[0];
  }
  return out;
}

function flatParams(params: Record<string, string | string[]>): Record<string, string> {
  return Object.fromEntries(Object.entries(params).map(([k, v]) => [k, Array.isArray(v) ? v.join("/") : v]));
}

function requestIdOf(request: Request): string {
  const given = request.headers.get("x-request-id");
  return given && /^[\w.:-]{1,64}$/.test(given) ? given : randomUUID();
}

/**
 * The access log's lines not yet written. They go out together once per turn of the event
 * loop: stdout into a pipe is a synchronous write on Linux, one system call per request
 * otherwise (under a closed loop of 32 clients, 2 % of the server's thread). The lines are
 * written before the process exits.
 */
interface LogBuffer {
  lines: string[];
  flush: () => void;
}

const logBuffer = lazily<LogBuffer>(() => {
  const buffer: LogBuffer = {
    lines: [],
    flush() {
      if (buffer.lines.length === 0) return;
      const out = `${buffer.lines.join("\n")}\n`;
      buffer.lines = [];
      process.stdout.write(out);
    },
  };
  process.once("exit", buffer.flush);
  return buffer;
});

function log(line: Record<string, unknown>): void {
  const buffer = logBuffer();
  buffer.lines.push(JSON.stringify({ ts: new Date().toISOString(), ...line }));
  if (buffer.lines.length === 1) setImmediate(buffer.flush);
}

function invalidQuery(error: z.ZodError): Response {
  const issues = error.issues.map((i) => ({ path: i.path.map(String), code: i.code, message: i.message }));
  return json(
    {
      error: {
        code: "invalid_query",
        message: issues.map((i) => `${i.path.join(".") || "query"}: ${i.message}`).join("; "),
        issues,
      },
    },
    { status: 400 },
  );
}

/**
 * Wraps one route handler; `run` returns a body (sent as 200 JSON, no-store), a cacheable
 * answer (./encoded-response.ts: sent from the byte cache, no-cache with a strong ETag) or
 * a full Response.
 */
export function apiHandler<S extends z.ZodType>(
  spec: HandlerSpec<S>,
  run: (ctx: HandlerContext<z.output<S>>) => Promise<unknown>,
) {
  return async function handle(request: Request, route?: RouteContext): Promise<Response> {
    const started = performance.now();
    const requestId = requestIdOf(request);
    let response: Response;
    let failure: string | undefined;
    let actor: string | undefined;
    try {
      response = await respond();
    } catch (e) {
      const mapped = classifyError(e);
      if (mapped) {
        response = json(mapped.body, { status: mapped.status, headers: mapped.headers });
        failure = mapped.body.error.code;
        // health agrees with the data endpoints (issue 27): it hears of this answer
        if (failure === "etcd_unavailable") noteEtcdUnavailable();
      } else {
        failure = e instanceof Error ? `${e.name}: ${e.message}\n${e.stack ?? ""}` : String(e);
        response = json(
          { error: { code: "internal", message: "internal error; see the server log", request_id: requestId } },
          { status: 500 },
        );
      }
    }
    response.headers.set("x-request-id", requestId);
    const ms = performance.now() - started;
    metrics().requestSeconds.observe(
      { route: spec.route, method: request.method, status: String(response.status) },
      ms / 1000,
    );
    log({
      level: response.status >= 500 ? "error" : "info",
      msg: "request",
      method: request.method,
      route: spec.route,
      status: response.status,
      ms: Math.round(ms * 10) / 10,
      request_id: requestId,
      ...(actor ? { actor } : {}),
      ...(failure ? { error: failure } : {}),
    });
    return response;

    async function respond(): Promise<Response> {
      const params = route?.params ? flatParams(await route.params) : {};
      let admin: { principal: Principal; rule: AllowingRule } | null = null;
      if (spec.access === "admin")
        admin = await authorizeAdmin(request, spec.scope ? (params[spec.scope] ?? "") : null);
      else if (spec.access !== "public") {
        const denied = await authorizeRead(request);
        if (denied) return denied;
      }
      requireSameOrigin(request);
      const url = new URL(request.url);
      const floor = takeMinRevision(url);
      if (!floor.ok) return invalidQuery(floor.error);
      const parsed = spec.query.safeParse(queryObject(url.searchParams));
      if (!parsed.success) return invalidQuery(parsed.error);
      const body = spec.body ? await readBody(request, spec.body) : undefined;
      const ifMatch = spec.ifMatch ? readIfMatch(request) : null;
      if (admin) actor = admin.principal.actor;
      const ctx: HandlerContext<z.output<S>> = {
        request,
        query: parsed.data as z.output<S>,
        requestId,
        url,
        params,
        principal: admin?.principal ?? null,
        rule: admin?.rule ?? null,
        body: body?.value,
        bodyIsForm: body?.form ?? false,
        ifMatch,
      };
      const place = placeOf(spec, parsed.data);
      if (place === "worker") {
        // a read of another moment: it never waits for the live view (min_revision does not apply)
        const answer = await offloaded(request, {
          route: spec.route,
          method: request.method,
          url: url.href,
          params,
          requestId,
        });
        if (answer.status === 500) throw new Error(`in the offload worker: ${answer.failure}`);
        failure = answer.failure ?? undefined;
        if (failure === "etcd_unavailable") noteEtcdUnavailable();
        return offloadedResponse(request, answer);
      }
      const answer = () => withMinRevision(floor.revision, request, url, spec.query, () => run(ctx));
      const { value: result, header } = place === "thread" ? await admitted(request, answer) : await answer();
      // a read whose bytes follow from its plan and query: encoded once, ETag / 304, compressed
      const response =
        result instanceof Response ? result : isCacheable(result) ? encodedResponse(request, result) : json(result);
      if (header) response.headers.set(MIN_REVISION_HEADER, header);
      return response;
    }
  };
}
