import "server-only";
// The reads asked most, answered by the custom server (scripts/serve.mjs) straight from the
// engine (issue 46: 32 clients in a closed loop over list, detail, executors and shadow). Next
// routes a request through its own machinery before a route handler runs and after it
// returns (its request and response objects, streams, async hooks): in that loop the server
// answered 720 requests/s directly against 333 through Next (`npm run bench:direct`,
// bench/results/direct.json). The handlers are the very ones Next's route files export
// (`directGet`), so an answer is the same bytes either way; the server adds the headers
// Next's config adds (lib/http/security-headers.ts).
// `CONSOLE_DIRECT_READS=off` leaves every request to Next.
import type { IncomingMessage, ServerResponse } from "node:http";
import { consoleEnv } from "@/lib/config/env";
import { apiHandler, json } from "@/lib/http/handler";
import { madeFrom } from "@/lib/http/response-body";
import { SECURITY_HEADERS } from "@/lib/http/security-headers";
import { OFFLOAD_ROUTES } from "@/lib/offload/routes";
import { healthResponse } from "@/lib/process/health";
import { healthQuerySchema } from "@/lib/schema/api/health";
import { metrics } from "@/lib/metrics";

type Handler = (request: Request) => Promise<Response>;

// GET /api/v1/health: etcd endpoints, leader and the live cache; 503 when no endpoint answers.
const health = apiHandler({ route: "/api/v1/health", query: healthQuerySchema, access: "public" }, async () => {
  const { status, body } = await healthResponse();
  return json(body, { status });
});

/** The GET handlers answered directly, by path (exact: a trailing slash or an encoded path goes to Next). */
const DIRECT_GETS: ReadonlyMap<string, Handler> = new Map<string, Handler>([
  ["/api/v1/health", health],
  ...OFFLOAD_ROUTES.map((r): [string, Handler] => [r.spec.route, apiHandler(r.spec, r.run)]),
]);

/** The GET handler of `path`, for its route file to export (the one the server answers directly with). */
export function directGet(path: string): Handler {
  const handler = DIRECT_GETS.get(path);
  if (!handler) throw new Error(`no direct read at ${path}`);
  return handler;
}

/**
 * Answers `req` when it is a GET of a direct read (true: the answer is written to `res`, with
 * the headers Next would add); false: Next answers it.
 */
export function answerDirectly(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.method !== "GET" || !consoleEnv().directReads) return false;
  const url = req.url ?? "";
  const query = url.indexOf("?");
  const route = query < 0 ? url : url.slice(0, query);
  const handler = DIRECT_GETS.get(route);
  if (!handler) return false;
  let request: Request;
  try {
    request = new Request(`http://${req.headers.host ?? "localhost"}${url}`, { headers: headersOf(req) });
  } catch {
    return false; // an address or header the fetch API refuses: Next says what is wrong with it
  }
  metrics().directReads.inc({ route });
  handler(request)
    .then((response) => send(response, res))
    .catch(() => res.destroy()); // apiHandler answers every failure itself; a body that cannot be read ends the connection
  return true;
}

function headersOf(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  return headers;
}

/**
 * What Next's app routes add to a route handler's Vary (for its own client-side router; an
 * answer names them as it would through Next). scripts/serve.mjs's compression appends
 * Accept-Encoding, as it does to Next's.
 */
const NEXT_VARY = "rsc, next-router-state-tree, next-router-prefetch, next-router-segment-prefetch";

/** The answer as Next writes one: status, headers, then the body as one write and the end. */
async function send(response: Response, res: ServerResponse): Promise<void> {
  res.statusCode = response.status;
  for (const { key, value } of SECURITY_HEADERS) res.setHeader(key, value);
  for (const [name, value] of response.headers) if (name !== "set-cookie") res.setHeader(name, value);
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader("set-cookie", cookies);
  const vary = response.headers.get("vary");
  res.setHeader("vary", vary ? `${NEXT_VARY}, ${vary}` : NEXT_VARY);
  const body = madeFrom(response) ?? (response.body === null ? null : Buffer.from(await response.arrayBuffer()));
  if (body !== null) res.write(body);
  res.end();
}
