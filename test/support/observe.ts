// Observing a running console from outside, for the reliability tests and bench/load.ts:
// its process memory and CPU time (from /proc), its Prometheus counters
// (GET /api/metrics), and timed JSON requests.
import fs from "node:fs";

/** Resident set size in bytes of `pid` plus all its descendants (Linux /proc). */
export function rssBytes(pid: number): number {
  let total = 0;
  const stack = [pid];
  const seen = new Set<number>();
  while (stack.length > 0) {
    const p = stack.pop()!;
    if (seen.has(p)) continue;
    seen.add(p);
    try {
      const status = fs.readFileSync(`/proc/${p}/status`, "utf8");
      const m = /VmRSS:\s+(\d+) kB/.exec(status);
      if (m) total += Number(m[1]) * 1024;
    } catch {
      continue; // exited
    }
    for (const task of safeList(`/proc/${p}/task`)) {
      const children = safeRead(`/proc/${p}/task/${task}/children`).trim();
      if (children) for (const c of children.split(/\s+/)) stack.push(Number(c));
    }
  }
  return total;
}

/** CPU time (user + system, ms) `pid` has used so far (Linux /proc; 10 ms resolution at CLK_TCK 100). */
export function cpuMsOf(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" "); // from field 3 (state) on
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime (14) + stime (15), in ticks
}

function safeList(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}
function safeRead(file: string): string {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return "";
  }
}

/** Parsed Prometheus text: `name{labels}` → value (labels as written, sorted by prom-client). */
function parseMetrics(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split("\n")) {
    if (!line || line.startsWith("#")) continue;
    const m = /^([a-zA-Z_:][\w:]*)(\{[^}]*\})?\s+(\S+)/.exec(line);
    if (m) out.set(m[1] + (m[2] ?? ""), Number(m[3]));
  }
  return out;
}

/** Sum of every series of `name` whose labels include all of `labels`. */
export function metricSum(metrics: Map<string, number>, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const [series, value] of metrics) {
    const brace = series.indexOf("{");
    const n = brace < 0 ? series : series.slice(0, brace);
    if (n !== name) continue;
    const labelText = brace < 0 ? "" : series.slice(brace);
    if (Object.entries(labels).every(([k, v]) => labelText.includes(`${k}="${v}"`))) sum += value;
  }
  return sum;
}

export async function fetchMetrics(baseUrl: string): Promise<Map<string, number>> {
  const res = await fetch(`${baseUrl}/api/metrics`, { signal: AbortSignal.timeout(10_000) });
  if (!res.ok) throw new Error(`/api/metrics answered ${res.status}`);
  return parseMetrics(await res.text());
}

export interface Timed<T = unknown> {
  status: number;
  ms: number;
  body: T;
  headers: Headers;
  /** set when the request failed without an HTTP answer */
  networkError?: string;
}

/** GET `url` as JSON with a timeout; never throws (a network failure has status 0). */
export async function getJson<T = Record<string, unknown>>(
  url: string,
  opts: { timeoutMs?: number; headers?: Record<string, string> } = {},
): Promise<Timed<T>> {
  const started = performance.now();
  try {
    const res = await fetch(url, { headers: opts.headers, signal: AbortSignal.timeout(opts.timeoutMs ?? 30_000) });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      /* not JSON: keep the text */
    }
    return { status: res.status, ms: performance.now() - started, body: body as T, headers: res.headers };
  } catch (e) {
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    const detail = cause
      ? ` (${cause.code ?? ""}${cause.code && cause.message ? ": " : ""}${cause.message ?? ""})`
      : "";
    return {
      status: 0,
      ms: performance.now() - started,
      body: undefined as T,
      headers: new Headers(),
      networkError: `${(e as Error).message}${detail}`,
    };
  }
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * THE wait of the tests: polls `check` every `everyMs` (default 100) until it returns a
 * value (not undefined or false; a thrown error counts as not yet) or `timeoutMs` passes.
 * Without `what` a timeout answers null (the caller asserts on it); with `what` it throws,
 * naming what was awaited and the last value or error seen.
 */
export async function until<T>(
  check: () => Promise<T | undefined | false>,
  timeoutMs: number,
  opts: { what: string; everyMs?: number },
): Promise<{ value: T; ms: number }>;
export async function until<T>(
  check: () => Promise<T | undefined | false>,
  timeoutMs: number,
  opts?: number | { everyMs?: number },
): Promise<{ value: T; ms: number } | null>;
export async function until<T>(
  check: () => Promise<T | undefined | false>,
  timeoutMs: number,
  opts: number | { what?: string; everyMs?: number } = {},
): Promise<{ value: T; ms: number } | null> {
  const { what, everyMs = 100 } = typeof opts === "number" ? { everyMs: opts } : opts;
  const started = Date.now();
  let last: unknown;
  for (;;) {
    const v = await check().catch((e: unknown) => ((last = e), undefined));
    if (v !== undefined && v !== false) return { value: v, ms: Date.now() - started };
    if (v === false) last = v;
    if (Date.now() - started > timeoutMs) {
      if (what === undefined) return null;
      const seen = last instanceof Error ? last.message : JSON.stringify(last)?.slice(0, 300);
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (last: ${seen})`);
    }
    await sleep(everyMs);
  }
}
