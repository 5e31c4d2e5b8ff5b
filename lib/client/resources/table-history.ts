// A table's history in one request (console-api.md "Time": GET
// /api/v1/scheduler/demand/history): one point per change of the table's own keys, each
// evaluated at its own time, plus where compaction cut it.
import type { HistoryPoint, HistoryResponse } from "@/lib/schema/api/history";
import { fetchJson } from "../fetch-json";
import { tableHistoryRead } from "./first-reads";

export type { HistoryPoint, HistoryResponse };

export const tableHistoryKeys = {
  history: (target: string, toMs: number | null) => tableHistoryRead(target, toMs).key,
};

export function fetchTableHistory(target: string, toMs: number | null, signal?: AbortSignal): Promise<HistoryResponse> {
  const { path, params } = tableHistoryRead(target, toMs);
  return fetchJson<HistoryResponse>(path, params, signal);
}

/** A run of points with the same verdict (and skip code): "skipped for no_free_slot from 02:10 to 03:40". */
export interface VerdictSpan {
  state: "would_place" | "would_skip";
  code: string | null;
  fromMs: number;
  /** the next span's start, or the window's end */
  toMs: number;
  points: number;
}

export function verdictSpans(points: readonly HistoryPoint[], endMs: number): VerdictSpan[] {
  const spans: VerdictSpan[] = [];
  for (const p of points) {
    if (p.at_ms === null) continue;
    const last = spans[spans.length - 1];
    if (last && last.state === p.verdict.state && last.code === p.verdict.code) {
      last.points += 1;
      continue;
    }
    if (last) last.toMs = p.at_ms;
    spans.push({ state: p.verdict.state, code: p.verdict.code, fromMs: p.at_ms, toMs: endMs, points: 1 });
  }
  return spans;
}
