"use client";
// A short list of tables (planner order or longest waits) linking to their detail.
import Link from "next/link";
import { BacklogBadge, ClassBadge, VerdictText, WaitText } from "@/components/ui/badges";
import { formatCount, formatScore } from "@/components/ui/format";
import { Empty } from "@/components/ui/query-state";
import type { TableSummary } from "@/lib/client/api-types";
import { tableHref } from "@/lib/client/links";
import { usePinnedRevision } from "@/lib/client/revision";

export function TopTables({
  tables,
  empty = "No table has pending work.",
}: {
  tables: TableSummary[];
  empty?: string;
}) {
  const revision = usePinnedRevision();
  if (tables.length === 0) return <Empty>{empty}</Empty>;
  return (
    <table className="data">
      <thead>
        <tr>
          <th>target</th>
          <th>class</th>
          <th className="num">score</th>
          <th className="num">pending</th>
          <th className="num">wait</th>
          <th>backlog</th>
          <th>verdict</th>
        </tr>
      </thead>
      <tbody>
        {tables.map((t) => (
          <tr key={t.target}>
            <td className="target">
              <Link href={tableHref(t.target, revision)}>{t.target}</Link>
            </td>
            <td>
              <ClassBadge name={t.class} />
            </td>
            <td className="num">{formatScore(t.score)}</td>
            <td className="num">{formatCount(t.pending_generations)}</td>
            <td className="num">
              <WaitText waitMs={t.wait_ms} bound={t.age_bound} />
            </td>
            <td>
              <BacklogBadge name={t.backlog_class} />
            </td>
            <td>
              <VerdictText verdict={t.verdict} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
