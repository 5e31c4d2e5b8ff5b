// Per-shard watermarks with their age bounds (spec §2.2, §3.4) and the master's cache row.
import { AgeBoundMark } from "@/components/ui/badges";
import { formatBytes, formatCount, formatTime } from "@/components/ui/format";
import type { Mark, TableDetail } from "@/lib/client/api-types";

/** A watermark: generation number, and the writer epoch it was reported under (spec §2.2). */
function MarkText({ m }: { m: Mark | null }) {
  if (!m) return <>—</>;
  return (
    <span title={`generation ${formatCount(m.value)}, reported by the writer in fence epoch ${formatCount(m.epoch)}`}>
      {formatCount(m.value)} <span className="muted">(epoch {formatCount(m.epoch)})</span>
    </span>
  );
}

export function ShardsPanel({ table: t }: { table: TableDetail }) {
  return (
    <section className="panel" aria-label="shards" style={{ gridColumn: "1 / -1", overflowX: "auto" }}>
      <h2>Shards ({formatCount(t.shards.length)})</h2>
      <p className="muted" style={{ margin: "0 0 6px" }} data-testid="epoch-note">
        Sealed and merged are generation numbers. The epoch beside each is the writer&apos;s fence epoch when it
        reported the mark; it only breaks ties (numbering carries on across epochs, so a merge reported under epoch 1
        still counts against sealed under epoch 2).
      </p>
      <table className="data">
        <thead>
          <tr>
            <th>shard</th>
            <th className="num">sealed through</th>
            <th className="num">merged through</th>
            <th className="num">pending</th>
            <th className="num">bytes through sealed</th>
            <th>oldest pending</th>
            <th className="num">flush times kept</th>
            <th>source</th>
            <th>flushed at</th>
            <th className="num">written at revision</th>
          </tr>
        </thead>
        <tbody>
          {t.shards.map((s) => (
            <tr key={s.shard}>
              <td className="mono">{s.shard}</td>
              <td className="num">
                <MarkText m={s.sealed} />
              </td>
              <td className="num">
                <MarkText m={s.merged} />
              </td>
              <td className="num">{formatCount(s.pending)}</td>
              <td className="num">{formatBytes(s.sealed_bytes)}</td>
              <td>
                <AgeBoundMark bound={s.age_bound} />
                {formatTime(s.oldest_pending_ms)}{" "}
                {s.age_bound === "upper" && <span className="muted">(or earlier)</span>}
              </td>
              <td className="num">
                {formatCount(s.sealed_times_kept)}
                {s.sealed_times_kept >= 64 ? <span className="muted"> (cap)</span> : null}
              </td>
              <td>{s.source ?? "—"}</td>
              <td>{formatTime(s.flushed_at_ms)}</td>
              <td className="num">{formatCount(s.mod_revision)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h3 style={{ marginTop: 8 }}>Master&apos;s cache row</h3>
      {t.cache ? (
        <p data-testid="cache-agreement">
          {t.cache.agrees_with_fold ? (
            <span className="tag tag-ok">agrees with the fold</span>
          ) : (
            <span className="tag tag-bad">differs from the fold</span>
          )}{" "}
          observed revision {formatCount(t.cache.observed_revision)}, updated {formatTime(t.cache.updated_ms)}
        </p>
      ) : (
        <p className="muted" data-testid="cache-agreement">
          No cache row (the master has not written one for this table yet).
        </p>
      )}
    </section>
  );
}
