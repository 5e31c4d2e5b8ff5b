"use client";
// A short list of tables (planner order or longest waits) linking to their detail: target
// (wrapping only after a "/"), class, pending, wait, backlog and verdict; the score is /tables'.
import Link from "next/link";
import { BacklogBadge, ClassBadge, VerdictText, WaitText } from "@/components/ui/badges";
import { formatCount } from "@/components/ui/format";
import { Empty } from "@/components/ui/query-state";
import type { TableSummary } from "@/lib/client/api-types";
import { tableHref } from "@/lib/client/links";
import { usePinnedRevision } from "@/lib/client/revision";
import { WriteTurnHolder } from "@/components/tables/write-turn-holder";
import { TABLE_COLUMNS } from "@/lib/words/columns";

/** A target that may wrap only after its "/"s (never inside a name part: "incident/broken" + "-store"). */
function breakAfterSlashes(target: string) {
  const parts = target.split("/");
  return parts.map((part, i) => (
    <span key={i}>
      <span className="nowrap">
        {part}
        {i < parts.length - 1 ? "/" : ""}
      </span>
      {i < parts.length - 1 && <wbr />}
    </span>
  ));
}

export function TopTables({
  tables,
  nowMs,
  empty = "No table has pending work.",
}: {
  tables: TableSummary[];
  /** the answer's clock: a holder's bind deadline counts from it */
  nowMs: number;
  empty?: string;
}) {
  const revision = usePinnedRevision();
  if (tables.length === 0) return <Empty>{empty}</Empty>;
  return (
    <div className="table-scroll">
      <table className="data">
        <thead>
          <tr>
            <th>{TABLE_COLUMNS.target.label}</th>
            <th>{TABLE_COLUMNS.class.label}</th>
            <th className="num">{TABLE_COLUMNS.pending.label}</th>
            <th className="num">{TABLE_COLUMNS.wait.label}</th>
            <th>{TABLE_COLUMNS.backlog.label}</th>
            <th>{TABLE_COLUMNS.verdict.label}</th>
          </tr>
        </thead>
        <tbody>
          {tables.map((t) => (
            <tr key={t.target}>
              <td className="target target-whole">
                <Link href={tableHref(t.target, revision)}>{breakAfterSlashes(t.target)}</Link>
              </td>
              <td>
                <ClassBadge name={t.class} />
              </td>
              <td className="num">{formatCount(t.pending_generations)}</td>
              <td className="num">
                <WaitText waitMs={t.wait_ms} bound={t.age_bound} />
              </td>
              <td>
                <BacklogBadge name={t.backlog_class} />
              </td>
              <td>
                <VerdictText verdict={t.verdict} />
                {/* a write_turn_* verdict already says the turn is held: its holder is named for screen readers and crawlers */}
                {t.verdict.state === "would_skip" && t.write_turn_holder && (
                  <div className={t.verdict.code.startsWith("write_turn") ? "sr-only" : "muted small holder-note"}>
                    <WriteTurnHolder holder={t.write_turn_holder} nowMs={nowMs} short />
                  </div>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
