import "server-only";
// One job in the offload worker: the route's own `run` (./routes.ts) on the query parsed
// again from the request's URL, its result encoded as the wrapper encodes it on the request
// thread (lib/http/handler.ts): a cacheable answer through the worker's byte cache with its
// ETag, a typed error as its contract code. The request thread did the access checks, the
// parse that answered 400 and the admission; it logs the request and sends these bytes.
import type { OffloadAnswer, OffloadJob } from "@/lib/live/offload-pool";
import { json, queryObject } from "@/lib/http/handler";
import { encodedOf, isCacheable } from "@/lib/http/encoded-response";
import { classifyError } from "@/lib/schema/api/errors";
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

export async function answerJob(job: OffloadJob): Promise<OffloadAnswer> {
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
    const mapped = classifyError(e);
    if (mapped)
      return fromResponse(
        json(mapped.body, { status: mapped.status, headers: mapped.headers }),
        mapped.body.error.code,
      );
    const failure = e instanceof Error ? `${e.name}: ${e.message}\n${e.stack ?? ""}` : String(e);
    return { status: 500, headers: {}, bytes: new Uint8Array(0), etag: null, digest: null, failure };
  }
}
