// Records skipped at read time (console-api.md `/scheduler/skipped`).
import { fetchLiveOrLastGood } from "./last-good";
import type { SkippedResponse } from "../api-types";

export const skippedKeys = { list: (revision: number | null) => ["skipped", revision ?? "live"] as const };

export function fetchSkipped(revision: number | null, signal?: AbortSignal): Promise<SkippedResponse> {
  return fetchLiveOrLastGood<SkippedResponse>("/api/v1/scheduler/skipped", { revision }, signal);
}
