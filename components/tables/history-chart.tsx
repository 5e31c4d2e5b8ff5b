"use client";
// One table over the last 6 hours (console-api.md "Time", GET /scheduler/demand/history):
// pending generations and wait on a time axis, class and verdict bands ("skipped for
// no_free_slot from 02:10 to 03:40, then placed"), where compaction cut the history, and
// the same data as a table for screen readers and copying.
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { CartesianGrid, Legend, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatCount, formatDuration, formatScore, formatTime } from "@/components/ui/format";
import { QueryState } from "@/components/ui/query-state";
import { fetchTableHistory, tableHistoryKeys, verdictSpans, type HistoryPoint, type HistoryResponse } from "@/lib/client/resources/table-history";
import { usePinnedRevision } from "@/lib/client/revision";

const clock = (ms: number) => new Date(ms).toISOString().slice(11, 16);
/** How the verdicts were reached, in words (lib/api/history.ts `verdict_basis`). */
function basisWords(h: HistoryResponse): string {
  if (h.verdict_basis === "fleet_plan") return "Verdicts come from the whole fleet planned at each change, as the table page pinned there shows them.";
  const fits = h.fleet_plan_points;
  return (
    "Verdicts weigh this table alone against the capacity free at each change, not the tables ahead of it in line: " +
    `${formatCount(h.points.length)} changes are more than one request plans with the whole fleet. ` +
    (fits > 0 ? `Narrow the window to ${formatCount(fits)} change${fits === 1 ? "" : "s"} or fewer for the table page's verdicts, or pin a revision.` : "Pin a revision for the table page's verdict there.")
  );
}

const verdictWords = (state: string, code: string | null) => (state === "would_place" ? "placed" : `skipped for ${code ?? "a reason"}`);

/** "skipped for no_free_slot from 02:10 to 03:40, then placed" */
export function historySummary(h: HistoryResponse): string {
  const spans = verdictSpans(h.points, h.to_ms);
  if (spans.length === 0) return "No change to this table's keys in this window.";
  return (
    spans
      .map((s, i) => {
        const words = verdictWords(s.state, s.code);
        return i === spans.length - 1 && spans.length > 1 ? `then ${words} from ${clock(s.fromMs)}` : `${words} from ${clock(s.fromMs)} to ${i === spans.length - 1 ? "now" : clock(s.toMs)}`;
      })
      .join(", ")
      .replace(/^./, (c) => c.toUpperCase()) + "."
  );
}

