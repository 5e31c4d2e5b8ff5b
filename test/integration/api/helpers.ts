// Shared by the API integration tests: a client on the suite's etcd, JSON fetches against
// a running console, and Prometheus counter reads from /api/metrics.
import type { Etcd3 } from "etcd3";
import type { z } from "zod";
import { createRawEtcdClient } from "@/lib/etcd/raw";
import { errorBodySchema } from "@/lib/schema/api/common";

export function clientFor(endpoints: string): Etcd3 {
  return createRawEtcdClient({ endpoints: endpoints.split(","), callTimeoutMs: 30_000 });
}

export interface ApiResult {
  status: number;
  /** the JSON body (text when not JSON): parse it with the endpoint's response schema */
  body: unknown;
  ms: number;
}

export async function api(base: string, path: string, timeoutMs = 30_000): Promise<ApiResult> {
  const started = performance.now();
  const res = await fetch(`${base}${path}`, { signal: AbortSignal.timeout(timeoutMs) });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* metrics are text */
  }
  return { status: res.status, body, ms: performance.now() - started };
}

/** GET `path`, which must answer 200: its body parsed with the endpoint's response schema. */
export async function okBody<S extends z.ZodType>(
  base: string,
  path: string,
  schema: S,
  timeoutMs = 30_000,
): Promise<z.output<S>> {
  const res = await api(base, path, timeoutMs);
  if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
  return schema.parse(res.body);
}

/** GET `path`, which must answer an error: its status and the parsed `{error}` (console-api.md "Conventions"). */
export async function errorOf(
  base: string,
  path: string,
  timeoutMs = 30_000,
): Promise<{ status: number; error: z.output<typeof errorBodySchema>["error"] }> {
  const res = await api(base, path, timeoutMs);
  if (res.status < 400) throw new Error(`${path} answered ${res.status}, not an error`);
  return { status: res.status, error: errorBodySchema.parse(res.body).error };
}

/** Sum of every sample of a metric (all label sets) in Prometheus text, 0 when absent. */
export async function metricSum(base: string, name: string, labels: Record<string, string> = {}): Promise<number> {
  const res = await fetch(`${base}/api/metrics`);
  const text = await res.text();
  let sum = 0;
  for (const line of text.split("\n")) {
    if (!line.startsWith(name)) continue;
    const m = /^([a-z_]+)(\{[^}]*\})?\s+(\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const lbl = m[2] ?? "";
    if (Object.entries(labels).some(([k, v]) => !lbl.includes(`${k}="${v}"`))) continue;
    sum += Number(m[3]);
  }
  return sum;
}

export const q = (params: Record<string, string | number | boolean | string[] | undefined>) => {
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined) continue;
    if (Array.isArray(v)) for (const x of v) sp.append(k, x);
    else sp.set(k, String(v));
  }
  const s = sp.toString();
  return s ? `?${s}` : "";
};

/** An answer as a test compares it: its status and its bytes. */
export interface RawAnswer {
  status: number;
  text: string;
}

/**
 * An answer without what is per process by design: when the console read the view (and so how
 * old it was at the answer's clock) and the name of its listing (console-api.md "The same
 * answer from any replica"); every other byte is the revision's.
 */
export const sameness = (r: RawAnswer) => ({
  status: r.status,
  text: r.text
    .replace(/"read_at_ms":\d+,/g, "")
    .replace(/"age_ms":\d+,/g, "")
    .replace(/"listing":"[\w.-]+"/g, '"listing":""'),
});
