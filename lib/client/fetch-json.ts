// One fetch helper for every resource: JSON in, typed errors out (console-api.md
// "Errors are JSON {error: {code, message, ...}}"). Never throws on a body it can't parse.
// Also the console's read-your-writes floor: after a save at revision R, live reads wait
// until they answer at R or later, so no page shows what the save replaced.
import type { ApiErrorBody } from "./api-types";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly body: (ApiErrorBody["error"] & Record<string, unknown>) | null,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export type QueryParams = Record<string, string | number | boolean | string[] | null | undefined>;

export function buildQuery(params: QueryParams): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value === null || value === undefined || value === "") continue;
    if (Array.isArray(value)) value.forEach((v) => search.append(name, v));
    else search.set(name, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : "";
}

/** A pinned page opened with `?now=server` asks every pinned read for the server clock (console-api.md "Time"). */
function withPageClock(params: QueryParams): QueryParams {
  if (typeof window === "undefined" || params.revision == null || params.now !== undefined) return params;
  return new URLSearchParams(window.location.search).get("now") === "server" ? { ...params, now: "server" } : params;
}

async function decode<T>(res: Response): Promise<T> {
  const text = await res.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  if (!res.ok) {
    const error = (body as { error?: ApiError["body"] } | null)?.error ?? null;
    throw new ApiError(res.status, error?.code ?? `http_${res.status}`, error?.message ?? `HTTP ${res.status}`, error);
  }
  return body as T;
}

// ---- read your writes -------------------------------------------------------------

/** How long a live read keeps asking for a revision at or after a save's. */
const FLOOR_WAIT_MS = 10_000;
const FLOOR_POLL_MS = 250;

let floor = 0;
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
const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(t), resolve()), { once: true });
  });

export async function fetchJson<T>(path: string, query: QueryParams = {}, signal?: AbortSignal): Promise<T> {
  const params = withPageClock(query);
  const url = `${path}${buildQuery(params)}`;
  // "no-cache": the browser keeps answers and revalidates each with If-None-Match, so an
  // unchanged answer (same ETag) comes back as a 304 without a body; answers the server
  // marks no-store (errors, uncached reads) are never kept
  const get = async () => decode<T>(await fetch(url, { signal, headers: { accept: "application/json" }, cache: "no-cache" }));
  const first = await get();
  // a pinned read is the past on purpose; a live one must include the admin's last save
  const pinned = params.revision !== null && params.revision !== undefined;
  const at = revisionOf(first);
  if (pinned || at === null || at >= floor) return first;
  const want = floor;
  waiting++;
  notify();
  try {
    const deadline = Date.now() + FLOOR_WAIT_MS;
    let latest = first;
    while (Date.now() < deadline && !signal?.aborted) {
      await sleep(FLOOR_POLL_MS, signal);
      latest = await get();
      if ((revisionOf(latest) ?? want) >= want) break;
    }
    return latest;
  } finally {
    waiting--;
    notify();
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
