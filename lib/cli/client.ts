// The console's HTTP API as the command line calls it (console-api.md): one GET, JSON back,
// and the API's own error `{error: {code, message}}` kept whole so it can be shown as is.
// URLs, answers and error bodies are read by the core the page shares (lib/client/api-core.ts);
// the base URL, the token and the terminal's words for a failure are the command line's.
import type { ZodType } from "zod";
import { apiErrorOf, apiUrl, parseAnswer, readAnswer, type Answer, type QueryParams } from "../client/api-core";

export interface ClientOptions {
  url: string;
  token?: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

/** The API answered with an error (or could not be reached: code `unreachable`). */
export class ApiFailure extends Error {
  constructor(
    readonly status: number | null,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "ApiFailure";
  }
}

export type Query = QueryParams;

export class ConsoleClient {
  constructor(private readonly options: ClientOptions) {}

  /** The answer to GET `path`; with `schema`, checked against it (a misfit is ApiFailure `unexpected_answer`). */
  async get<T>(path: string, query: Query = {}, schema?: ZodType<T>): Promise<T> {
    const url = apiUrl(this.options.url, path, query);
    const headers: Record<string, string> = { accept: "application/json" };
    if (this.options.token) headers.authorization = `Bearer ${this.options.token}`;
    let res: Response;
    try {
      res = await (this.options.fetch ?? fetch)(url, {
        headers,
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 60_000),
      });
    } catch (e) {
      const cause = (e as { cause?: { code?: string; message?: string } }).cause;
      throw new ApiFailure(
        null,
        "unreachable",
        `${this.options.url} did not answer: ${cause?.code ?? cause?.message ?? (e as Error).message}`,
      );
    }
    const answer = await readAnswer(res);
    if (!answer.json) {
      const what = /^\s*</.test(answer.text)
        ? "an HTML page, not the console API (is the route there, and --url right?)"
        : answer.text.slice(0, 200);
      throw new ApiFailure(
        res.status,
        res.ok ? "not_json" : `http_${res.status}`,
        `${path} answered ${res.status} with ${what}`,
      );
    }
    if (!res.ok) throw failure(apiErrorOf(answer, answer.text.slice(0, 200)));
    return schema ? checked(schema, answer, path) : (answer.body as T);
  }
}

const failure = (e: { status: number; code: string; message: string }) => new ApiFailure(e.status, e.code, e.message);

function checked<T>(schema: ZodType<T>, answer: Answer, path: string): T {
  try {
    return parseAnswer(schema, answer.body, path, answer.status);
  } catch (e) {
    throw failure(e as { status: number; code: string; message: string });
  }
}
