// The console's HTTP API as the command line calls it (console-api.md): one GET, JSON back,
// and the API's own error `{error: {code, message}}` kept whole so it can be shown as is.

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

export type Query = Record<string, string | number | boolean | readonly string[] | undefined>;

export function queryString(query: Query): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) params.append(name, String(one));
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

export class ConsoleClient {
  constructor(private readonly options: ClientOptions) {}

  async get<T>(path: string, query: Query = {}): Promise<T> {
    const url = `${this.options.url.replace(/\/+$/, "")}${path}${queryString(query)}`;
    const headers: Record<string, string> = { accept: "application/json" };
    if (this.options.token) headers.authorization = `Bearer ${this.options.token}`;
    let res: Response;
    try {
      res = await (this.options.fetch ?? fetch)(url, { headers, signal: AbortSignal.timeout(this.options.timeoutMs ?? 60_000) });
    } catch (e) {
      const cause = (e as { cause?: { code?: string; message?: string } }).cause;
      throw new ApiFailure(null, "unreachable", `${this.options.url} did not answer: ${cause?.code ?? cause?.message ?? (e as Error).message}`);
    }
    const text = await res.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      const what = /^\s*</.test(text) ? "an HTML page, not the console API (is the route there, and --url right?)" : text.slice(0, 200);
      throw new ApiFailure(res.status, res.ok ? "not_json" : `http_${res.status}`, `${path} answered ${res.status} with ${what}`);
    }
    if (!res.ok) {
      const error = (body as { error?: { code?: string; message?: string } }).error;
      throw new ApiFailure(res.status, error?.code ?? `http_${res.status}`, error?.message ?? text.slice(0, 200));
    }
    return body as T;
  }
}
