// Per-shard watermarks with their age bounds (spec §2.2, §3.4) and the master's cache row.
import { AgeBoundMark } from "@/components/ui/badges";
import { formatBytes, formatCount, formatTime } from "@/components/ui/format";
import type { Mark, TableDetail } from "@/lib/client/api-types";

const mark = (m: Mark | null) => (m ? `${formatCount(m.value)} @e${m.epoch}` : "—");

export function ShardsPanel({ table: t }: { table: TableDetail }) {
  return (
    <section className="panel" aria-label="shards" style={{ gridColumn: "1 / -1", overflowX: "auto" }}>
      <h2>Shards ({t.shards.length})</h2>
      <table className="data">
        <thead>
          <tr>
            <th>shard</th><th className="num">sealed</th><th className="num">merged</th><th className="num">pending</th><th className="num">sealed bytes</th>
            <th>oldest pending</th><th className="num">times kept</th><th>source</th><th>flushed at</th><th className="num">mod rev</th>
          </tr>
        </thead>
        <tbody>
          {t.shards.map((s) => (
            <tr key={s.shard}>
              <td className="mono">{s.shard}</td>
              <td className="num mono">{mark(s.sealed)}</td>
              <td className="num mono">{mark(s.merged)}</td>
              <td className="num">{formatCount(s.pending)}</td>
              <td className="num">{formatBytes(s.sealed_bytes)}</td>
              <td>
                <AgeBoundMark bound={s.age_bound} />
                {formatTime(s.oldest_pending_ms)} {s.age_bound && <span className="muted">({s.age_bound})</span>}
              </td>
              <td className="num">{s.sealed_times_kept}{s.sealed_times_kept >= 64 ? <span className="muted"> (cap)</span> : null}</td>
              <td>{s.source ?? "—"}</td>
              <td>{formatTime(s.flushed_at_ms)}</td>
              <td className="num">{s.mod_revision ?? "—"}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h3 style={{ marginTop: 8 }}>Master&apos;s cache row</h3>
      {t.cache ? (
        <p data-testid="cache-agreement">
          {t.cache.agrees_with_fold ? <span className="tag tag-ok">agrees with the fold</span> : <span className="tag tag-bad">differs from the fold</span>} observed revision{" "}
          {formatCount(t.cache.observed_revision)}, updated {formatTime(t.cache.updated_ms)}
        </p>
      ) : (
        <p className="muted" data-testid="cache-agreement">No cache row (the master has not written one for this table yet).</p>
      )}
    </section>
  );
}
