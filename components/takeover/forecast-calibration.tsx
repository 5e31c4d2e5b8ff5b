"use client";
// The score in the open (console-api.md "Forecasts, per world, that say how often they come
// true"): how each world's forecasts made in the window came out — within, early or late,
// still open, withdrawn, lost — their coverage at the stated level, median width and error,
// and a reliability chart: for each stated level, the share of outcomes the conformal rule's
// interval at that level held (on the diagonal: it says what it means).
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatCount, formatDuration } from "@/components/ui/format";
import { QueryState } from "@/components/ui/query-state";
import { useForecastCalibration } from "@/lib/client/takeover-hooks";
import { FORECAST_FATES, FORECAST_WORLDS, RELIABILITY_LEVELS } from "@/lib/schema/forecast-codes";
import { FATE_WORDS, shareWords, WORLD_WORDS } from "@/lib/words/forecasts";

const COLORS = { legacy: "#e0a53a", planner: "#4f8fd6" } as const;
const ms = (n: number | null) => (n === null ? "—" : formatDuration(n));

export function ForecastCalibration({ windowMs }: { windowMs: number }) {
  const query = useForecastCalibration(windowMs);
  return (
    <section
      className="panel"
      aria-label="forecast calibration"
      data-testid="forecast-calibration"
      style={{ marginTop: 12 }}
    >
      <h2>Forecasts that come true</h2>
      <QueryState query={query} what="forecast calibration">
        {(r) => {
          const points = RELIABILITY_LEVELS.map((level, i) => ({
            level,
            stated: level,
            ...Object.fromEntries(FORECAST_WORLDS.map((w) => [w, r.worlds[w].reliability[i]?.coverage ?? null])),
          }));
          return (
            <>
              <p className="muted">
                The ETA intervals every table page states, sampled once a minute per table and checked against what
                happened: a legacy turn is its queued task starting; a planner turn is the planner placing the table
                (for a table in planner mode, its own placement; else the console&apos;s plan first placing it). An{" "}
                {Math.round(r.level * 100)} % interval should hold about {Math.round(r.level * 100)} % of the outcomes.
                Each world is scored on the forecasts made while it acted on the table; its what-ifs (&ldquo;if the
                planner ran this table&rdquo;) are counted apart below the table.
              </p>
              <table className="data" data-testid="forecast-scores">
                <thead>
                  <tr>
                    <th>world</th>
                    <th className="num">made</th>
                    <th className="num">resolved</th>
                    <th className="num">within · early · late</th>
                    <th className="num">open · withdrawn · lost</th>
                    <th className="num">coverage at {Math.round(r.level * 100)} %</th>
                    <th className="num">median width</th>
                    <th className="num">median error</th>
                    <th className="num">median wait</th>
                  </tr>
                </thead>
                <tbody>
                  {FORECAST_WORLDS.map((w) => {
                    const s = r.worlds[w];
                    return (
                      <tr key={w} data-testid={`forecast-score-${w}`}>
                        <td>{WORLD_WORDS[w].name}</td>
                        <td className="num">{formatCount(s.made)}</td>
                        <td className="num">{formatCount(s.resolved)}</td>
                        <td className="num">
                          {formatCount(s.within)} · {formatCount(s.early)} · {formatCount(s.late)}
                        </td>
                        <td className="num">
                          {formatCount(s.open)} · {formatCount(s.withdrawn)} · {formatCount(s.lost)}
                        </td>
                        <td className="num" data-testid={`coverage-${w}`}>
                          {shareWords(s.coverage)}
                        </td>
                        <td className="num">{ms(s.median_width_ms)}</td>
                        <td className="num">{ms(s.median_error_ms)}</td>
                        <td className="num">{ms(s.median_wait_ms)}</td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
              <p className="muted" data-testid="forecast-what-ifs">
                What-ifs, counted apart:{" "}
                {FORECAST_WORLDS.map((w) => {
                  const x = r.worlds[w].what_if;
                  return `${WORLD_WORDS[w].name} ${formatCount(x.made)} made, ${formatCount(x.resolved)} resolved (coverage ${shareWords(x.coverage)}), ${formatCount(x.withdrawn)} withdrawn`;
                }).join("; ")}
                .
              </p>
              <div
                className="chart"
                role="img"
                aria-label={`Reliability: stated level against observed coverage for each world (${FORECAST_WORLDS.map((w) => `${WORLD_WORDS[w].name}: ${r.worlds[w].reliability.map((p) => `${Math.round(p.level * 100)} % → ${shareWords(p.coverage)}`).join(", ")}`).join("; ")})`}
                data-testid="reliability-chart"
              >
                <ResponsiveContainer width="100%" height="100%">
                  <LineChart data={points} margin={{ top: 8, right: 16, bottom: 4, left: 0 }}>
                    <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
                    <XAxis
                      dataKey="level"
                      type="number"
                      domain={[0.4, 1]}
                      tickFormatter={(v) => `${Math.round(Number(v) * 100)} %`}
                      tick={{ fontSize: 11, fill: "var(--muted)" }}
                    />
                    <YAxis
                      domain={[0, 1]}
                      tickFormatter={(v) => `${Math.round(Number(v) * 100)} %`}
                      tick={{ fontSize: 11, fill: "var(--muted)" }}
                    />
                    <Tooltip
                      contentStyle={{ background: "var(--panel)", border: "1px solid var(--border)" }}
                      labelFormatter={(v) => `stated ${Math.round(Number(v) * 100)} %`}
                      formatter={(v) => shareWords(typeof v === "number" ? v : null)}
                    />
                    <Legend />
                    <Line
                      dataKey="stated"
                      name="stated = observed"
                      stroke="var(--muted)"
                      strokeDasharray="4 4"
                      dot={false}
                      isAnimationActive={false}
                    />
                    {FORECAST_WORLDS.map((w) => (
                      <Line
                        key={w}
                        dataKey={w}
                        name={WORLD_WORDS[w].name}
                        stroke={COLORS[w]}
                        connectNulls
                        isAnimationActive={false}
                      />
                    ))}
                  </LineChart>
                </ResponsiveContainer>
              </div>
              <ul className="muted" data-testid="forecast-fates">
                {FORECAST_FATES.map((f) => (
                  <li key={f}>
                    <strong>{f}</strong>: {FATE_WORDS[f]}
                  </li>
                ))}
              </ul>
              <p className="muted">
                Each point is the conformal rule at that stated level, applied to the forecasts calibrated when made; a
                world on the dashed line says what it means. Uncalibrated forecasts (fewer than the resolved ones a
                world and kind needs) count in the coverage above, not in the chart.
              </p>
            </>
          );
        }}
      </QueryState>
    </section>
  );
}
