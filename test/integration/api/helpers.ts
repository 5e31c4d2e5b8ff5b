// Shared by the API integration tests: a client on the suite's etcd, JSON fetches against
// a running console, and Prometheus counter reads from /api/metrics.
import type { Etcd3 } from "etcd3";
import { createEtcdClient } from "@/lib/etcd/client";

export function clientFor(endpoints: string): Etcd3 {
  return createEtcdClient({ endpoints: endpoints.split(","), callTimeoutMs: 30_000 });
}

export interface ApiResult<T = any> {
  status: number;
  body: T;
  ms: number;
}

export async function api<T = any>(base: string, path: string, timeoutMs = 30_000): Promise<ApiResult<T>> {
  const started = performance.now();
  const res = await fetch(`${base}${path}`, { signal: AbortSignal.timeout(timeoutMs) });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* metrics are text */
  }
  return { status: res.status, body: body as T, ms: performance.now() - started };
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
