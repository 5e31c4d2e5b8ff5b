"use client";
// `/skipped`: records the read skipped (never fatal), with key and reason.
import { PageTitle } from "@/components/ui/page-title";
import { Empty, QueryState } from "@/components/ui/query-state";
import { useSkipped } from "@/lib/client/hooks";

export function SkippedView() {
  const skipped = useSkipped();
  return (
    <QueryState query={skipped} what="skipped records">
      {(d) => (
        <>
          <PageTitle title="Skipped records" revision={d.revision}>
            <span className="muted">{d.skipped.length} records could not be read and were skipped (bad_key, bad_json, schema, unknown_version, too_large)</span>
          </PageTitle>
          {d.skipped.length === 0 ? (
            <Empty>Every record parsed.</Empty>
          ) : (
            <table className="data panel" data-testid="skipped-list">
              <thead>
                <tr><th>key</th><th>family</th><th>reason</th><th>detail</th></tr>
              </thead>
              <tbody>
                {d.skipped.map((s, i) => (
                  <tr key={`${s.key}-${i}`}>
                    <td className="mono" style={{ overflowWrap: "anywhere" }}>{s.key}</td>
                    <td>{s.family}</td>
                    <td><code>{s.reason}</code></td>
                    <td className="mono" style={{ overflowWrap: "anywhere" }}>{s.detail ?? "—"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
    </QueryState>
  );
}
