// etcd + snapshot health (console-api.md `/api/v1/health`): 503 still carries the body.
import type { HealthResponse } from "../api-types";
import { ApiError } from "../fetch-json";

export const healthKeys = { now: () => ["health"] as const };

/** Health never throws for `down`: the banner needs the body, not an error. */
export async function fetchHealth(signal?: AbortSignal): Promise<HealthResponse> {
  const res = await fetch("/api/v1/health", { signal, cache: "no-store", headers: { accept: "application/json" } });
  try {
    return (await res.json()) as HealthResponse;
  } catch {
    throw new ApiError(res.status, `http_${res.status}`, `health answered HTTP ${res.status}`, null);
  }
}