function Bands({ h }: { h: HistoryResponse }) {
  const span = Math.max(1, h.to_ms - h.from_ms);
  const left = (ms: number) => `${(Math.max(0, ms - h.from_ms) / span) * 100}%`;
  const width = (a: number, b: number) => `${(Math.max(0, Math.min(b, h.to_ms) - Math.max(a, h.from_ms)) / span) * 100}%`;
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
          <span key={`c${c.fromMs}`} className={`history-seg class-${c.cls}`} style={{ left: left(c.fromMs), width: width(c.fromMs, c.toMs) }} title={`${c.cls} from ${formatTime(c.fromMs)}`}>
            {c.cls}
          </span>
        ))}
        </div>
      </div>
      <div className="history-band">
        <span className="history-band-label">verdict</span>
        <div className="history-track">
        {verdictSpans(h.points, h.to_ms).map((s) => (
          <span key={`v${s.fromMs}`} className={`history-seg ${s.state === "would_place" ? "seg-place" : "seg-skip"}`} style={{ left: left(s.fromMs), width: width(s.fromMs, s.toMs) }} title={`${verdictWords(s.state, s.code)} from ${formatTime(s.fromMs)}`}>
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
      <summary>The data as a table ({formatCount(points.length)} change{points.length === 1 ? "" : "s"})</summary>
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
            </tr>
          </thead>
          <tbody>
            {points.map((p) => (
              <tr key={p.revision}>
                <td className="mono">{formatTime(p.at_ms)}</td>
                <td className="mono">{formatCount(p.revision)}</td>
                <td>{formatCount(p.pending_generations)}</td>
                <td>{formatDuration(p.wait_ms)}</td>
                <td>{p.class}</td>
                <td>{formatScore(p.score)}</td>
                <td>{verdictWords(p.verdict.state, p.verdict.code)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </details>
  );
}

/**
 * `nowMs`: the page's evaluation time; a pinned page's history ends there (its revision's
 * time), a live one's now.
 */
export function HistoryChart({ target, nowMs }: { target: string; nowMs: number }) {
  const pinned = usePinnedRevision();
  const toMs = pinned === null ? null : nowMs;
  const history = useQuery({
    queryKey: tableHistoryKeys.history(target, toMs),
    queryFn: ({ signal }) => fetchTableHistory(target, toMs, signal),
    staleTime: pinned === null ? 25_000 : Infinity,
    refetchInterval: pinned === null ? 30_000 : false,
    placeholderData: (previous) => previous,
  });
  return (
    <section className="panel" aria-label="history" data-testid="history-chart">
      <h2>The last 6 hours</h2>
      <QueryState query={history} what="history">
        {(h) => (
          <>
            <p data-testid="history-summary">{historySummary(h)}</p>
            <div className="chart" role="img" aria-label={`pending generations and wait of ${target} from ${formatTime(h.from_ms)} to ${formatTime(h.to_ms)}`}>
              <ResponsiveContainer width="100%" height="100%">
                <LineChart data={h.points.filter((p) => p.at_ms !== null).map((p) => ({ ...p, wait_min: p.wait_ms === null ? null : +(p.wait_ms / 60000).toFixed(1) }))} margin={{ top: 8, right: 16, bottom: 4, left: 0 }}>
                  <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
                  <XAxis dataKey="at_ms" type="number" scale="time" domain={[h.from_ms, h.to_ms]} tickFormatter={clock} tick={{ fontSize: 11, fill: "var(--muted)" }} />
                  <YAxis yAxisId="gens" tick={{ fontSize: 11, fill: "var(--muted)" }} allowDecimals={false} />
                  <YAxis yAxisId="wait" orientation="right" tick={{ fontSize: 11, fill: "var(--muted)" }} unit="m" />
                  <Tooltip contentStyle={{ background: "var(--panel)", border: "1px solid var(--border)" }} labelFormatter={(ms) => `${formatTime(Number(ms))} UTC`} />
                  <Legend />
                  {h.compacted_before !== null && h.points[0]?.at_ms != null ? (
                    <ReferenceLine yAxisId="gens" x={h.points[0].at_ms} stroke="#e5534b" strokeDasharray="4 2" label={{ value: "older history compacted", fill: "#e5534b", fontSize: 11, position: "insideTopLeft" }} />
                  ) : null}
                  <Line yAxisId="gens" type="stepAfter" dataKey="pending_generations" name="pending generations" stroke="#6cb6ff" dot={false} isAnimationActive={false} />
                  <Line yAxisId="wait" type="stepAfter" dataKey="wait_min" name="wait (min)" stroke="#e0a53a" dot={false} isAnimationActive={false} connectNulls={false} />
                </LineChart>
              </ResponsiveContainer>
            </div>
            <Bands h={h} />
            <p className="muted">
              {formatCount(h.points.length)} change{h.points.length === 1 ? "" : "s"} from {formatTime(h.from_ms)} to {formatTime(h.to_ms)}, each evaluated at its own time.{" "}
              <span data-testid="history-basis">{basisWords(h)}</span>
              {h.compacted_before !== null ? ` History before revision ${formatCount(h.compacted_before)} is compacted.` : ""}
            </p>
            <PointsTable points={h.points} />
          </>
        )}
      </QueryState>
    </section>
  );
}
