// One fetch helper for every resource: JSON in, typed errors out (console-api.md
// "Errors are JSON {error: {code, message, ...}}"), through the core the command line
// shares (./api-core.ts). Never throws on a body it can't parse.
// Also the console's read-your-writes floor: after a save at revision R, live reads ask the
// server for R or later (`?min_revision=R`), so no page shows what the save replaced.
import { ApiError, apiErrorOf, queryString, readAnswer, type QueryParams } from "./api-core";

export { ApiError, type QueryParams };

/** The query the page sends: as ./api-core.ts builds it, and an empty field (no filter) left out. */
export function buildQuery(params: QueryParams): string {
  return queryString(Object.fromEntries(Object.entries(params).filter(([, value]) => value !== "")));
}

/** The URL a read asks (the browser's, and a server page's: app/self-reads.ts). */
export const readUrl = (path: string, params: QueryParams): string => `${path}${buildQuery(params)}`;

/** A pinned page opened with `?now=server` asks every pinned read for the server clock (console-api.md "Time"). */
function withPageClock(params: QueryParams): QueryParams {
  if (typeof window === "undefined" || params.revision == null || params.now !== undefined) return params;
  return new URLSearchParams(window.location.search).get("now") === "server" ? { ...params, now: "server" } : params;
}

async function decode<T>(res: Response): Promise<T> {
  const answer = await readAnswer(res);
  if (!answer.ok) throw apiErrorOf(answer, `HTTP ${res.status}`);
  return answer.body as T;
}

// ---- read your writes -------------------------------------------------------------

let floor = 0;
/** the newest revision a live read answered at */
let seen = 0;
let waiting = 0;
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((l) => l());

/** After a save at `revision`: every live read from now on answers at that revision or later. */
export function requireRevision(revision: number): void {
  if (revision <= floor) return;
  floor = revision;
  notify();
}

/** The revision live reads wait for while some read has not reached it yet, else null. */
export function awaitedRevision(): number | null {
  return waiting > 0 ? floor : null;
}

export function subscribeAwaited(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * The revision a read was made at: console-api.md "Conventions", every read at one
 * revision carries `revision` and `read_at_ms`. Other answers (a revision looked up by
 * time, a history) are not reads of the current state and are never held to the floor.
 */
function revisionOf(body: unknown): number | null {
  if (!body || typeof body !== "object") return null;
  const { revision, read_at_ms } = body as { revision?: unknown; read_at_ms?: unknown };
  return typeof revision === "number" && typeof read_at_ms === "number" ? revision : null;
}

export async function fetchJson<T>(path: string, query: QueryParams = {}, signal?: AbortSignal): Promise<T> {
  const params = withPageClock(query);
  // "no-cache": the browser keeps answers and revalidates each with If-None-Match, so an
  // unchanged answer (same ETag) comes back as a 304 without a body; answers the server
  // marks no-store (errors, uncached reads) are never kept
  const get = async (p: QueryParams) =>
    decode<T>(await fetch(readUrl(path, p), { signal, headers: { accept: "application/json" }, cache: "no-cache" }));
  // a pinned read is the past on purpose; a live one must include the admin's last save:
  // past a save, it asks the server for it (`min_revision`: the server waits for its watch
  // to bring that revision, up to 5 s, and answers at it or later; no polling here)
  const pinned = params.revision !== null && params.revision !== undefined;
  if (pinned || floor === 0) return get(params);
  const want = floor;
  const behind = seen < want;
  if (behind) {
    waiting++;
    notify();
  }
  try {
    const answer = await get({ ...params, min_revision: want });
    const at = revisionOf(answer);
    if (at !== null && at > seen) seen = at;
    return answer;
  } finally {
    if (behind) {
      waiting--;
      notify();
    }
  }
}

// ---- writes ------------------------------------------------------------------------

export interface SendOptions {
  body?: unknown;
  headers?: Record<string, string>;
  params?: QueryParams;
}

/** A mutation (PUT/POST/DELETE): JSON body, same-origin credentials; errors as ApiError with the whole error body. */
export async function sendJson<T>(method: "PUT" | "POST" | "DELETE", path: string, opts: SendOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: "application/json", ...opts.headers };
  if (opts.body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(`${path}${buildQuery(opts.params ?? {})}`, {
    method,
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    credentials: "same-origin",
    cache: "no-store",
  });
  return decode<T>(res);
}
