import "server-only";
// One job in the offload worker. A route job: the route's own `run` (./routes.ts) on the query
// parsed again from the request's URL, its result encoded as the wrapper encodes it on the
// request thread (lib/http/handler.ts): a cacheable answer through the worker's byte cache
// with its ETag, a typed error as its contract code. The request thread did the access
// checks, the parse that answered 400 and the admission; it logs the request and sends these
// bytes. A history point: the one lib/time/history.ts plans on the whole fleet of its
// revision, or how it failed (thrown again on the request thread).
import type { FromWorker, JobFailure, OffloadAnswer, OffloadJob, RouteJob } from "@/lib/live/offload-pool";
import { json, queryObject } from "@/lib/http/handler";
import { encodedOf, isCacheable } from "@/lib/http/encoded-response";
import { classifyError } from "@/lib/schema/api/errors";
import { fleetPlanPoint } from "@/lib/time/history";
import { offloadRouteOf } from "./routes";

async function fromResponse(response: Response, failure: string | null): Promise<OffloadAnswer> {
  return {
    status: response.status,
    headers: Object.fromEntries(response.headers),
    bytes: new Uint8Array(await response.arrayBuffer()),
    etag: null,
    digest: null,
    failure,
  };
}

function failureOf(e: unknown): JobFailure {
  const text = e instanceof Error ? `${e.name}: ${e.message}\n${e.stack ?? ""}` : String(e);
  return { mapped: classifyError(e), text };
}

/** The job's result, or how it failed. */
export async function runJob(job: OffloadJob): Promise<FromWorker["result"]> {
  if (job.kind === "route") return { ok: true, value: await answerRoute(job) };
  try {
    return { ok: true, value: await fleetPlanPoint(job.target, job.revision) };
  } catch (e) {
    return { ok: false, failure: failureOf(e) };
  }
}

async function answerRoute(job: RouteJob): Promise<OffloadAnswer> {
  const url = new URL(job.url);
  const request = new Request(url, { method: job.method });
  try {
    const { spec, run } = offloadRouteOf(job.route);
    const query = spec.query.parse(queryObject(url.searchParams));
    const result = await run({
      request,
      query,
      requestId: job.requestId,
      url,
      params: job.params,
      principal: null,
      rule: null,
      body: undefined,
      bodyIsForm: false,
      ifMatch: null,
    });
    if (result instanceof Response) return fromResponse(result, null);
    if (!isCacheable(result)) return fromResponse(json(result), null);
    const { etag, digest, bytes } = encodedOf(result);
    return { status: 200, headers: {}, bytes, etag, digest, failure: null };
  } catch (e) {
    const { mapped, text } = failureOf(e);
    if (mapped === null)
      return { status: 500, headers: {}, bytes: new Uint8Array(0), etag: null, digest: null, failure: text };
    const response = json(mapped.body, { status: mapped.status, headers: mapped.headers });
    return fromResponse(response, mapped.body.error.code);
  }
}
