import "server-only";
// The wrapper's part of heavy work (lib/live/admission.ts, lib/live/offload-pool.ts;
// console-api.md "Overload and memory"): which requests are heavy, whose line each waits in,
// and where it runs: in the offload worker when its route can run there and the moment it
// asks for is not this process's to put back from the live view, else on this thread.
import { createHash } from "node:crypto";
import { liveCache } from "@/lib/live/cache";
import type { OffloadAnswer, RouteJob } from "@/lib/live/offload-pool";
import { decodeCursor } from "./cursor";
import { encodedBytesResponse } from "./encoded-response";

/** Set by the server (scripts/serve.mjs) from the connection, over anything the client sent. */
const CLIENT_ADDRESS_HEADER = "x-console-client";

/** The revision a read pins: `?revision=`, or the one its cursor continues. */
function pinnedRevision(query: unknown): number | undefined {
  const q = query as { revision?: unknown; cursor?: unknown } | null;
  if (typeof q?.revision === "number") return q.revision;
  if (typeof q?.cursor !== "string") return undefined;
  try {
    return decodeCursor(q.cursor).revision;
  } catch {
    return undefined; // the route answers 400 for it
  }
}

/**
 * Where a request runs: `light` (on this thread, now), `thread` (heavy, admitted, on this
 * thread) or `worker` (heavy, admitted, in the offload worker). A request is heavy when its
 * route says so (histories, diffs, previews) or when it pins a revision this process does not
 * hold in memory: answering it reads or plans the fleet as of another moment. A route the
 * worker can run goes there unless the live view can be put back to its revision
 * (`liveCache().offloadFor`); a diff, which names no one revision, always does.
 */
export function placeOf(spec: { heavy?: boolean; offload?: boolean }, query: unknown): "light" | "thread" | "worker" {
  const cache = liveCache();
  const revision = pinnedRevision(query);
  const heavy = spec.heavy ?? (revision !== undefined && cache.known(revision) === undefined);
  if (!heavy) return "light";
  if (!spec.offload) return "thread";
  const worker = revision === undefined ? cache.offload : cache.offloadFor(revision);
  return worker === null ? "thread" : "worker";
}

/**
 * Whose line a request waits in: the credentials it carries (a bearer token, or its cookies:
 * the session), hashed, else the address it came from. A client can only move itself
 * between lines.
 */
function clientOf(request: Request): string {
  const credential = request.headers.get("authorization") ?? request.headers.get("cookie");
  if (credential) return `credential:${createHash("sha256").update(credential).digest("hex").slice(0, 16)}`;
  return `address:${request.headers.get(CLIENT_ADDRESS_HEADER) ?? "unknown"}`;
}

/** `work` once the heavy-work queue admits it, or `Overloaded` at once (503 overloaded, lib/schema/api/errors.ts). */
export function admitted<T>(request: Request, work: () => Promise<T>): Promise<T> {
  return liveCache().heavyWork.run(clientOf(request), work);
}

/** `job` answered in the offload worker, once admitted. */
export function offloaded(request: Request, job: RouteJob): Promise<OffloadAnswer> {
  const pool = liveCache().offload!;
  return admitted(request, () => pool.answer(job));
}

/** The worker's answer as this request's response (a cacheable one: 304 when the request holds its bytes). */
export function offloadedResponse(request: Request, answer: OffloadAnswer): Response {
  const { bytes } = answer; // the message's own copy (a structured clone)
  if (answer.status === 200 && answer.etag !== null && answer.digest !== null)
    return encodedBytesResponse(request, { etag: answer.etag, digest: answer.digest, bytes });
  return new Response(bytes, { status: answer.status, headers: answer.headers });
}
