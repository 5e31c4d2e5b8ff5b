"use client";
// Pending generations and wait of one table over recent revisions (Recharts).
import { useQuery } from "@tanstack/react-query";
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatCount } from "@/components/ui/format";
import { QueryState } from "@/components/ui/query-state";
import { fetchTableHistory, tableHistoryKeys } from "@/lib/client/resources/table-history";
import { usePinnedRevision } from "@/lib/client/revision";

/** `floor`: a revision the table surely existed at (its least recently written shard). */
export function HistoryChart({ target, revision, floor, nowMs }: { target: string; revision: number; floor: number; nowMs: number }) {
  // Up to 16 reads at past revisions per refresh: live pages refresh it every minute.
  const pinned = usePinnedRevision();
  const history = useQuery({
    queryKey: tableHistoryKeys.history(target, pinned === null ? null : revision),
    queryFn: ({ signal }) => fetchTableHistory(target, revision, floor, nowMs, signal),
    staleTime: pinned === null ? 55_000 : Infinity,
    refetchInterval: pinned === null ? 60_000 : false,
    placeholderData: (previous) => previous,
  });
  return (
    <section className="panel" aria-label="history" data-testid="history-chart">
      <h2>History over recent revisions</h2>
      <QueryState query={history} what="history">
        {(h) => (
          <>
            <div className="chart">
              <ResponsiveContainer width="100%" height="100%">
                <LineChart data={h.points.map((p) => ({ ...p, wait_min: p.wait_ms === null ? null : +(p.wait_ms / 60000).toFixed(1) }))} margin={{ top: 8, right: 16, bottom: 4, left: 0 }}>
                  <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
                  <XAxis dataKey="revision" type="number" allowDecimals={false} domain={["dataMin", "dataMax"]} tick={{ fontSize: 11, fill: "var(--muted)" }} />
                  <YAxis yAxisId="gens" tick={{ fontSize: 11, fill: "var(--muted)" }} allowDecimals={false} />
                  <YAxis yAxisId="wait" orientation="right" tick={{ fontSize: 11, fill: "var(--muted)" }} unit="m" />
                  <Tooltip contentStyle={{ background: "var(--panel)", border: "1px solid var(--border)" }} labelFormatter={(r) => `revision ${r}`} />
                  <Legend />
                  <Line yAxisId="gens" type="stepAfter" dataKey="pending_generations" name="pending generations" stroke="#6cb6ff" dot={false} isAnimationActive={false} />
                  <Line yAxisId="wait" type="stepAfter" dataKey="wait_min" name="wait (min)" stroke="#e0a53a" dot={false} isAnimationActive={false} connectNulls={false} />
                </LineChart>
              </ResponsiveContainer>
            </div>
            <p className="muted">
              {h.points.length} revisions read
              {h.points.length > 0 ? ` (${formatCount(h.points[0].revision)}–${formatCount(h.points[h.points.length - 1].revision)})` : ""}
              {h.stoppedBy === "compacted" ? `; older revisions are compacted (oldest readable ${h.compactRevision ?? "?"})` : ""}
              {h.stoppedBy === "absent" ? "; before that the table had no demand" : ""}. Wait is measured on one clock (this read&apos;s now).
            </p>
          </>
        )}
      </QueryState>
    </section>
  );
}
