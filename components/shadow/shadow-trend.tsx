"use client";
// The five outcomes over time, from the durable history (console-api.md shadow/history).
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatCount, formatTime } from "@/components/ui/format";
import { Empty, QueryState } from "@/components/ui/query-state";
import { OUTCOMES, type OutcomeName, type ShadowSample } from "@/lib/client/api-types";
import { OUTCOME_MEANING } from "@/lib/words/outcomes";
import { useShadowHistory } from "@/lib/client/hooks";

const COLORS: Record<OutcomeName, string> = {
  discovery_miss: "#ff6b5e",
  queued_only: "#8b98a5",
  running: "#4fc274",
  placement_gap: "#e0a53a",
  phantom_task: "#a98bff",
};

export function ShadowTrend() {
  const history = useShadowHistory();
  return (
    <section className="panel" aria-label="shadow trend" data-testid="shadow-trend">
      <h2>Trend</h2>
      <QueryState query={history} what="shadow history">
        {(h) =>
          h.samples.length === 0 ? (
            <Empty>No samples recorded yet.</Empty>
          ) : (
            <>
              <div
                className="chart"
                role="img"
                aria-label={`Outcome counts over time, ${formatCount(h.samples.length)} samples from ${formatTime(h.samples[0].at_ms)} to ${formatTime(h.samples[h.samples.length - 1].at_ms)}; the same data is in the table below.`}
              >
                <ResponsiveContainer width="100%" height="100%">
                  <LineChart
                    data={h.samples.map((s) => ({ at_ms: s.at_ms, revision: s.revision, ...s.outcomes }))}
                    margin={{ top: 8, right: 16, bottom: 4, left: 0 }}
                  >
                    <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
                    <XAxis
                      dataKey="at_ms"
                      type="number"
                      domain={["dataMin", "dataMax"]}
                      tickFormatter={(ms) => formatTime(ms).slice(11, 19)}
                      tick={{ fontSize: 11, fill: "var(--muted)" }}
                    />
                    <YAxis allowDecimals={false} tick={{ fontSize: 11, fill: "var(--muted)" }} />
                    <Tooltip
                      contentStyle={{ background: "var(--panel)", border: "1px solid var(--border)" }}
                      labelFormatter={(ms) => formatTime(Number(ms))}
                    />
                    <Legend />
                    {OUTCOMES.map((o) => (
                      <Line
                        key={o}
                        type="monotone"
                        dataKey={o}
                        name={OUTCOME_MEANING[o].label}
                        stroke={COLORS[o]}
                        dot={false}
                        isAnimationActive={false}
                      />
                    ))}
                  </LineChart>
                </ResponsiveContainer>
              </div>
              <TrendTable samples={h.samples} />
            </>
          )
        }
      </QueryState>
    </section>
  );
}

/** The newest samples shown in the table (the chart has them all). */
const TABLE_ROWS = 30;

/** The chart's text alternative: its data as a table, newest first. */
function TrendTable({ samples }: { samples: ShadowSample[] }) {
  const rows = samples.slice(-TABLE_ROWS).reverse();
  return (
    <details data-testid="shadow-trend-table">
      <summary>
        The trend as a table (
        {rows.length < samples.length
          ? `newest ${formatCount(rows.length)} of ${formatCount(samples.length)}`
          : `${formatCount(rows.length)}`}{" "}
        sample{samples.length === 1 ? "" : "s"})
      </summary>
      <table className="data">
        <caption className="sr-only">Shadow outcome counts per sample, newest first</caption>
        <thead>
          <tr>
            <th>at</th>
            <th className="num">revision</th>
            {OUTCOMES.map((o) => (
              <th key={o} className="num">
                {OUTCOME_MEANING[o].label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((s) => (
            <tr key={`${s.at_ms}-${s.revision}`}>
              <td className="nowrap">{formatTime(s.at_ms)}</td>
              <td className="num">{formatCount(s.revision)}</td>
              {OUTCOMES.map((o) => (
                <td key={o} className="num">
                  {formatCount(s.outcomes[o])}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
