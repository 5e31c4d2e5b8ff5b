// A table's demand over recent etcd revisions, read with `?revision=` at past revisions
// (console-api.md time travel) until the history is compacted (410) or the table did not
// exist yet (404). Every point is evaluated on one clock (`now_ms` of the newest read),
// so the wait line shows how old each revision's oldest pending generation is today.
import type { DemandOne } from "../api-types";
import { ApiError, fetchJson } from "../fetch-json";

export interface HistoryPoint {
  revision: number;
  pending_generations: number;
  wait_ms: number | null;
  class: string;
}

export interface TableHistory {
  points: HistoryPoint[];
  stoppedBy: "compacted" | "absent" | "window" | null;
  compactRevision: number | null;
}

export const tableHistoryKeys = {
  history: (target: string, pinned: number | null) => ["demand", "history", target, pinned ?? "live"] as const,
};

/**
 * Revisions to read, newest first: evenly spaced over the last `window` revisions, never
 * before `floor` (the oldest revision the table is known to exist at).
 */
export function historyRevisions(newest: number, floor = 1, points = 16, window = 2400): number[] {
  const oldest = Math.max(1, floor, newest - window);
  const step = Math.max(1, Math.floor((newest - oldest) / (points - 1)));
  const revisions: number[] = [];
  for (let r = newest; r >= oldest && revisions.length < points; r -= step) revisions.push(r);
  return revisions;
}

export async function fetchTableHistory(target: string, newest: number, floor: number, nowMs: number, signal?: AbortSignal): Promise<TableHistory> {
  const points: HistoryPoint[] = [];
  let stoppedBy: TableHistory["stoppedBy"] = "window";
  let compactRevision: number | null = null;
  for (const revision of historyRevisions(newest, floor)) {
    try {
      const one = await fetchJson<DemandOne>("/api/v1/scheduler/demand", { target, revision, now_ms: nowMs }, signal);
      points.push({ revision, pending_generations: one.table.pending_generations, wait_ms: one.table.wait_ms, class: one.table.class });
    } catch (e) {
      if (e instanceof ApiError && e.code === "revision_compacted") {
        stoppedBy = "compacted";
        compactRevision = e.body?.compact_revision ?? null;
        break;
      }
      if (e instanceof ApiError && e.status === 404) {
        stoppedBy = "absent";
        break;
      }
      throw e;
    }
  }
  return { points: points.reverse(), stoppedBy, compactRevision };
}
