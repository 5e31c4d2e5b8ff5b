// The shadow canary (console-api.md `/scheduler/shadow` and `/scheduler/shadow/history`).
import { fetchLiveOrLastGood } from "./last-good";
import type { ShadowHistory, ShadowResponse, ShadowSample } from "../api-types";
import { fetchJson } from "../fetch-json";

export const shadowKeys = {
  now: (revision: number | null) => ["shadow", revision ?? "live"] as const,
  history: () => ["shadow", "history"] as const,
};

export function fetchShadow(revision: number | null, signal?: AbortSignal): Promise<ShadowResponse> {
  return fetchLiveOrLastGood<ShadowResponse>("/api/v1/scheduler/shadow", { revision }, signal);
}

export async function fetchShadowHistory(signal?: AbortSignal): Promise<ShadowHistory> {
  // The contract shows the samples as a list; accept `{samples}` / `{history}` wrappers too.
  const body = await fetchJson<ShadowSample[] | { samples?: ShadowSample[]; history?: ShadowSample[] }>(
    "/api/v1/scheduler/shadow/history",
    {},
    signal,
  );
  const samples = Array.isArray(body) ? body : (body.samples ?? body.history ?? []);
  return { samples: [...samples].sort((a, b) => a.at_ms - b.at_ms) };
}
