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

/**
 * From when a point's verdict held: a journal point from the moment the live plan entered it
 * (`now_ms`; a time-driven change, a stall or a promotion, comes at a later moment of the same
 * revision), any other from its revision's time (`at_ms`, null when nothing dates it). The
 * server's `time_in_state` counts the same way (lib/time/history.ts).
 */
export const pointTime = (p: HistoryPoint): number | null => (p.basis === "journal" ? p.now_ms : p.at_ms);

/** A run of points with the same verdict (and skip code): "skipped for no_free_slot from 02:10 to 03:40"; `figures_only`: points without a verdict. */
export interface VerdictSpan {
  state: "would_place" | "would_skip" | "figures_only";
  code: string | null;
  fromMs: number;
  /** the next span's start, or the window's end */
  toMs: number;
  points: number;
}

export function verdictSpans(points: readonly HistoryPoint[], endMs: number): VerdictSpan[] {
  const spans: VerdictSpan[] = [];
  for (const p of points) {
    const at = pointTime(p);
    if (at === null) continue;
    const last = spans[spans.length - 1];
    const state = p.verdict?.state ?? "figures_only";
    const code = p.verdict?.code ?? null;
    if (last && last.state === state && last.code === code) {
      last.points += 1;
      continue;
    }
    if (last) last.toMs = at;
    spans.push({ state, code, fromMs: at, toMs: endMs, points: 1 });
  }
  return spans;
}
