// One fetch helper for every resource: JSON in, typed errors out (console-api.md
// "Errors are JSON {error: {code, message, ...}}"). Never throws on a body it can't parse.
import type { ApiErrorBody } from "./api-types";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly body: ApiErrorBody["error"] | null,
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

export async function fetchJson<T>(path: string, query: QueryParams = {}, signal?: AbortSignal): Promise<T> {
  const params = withPageClock(query);
  const res = await fetch(`${path}${buildQuery(params)}`, { signal, headers: { accept: "application/json" }, cache: "no-store" });
  const text = await res.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  if (!res.ok) {
    const error = (body as ApiErrorBody | null)?.error ?? null;
    throw new ApiError(res.status, error?.code ?? `http_${res.status}`, error?.message ?? `HTTP ${res.status}`, error);
  }
  return body as T;
}
