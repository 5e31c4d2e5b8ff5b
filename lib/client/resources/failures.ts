// Failure ledger and cooldowns (console-api.md `/scheduler/failures`).
import { fetchLiveOrLastGood } from "./last-good";
import type { FailuresResponse } from "../api-types";

export const failureKeys = {
  list: (revision: number | null) => ["failures", revision ?? "live"] as const,
};

export function fetchFailures(revision: number | null, signal?: AbortSignal): Promise<FailuresResponse> {
  return fetchLiveOrLastGood<FailuresResponse>("/api/v1/scheduler/failures", { revision }, signal);
}
