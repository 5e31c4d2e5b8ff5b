"use client";
// `/skipped`: records the read skipped (never fatal), with key, reason and, where the key
// names a table as hex(target) (spec §1), that table decoded and linked.
import Link from "next/link";
import { formatCount } from "@/components/ui/format";
import { PageTitle } from "@/components/ui/page-title";
import { Empty, QueryState } from "@/components/ui/query-state";
import { skipReasonInWords } from "@/lib/words/codes";
import { tableHref } from "@/lib/client/links";
import { useSkipped } from "@/lib/client/hooks";
import { usePinnedRevision } from "@/lib/client/revision";
import { tableOfSkippedKey } from "./skipped-key";

export function SkippedView() {
  const skipped = useSkipped();
  const revision = usePinnedRevision();
  return (
    <QueryState query={skipped} what="skipped records">
      {(d) => (
        <>
          <PageTitle title="Skipped records" revision={d.revision}>
            <span className="muted">
              {formatCount(d.skipped.length)} records could not be read and were skipped; the rest of the fleet is shown
              without them
            </span>
          </PageTitle>
          {d.skipped.length === 0 ? (
            <Empty>Every record parsed.</Empty>
          ) : (
            <table className="data panel" data-testid="skipped-list">
              <thead>
                <tr>
                  <th>table</th>
                  <th>family</th>
                  <th>why skipped</th>
                  <th>detail</th>
                  <th>key</th>
                </tr>
              </thead>
              <tbody>
                {d.skipped.map((s, i) => {
                  const target = tableOfSkippedKey(s.key, s.family);
                  return (
                    <tr key={`${s.key}-${i}`}>
                      <td className="target" data-testid="skipped-table">
                        {target !== null ? (
                          <Link href={tableHref(target, revision)}>{target}</Link>
                        ) : (
                          <span className="muted">key names no table it could decode</span>
                        )}
                      </td>
                      <td className="nowrap">{s.family}</td>
                      <td>
                        {skipReasonInWords(s.reason)} <code className="muted">{s.reason}</code>
                      </td>
                      <td className="mono" style={{ overflowWrap: "anywhere" }}>
                        {s.detail ?? "—"}
                      </td>
                      <td className="mono muted" style={{ overflowWrap: "anywhere" }}>
                        {s.key}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          )}
        </>
      )}
    </QueryState>
  );
}
