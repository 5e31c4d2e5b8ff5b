"use client";
// One table over the last 6 hours (console-api.md "Time", GET /scheduler/demand/history):
// pending generations and wait on a time axis, class and verdict bands ("next cycle
// from 02:10 to 03:40, then placed"), where compaction cut the history, and
// the same data as a table for screen readers and copying.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useState, type ReactNode } from "react";
import { formatCount, formatDuration, formatScore, formatTime } from "@/components/ui/format";
import { QueryState } from "@/components/ui/query-state";
import {
  fetchTableHistory,
  tableHistoryKeys,
  type HistoryPoint,
  type HistoryResponse,
} from "@/lib/client/resources/table-history";
import { usePinnedRevision } from "@/lib/client/revision";
import { useHydrated } from "@/lib/client/use-hydrated";
import { Bands } from "./history-bands";
import { chartProps, HistoryBodyFigure, POINTS_TABLE_SELECTOR, pointsTableSummary } from "./history-figure";
import { StepChart } from "./step-chart";
import { movedByInWords } from "@/lib/words/moved-by";
import { stateInWords } from "@/lib/words/time-in-state";

function PointsTable({ points }: { points: HistoryPoint[] }) {
  // rows only once opened: 6 h of a busy table is ~1,800 rows the chart need not wait for. A
  // reader who opened the server-drawn summary (./history-figure.tsx) before this replaced it
  // keeps it open: the old element is still in the document while this first renders.
  const [open, setOpen] = useState(
    () => typeof document !== "undefined" && document.querySelector(`${POINTS_TABLE_SELECTOR}[open]`) !== null,
  );
  return (
    <details data-points-table="" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>{pointsTableSummary(points.length)}</summary>
      {open && (
        <table className="table" data-testid="history-table">
          <thead>
            <tr>
              <th scope="col">time (UTC)</th>
              <th scope="col">revision</th>
              <th scope="col">pending generations</th>
              <th scope="col">wait</th>
              <th scope="col">class</th>
              <th scope="col">score</th>
              <th scope="col">verdict</th>
              <th scope="col">what moved its inputs</th>
            </tr>
          </thead>
          <tbody>
            {points.map((p) => (
              <tr key={`${p.revision}:${p.now_ms}`}>
                <td className="mono">{formatTime(p.at_ms)}</td>
                <td className="mono">{formatCount(p.revision)}</td>
                <td>{formatCount(p.pending_generations)}</td>
                <td>{formatDuration(p.wait_ms)}</td>
                <td>{p.class}</td>
                <td>{formatScore(p.score)}</td>
                <td>
                  {p.verdict === null
                    ? stateInWords("figures_only", null)
                    : stateInWords(p.verdict.state, p.verdict.code)}
                </td>
                <td data-testid="history-moved-by">{movedByInWords(p.moved_by) ?? "not known"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </details>
  );
}

function HistoryBody({ h, target, pinned }: { h: HistoryResponse; target: string; pinned: boolean }) {
  const chart = useMemo(() => chartProps(h, target), [h, target]);
  return (
    <HistoryBodyFigure
      h={h}
      pinned={pinned}
      chart={<StepChart {...chart} />}
      bands={<Bands h={h} />}
      table={<PointsTable points={h.points} />}
    />
  );
}

/** The history query (a live page's ends now: toMs null; a pinned one's at its time). */
function historyQuery(target: string, toMs: number | null) {
  return {
    queryKey: tableHistoryKeys.history(target, toMs),
    queryFn: ({ signal }: { signal: AbortSignal }) => fetchTableHistory(target, toMs, signal),
    staleTime: toMs === null ? 25_000 : Infinity,
  };
}

/**
 * A live table page asks for its history at once, beside the table itself (a pinned one
 * needs the table's evaluation time first): the chart then waits for one request, not two in a row.
 */
export function usePrefetchLiveHistory(target: string): void {
  const client = useQueryClient();
  const pinned = usePinnedRevision();
  useEffect(() => {
    if (pinned === null) void client.prefetchQuery(historyQuery(target, null));
  }, [client, pinned, target]);
}

/** The panel while its history is read (a live page's server streams the chart in: app/(console)/tables/[target]). */
export function HistoryChartLoading() {
  return (
    <HistoryPanel>
      <div className="state state-loading" aria-busy="true">
        Loading history…
      </div>
    </HistoryPanel>
  );
}

function HistoryPanel({ children }: { children: ReactNode }) {
  return (
    <section className="panel" aria-label="history" data-testid="history-chart">
      <h2>The last 6 hours</h2>
      {children}
    </section>
  );
}

/**
 * `nowMs`: the page's evaluation time; a pinned page's history ends there (its revision's
 * time), a live one's now (a live page needs none).
 */
export function HistoryChart({ target, nowMs, drawn }: { target: string; nowMs?: number; drawn?: ReactNode }) {
  const pinned = usePinnedRevision();
  const hydrated = useHydrated();
  const toMs = pinned === null || nowMs === undefined ? null : nowMs;
  const history = useQuery({
    ...historyQuery(target, toMs),
    refetchInterval: pinned === null ? 30_000 : false,
    placeholderData: (previous) => previous,
  });
  return (
    <HistoryPanel>
      {/* a live page's server drew the chart from the answer it read (./history-figure.tsx): it shows while
          React hydrates it (whatever this browser has read by then) and until this browser has the answer
          too (or fails to get it: then the error shows) */}
      {drawn !== undefined && pinned === null && (!hydrated || (history.data === undefined && !history.isError)) ? (
        drawn
      ) : (
        <QueryState query={history} what="history">
          {(h) => <HistoryBody h={h} target={target} pinned={pinned !== null} />}
        </QueryState>
      )}
    </HistoryPanel>
  );
}
