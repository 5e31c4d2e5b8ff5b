import "server-only";
// STYLE.md "thin route handlers behind one wrapper": request id, read access, zod-parsed
// query (400 invalid_query), typed errors → contract codes (errors.ts), one structured JSON
// log line and a latency observation per request. Handlers only parse, call and return.
import { randomUUID } from "node:crypto";
import type { z } from "zod";
import { authorizeRead } from "./access";
import { classifyError } from "./errors";
import { metrics } from "@/lib/metrics";

export interface HandlerContext<Q> {
  request: Request;
  query: Q;
  requestId: string;
  url: URL;
}

export interface HandlerSpec<S extends z.ZodType> {
  /** route label for logs and metrics, e.g. "/api/v1/scheduler/demand" */
  route: string;
  query: S;
  /** "read" (default) goes through the viewer-token check; "public" skips it (health, metrics) */
  access?: "read" | "public";
}

const NO_STORE = { "cache-control": "no-store" };

/** JSON response with the console's default headers. */
export function json(body: unknown, init: { status?: number; headers?: Record<string, string> } = {}): Response {
  return new Response(JSON.stringify(body), {
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

function requestIdOf(request: Request): string {
  const given = request.headers.get("x-request-id");
  return given && /^[\w.:-]{1,64}$/.test(given) ? given : randomUUID();
}

function log(line: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify({ ts: new Date().toISOString(), ...line })}\n`);
}

/** Wraps one route handler; `run` returns a body (sent as 200 JSON) or a full Response. */
export function apiHandler<S extends z.ZodType>(spec: HandlerSpec<S>, run: (ctx: HandlerContext<z.output<S>>) => Promise<unknown>) {
  return async function handle(request: Request): Promise<Response> {
    const started = performance.now();
    const requestId = requestIdOf(request);
    let response: Response;
    let failure: string | undefined;
    try {
      response = await respond();
    } catch (e) {
      const mapped = classifyError(e);
      if (mapped) {
        response = json(mapped.body, { status: mapped.status });
        failure = mapped.body.error.code;
      } else {
        failure = e instanceof Error ? `${e.name}: ${e.message}\n${e.stack ?? ""}` : String(e);
        response = json({ error: { code: "internal", message: "internal error; see the server log", request_id: requestId } }, { status: 500 });
      }
    }
    response.headers.set("x-request-id", requestId);
    const ms = performance.now() - started;
    metrics().requestSeconds.observe({ route: spec.route, method: request.method, status: String(response.status) }, ms / 1000);
    log({ level: response.status >= 500 ? "error" : "info", msg: "request", method: request.method, route: spec.route, status: response.status, ms: Math.round(ms * 10) / 10, request_id: requestId, ...(failure ? { error: failure } : {}) });
    return response;

    async function respond(): Promise<Response> {
      if (spec.access !== "public") {
        const denied = await authorizeRead(request);
        if (denied) return denied;
      }
      const url = new URL(request.url);
      const parsed = spec.query.safeParse(queryObject(url.searchParams));
      if (!parsed.success) {
        const issues = parsed.error.issues.map((i) => ({ path: i.path.map(String), code: i.code, message: i.message }));
        return json({ error: { code: "invalid_query", message: issues.map((i) => `${i.path.join(".") || "query"}: ${i.message}`).join("; "), issues } }, { status: 400 });
      }
      const result = await run({ request, query: parsed.data as z.output<S>, requestId, url });
      return result instanceof Response ? result : json(result);
    }
  };
}
