"use client";
// The five outcomes over time, from the durable history (console-api.md shadow/history).
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatTime } from "@/components/ui/format";
import { Empty, QueryState } from "@/components/ui/query-state";
import { OUTCOMES } from "@/lib/client/api-types";
import { useShadowHistory } from "@/lib/client/hooks";

const COLORS: Record<string, string> = {
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
            <div className="chart">
              <ResponsiveContainer width="100%" height="100%">
                <LineChart data={h.samples.map((s) => ({ at_ms: s.at_ms, revision: s.revision, ...s.outcomes }))} margin={{ top: 8, right: 16, bottom: 4, left: 0 }}>
                  <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
                  <XAxis dataKey="at_ms" type="number" domain={["dataMin", "dataMax"]} tickFormatter={(ms) => formatTime(ms).slice(11, 19)} tick={{ fontSize: 11, fill: "var(--muted)" }} />
                  <YAxis allowDecimals={false} tick={{ fontSize: 11, fill: "var(--muted)" }} />
                  <Tooltip contentStyle={{ background: "var(--panel)", border: "1px solid var(--border)" }} labelFormatter={(ms) => formatTime(Number(ms))} />
                  <Legend />
                  {OUTCOMES.map((o) => (
                    <Line key={o} type="monotone" dataKey={o} stroke={COLORS[o]} dot={false} isAnimationActive={false} />
                  ))}
                </LineChart>
              </ResponsiveContainer>
            </div>
          )
        }
      </QueryState>
    </section>
  );
}
