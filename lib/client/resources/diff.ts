// What changed between two moments (console-api.md "Time": GET /api/v1/scheduler/diff).
import type { DiffResponse } from "@/lib/schema/api/diff";
import { fetchJson } from "../fetch-json";

export type { DiffResponse };

/** One side of the comparison: a revision, or a wall time (ms); `to` defaults to now. */
export type DiffSide = { revision: number } | { atMs: number };

export const diffKeys = {
  diff: (from: DiffSide, to: DiffSide | null) => ["diff", JSON.stringify(from), JSON.stringify(to)] as const,
};

export function fetchDiff(from: DiffSide, to: DiffSide | null, signal?: AbortSignal): Promise<DiffResponse> {
  return fetchJson<DiffResponse>(
    "/api/v1/scheduler/diff",
    {
      from: "revision" in from ? from.revision : null,
      from_ms: "atMs" in from ? Math.floor(from.atMs) : null,
      to: to && "revision" in to ? to.revision : null,
      to_ms: to && "atMs" in to ? Math.floor(to.atMs) : null,
    },
    signal,
  );
}
