// Failure ledger and cooldowns (console-api.md `/scheduler/failures`).
import type { FailuresResponse } from "../api-types";
import { fetchJson } from "../fetch-json";

export const failureKeys = {
  list: (revision: number | null) => ["failures", revision ?? "live"] as const,
};

export function fetchFailures(revision: number | null, signal?: AbortSignal): Promise<FailuresResponse> {
  return fetchJson<FailuresResponse>("/api/v1/scheduler/failures", { revision }, signal);
}
