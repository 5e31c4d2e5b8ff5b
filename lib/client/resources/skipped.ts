// Records skipped at read time (console-api.md `/scheduler/skipped`).
import type { SkippedResponse } from "../api-types";
import { fetchJson } from "../fetch-json";

export const skippedKeys = { list: (revision: number | null) => ["skipped", revision ?? "live"] as const };

export function fetchSkipped(revision: number | null, signal?: AbortSignal): Promise<SkippedResponse> {
  return fetchJson<SkippedResponse>("/api/v1/scheduler/skipped", { revision }, signal);
}
