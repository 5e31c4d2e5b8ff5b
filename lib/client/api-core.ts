// The console's HTTP API as every client calls it (console-api.md "Conventions" and
// "Errors"): the page (./fetch-json.ts: its read-your-writes floor and React Query) and the
// command line (lib/cli/client.ts: its base URL and token) both build URLs, read answers
// and decode the API's error body here, so the two cannot read one answer two ways.
// No React, no window, no Node: it runs in both.
import type { ZodType } from "zod";
import type { ApiErrorBody } from "./api-types";

/** Query parameters; null and undefined are left out, an array repeats the name. */
export type QueryParams = Record<string, string | number | boolean | readonly string[] | null | undefined>;

/** `?a=1&b=x&b=y` (percent-encoded), or "" when nothing is left. */
export function queryString(params: QueryParams): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value === null || value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) search.append(name, String(one));
  }
  const text = search.toString();
  return text ? `?${text}` : "";
}

/** `base` (a trailing `/` dropped; "" for the page's own origin) + `path` + the query. */
export function apiUrl(base: string, path: string, params: QueryParams = {}): string {
  return `${base.replace(/\/+$/, "")}${path}${queryString(params)}`;
}

/** A path with one target in it: the target travels percent-encoded (`a/b` → `a%2Fb`). */
export const targetPath = (path: string, target: string) => `${path}/${encodeURIComponent(target)}`;

/** The API answered with an error: its status, its stable code and the whole error body. */
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

/** An answer's text and, when the text is JSON, its value. */
export interface Answer {
  status: number;
  ok: boolean;
  text: string;
  /** false for an empty or non-JSON body (an HTML error page, a proxy's text) */
  json: boolean;
  /** the parsed body; null when not JSON */
  body: unknown;
}

/** Reads an answer without ever throwing on a body it cannot parse. */
export async function readAnswer(res: Response): Promise<Answer> {
  const text = await res.text();
  let body: unknown = null;
  let json = false;
  try {
    body = text ? JSON.parse(text) : null;
    json = text !== "";
  } catch {
    body = null;
  }
  return { status: res.status, ok: res.ok, text, json, body };
}

/**
 * The API's error `{error: {code, message, ...}}` as a typed error; a body without one is
 * `http_<status>` with `fallbackMessage`.
 */
export function apiErrorOf(answer: Answer, fallbackMessage: string): ApiError {
  const error = (answer.body as { error?: ApiError["body"] } | null)?.error ?? null;
  return new ApiError(
    answer.status,
    error?.code ?? `http_${answer.status}`,
    error?.message ?? fallbackMessage,
    error ?? null,
  );
}

/**
 * A successful answer's body checked against its schema (lib/schema/api): one that does
 * not fit is an ApiError `unexpected_answer` naming the first misfit, never a crash later.
 */
export function parseAnswer<T>(schema: ZodType<T>, body: unknown, what: string, status = 200): T {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue.path.length ? ` at ${issue.path.join(".")}` : "";
  throw new ApiError(
    status,
    "unexpected_answer",
    `${what} answered an unexpected shape${where}: ${issue.message}`,
    null,
  );
}
