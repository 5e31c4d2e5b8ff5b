// Executors and live assignments (console-api.md `/scheduler/executors`, `/scheduler/assignments`).
import { fetchLiveOrLastGood } from "./last-good";
import type { AssignmentsResponse, ExecutorsResponse } from "../api-types";

export const executorKeys = {
  list: (revision: number | null) => ["executors", revision ?? "live"] as const,
  assignments: (revision: number | null) => ["assignments", revision ?? "live"] as const,
};

export function fetchExecutors(revision: number | null, signal?: AbortSignal): Promise<ExecutorsResponse> {
  return fetchLiveOrLastGood<ExecutorsResponse>("/api/v1/scheduler/executors", { revision }, signal);
}

export function fetchAssignments(revision: number | null, signal?: AbortSignal): Promise<AssignmentsResponse> {
  return fetchLiveOrLastGood<AssignmentsResponse>("/api/v1/scheduler/assignments", { revision }, signal);
}
