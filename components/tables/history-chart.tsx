"use client";
// One table over the last 6 hours (console-api.md "Time", GET /scheduler/demand/history):
// pending generations and wait on a time axis, class and verdict bands ("a later cycle
// from 02:10 to 03:40, then placed"), where compaction cut the history, and
// the same data as a table for screen readers and copying.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useState } from "react";
import { formatCount, formatDuration, formatScore, formatTime } from "@/components/ui/format";
import { QueryState } from "@/components/ui/query-state";
import {
  fetchTableHistory,
  tableHistoryKeys,
  verdictSpans,
  type HistoryPoint,
  type HistoryResponse,
} from "@/lib/client/resources/table-history";
import { usePinnedRevision } from "@/lib/client/revision";
import { StepChart, type StepSeries } from "./step-chart";
import { movedByInWords } from "@/lib/words/moved-by";
import { historySummary } from "./history-summary";
import { historyStartInWords } from "@/lib/words/history-start";
import { stateInWords, timeInStateWords } from "@/lib/words/time-in-state";

/** The dated points as the chart's two step lines: pending generations, and wait in minutes. */
function chartedOf(h: HistoryResponse): { times: number[]; series: StepSeries[] } {
  const dated = h.points.filter((p) => p.at_ms !== null);
  return {
    times: dated.map((p) => p.at_ms!),
    series: [
      { name: "pending generations", color: "#6cb6ff", axis: "left", values: dated.map((p) => p.pending_generations) },
      {
        name: "wait",
        color: "#e0a53a",
        axis: "right",
        unit: " min",
        values: dated.map((p) => (p.wait_ms === null ? null : +(p.wait_ms / 60000).toFixed(1))),
      },
    ],
  };
}

/** How the verdicts were reached, in words (lib/time/history.ts `verdict_basis`). */
function basisWords(h: HistoryResponse): string {
  if (h.verdict_basis === "journal")
    return "Verdicts come from the decision journal: each change as the live plan entered it, equal to the table page pinned at that revision and time.";
  const journalled = h.points.filter((p) => p.basis === "journal").length;
  const part =
    journalled > 0
      ? `${formatCount(journalled)} of the changes come from the decision journal; the rest, where it does not cover the window, are re-planned. `
      : "";
  if (h.verdict_basis === "fleet_plan")
    return (
      part +
      "Re-planned verdicts come from the whole fleet planned at each change, as the table page pinned there shows them."
    );
  const fits = h.fleet_plan_points;
  return (
    part +
    "Re-planned verdicts weigh this table alone against the capacity free at each change, not the tables ahead of it in line: " +
    `${formatCount(h.points.length)} changes are more than one request plans with the whole fleet. ` +
    (fits >= 10
      ? `A window of ${formatCount(fits)} changes or fewer is planned whole; or pin a revision for the table page's verdict there.`
      : "Pin a revision for the table page's verdict there.")
  );
}

function Bands({ h }: { h: HistoryResponse }) {
  const span = Math.max(1, h.to_ms - h.from_ms);
  const left = (ms: number) => `${(Math.max(0, ms - h.from_ms) / span) * 100}%`;
  const width = (a: number, b: number) =>
    `${(Math.max(0, Math.min(b, h.to_ms) - Math.max(a, h.from_ms)) / span) * 100}%`;
  const classes: { cls: string; fromMs: number; toMs: number }[] = [];
  for (const p of h.points) {
    if (p.at_ms === null) continue;
    const last = classes[classes.length - 1];
    if (last?.cls === p.class) continue;
    if (last) last.toMs = p.at_ms;
    classes.push({ cls: p.class, fromMs: p.at_ms, toMs: h.to_ms });
  }
  return (
    <div className="history-bands" aria-hidden="true">
      <div className="history-band">
        <span className="history-band-label">class</span>
        <div className="history-track">
          {classes.map((c) => (
            <span
              key={`c${c.fromMs}`}
              className={`history-seg class-${c.cls}`}
              style={{ left: left(c.fromMs), width: width(c.fromMs, c.toMs) }}
              title={`${c.cls} from ${formatTime(c.fromMs)}`}
            >
              {c.cls}
            </span>
          ))}
        </div>
      </div>
      <div className="history-band">
        <span className="history-band-label">verdict</span>
        <div className="history-track">
          {verdictSpans(h.points, h.to_ms).map((s) => (
            <span
              key={`v${s.fromMs}`}
              className={`history-seg ${s.state === "would_place" ? "seg-place" : "seg-skip"}`}
              style={{ left: left(s.fromMs), width: width(s.fromMs, s.toMs) }}
              title={`${stateInWords(s.state, s.code)} from ${formatTime(s.fromMs)}`}
            >
              {s.state === "would_place" ? "placed" : s.code}
            </span>
          ))}
        </div>
      </div>
    </div>
  );
}

function PointsTable({ points }: { points: HistoryPoint[] }) {
  // rows only once opened: 6 h of a busy table is ~1,800 rows the chart need not wait for
  const [open, setOpen] = useState(false);
  return (
    <details onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>
        The data as a table ({formatCount(points.length)} change{points.length === 1 ? "" : "s"})
      </summary>
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
                <td>{stateInWords(p.verdict.state, p.verdict.code)}</td>
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
  const charted = useMemo(() => chartedOf(h), [h]);
  const inState = timeInStateWords(h.time_in_state);
  return (
    <>
      <p data-testid="history-summary">{historySummary(h, pinned)}</p>
      {h.history_starts !== null && (
        <p role="note" data-testid="history-starts">
          {historyStartInWords(h.history_starts)}
        </p>
      )}
      {inState !== null && <p data-testid="time-in-state">Over the window: {inState}.</p>}
      <StepChart
        label={`pending generations and wait of ${target} from ${formatTime(h.from_ms)} to ${formatTime(h.to_ms)}`}
        fromMs={h.from_ms}
        toMs={h.to_ms}
        times={charted.times}
        series={charted.series}
        marker={
          h.compacted_before !== null && charted.times.length > 0
            ? { atMs: charted.times[0], label: "older history compacted" }
            : null
        }
      />
      <Bands h={h} />
      <p className="muted">
        {formatCount(h.points.length)} change{h.points.length === 1 ? "" : "s"} from {formatTime(h.from_ms)} to{" "}
        {formatTime(h.to_ms)}, each evaluated at its own time. <span data-testid="history-basis">{basisWords(h)}</span>
        {h.compacted_before !== null ? ` History before revision ${formatCount(h.compacted_before)} is compacted.` : ""}
      </p>
      <PointsTable points={h.points} />
    </>
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

/**
 * `nowMs`: the page's evaluation time; a pinned page's history ends there (its revision's
 * time), a live one's now.
 */
export function HistoryChart({ target, nowMs }: { target: string; nowMs: number }) {
  const pinned = usePinnedRevision();
  const toMs = pinned === null ? null : nowMs;
  const history = useQuery({
    ...historyQuery(target, toMs),
    refetchInterval: pinned === null ? 30_000 : false,
    placeholderData: (previous) => previous,
  });
  return (
    <section className="panel" aria-label="history" data-testid="history-chart">
      <h2>The last 6 hours</h2>
      <QueryState query={history} what="history">
        {(h) => <HistoryBody h={h} target={target} pinned={pinned !== null} />}
      </QueryState>
    </section>
  );
}
