"use client";
// One row of the virtualized grid (its target is a link, so every table is deep-linkable)
// and the sortable column header. ARIA grid: rows carry aria-rowindex (the header is row 1)
// because only a window of them is in the DOM.
import { memo } from "react";
import { AgeBoundMark, BacklogBadge, ClassBadge, VerdictText, WaitText } from "@/components/ui/badges";
import { formatBytes, formatCount, formatDuration, formatScore, formatTime } from "@/components/ui/format";
import { positionText } from "./place-in-line-words";
import { WORLD_WORDS } from "@/lib/words/forecasts";
import type { TableSummary } from "@/lib/client/api-types";
import type { ListView, SortColumn } from "./list-view";

/** numeric columns sort largest first on the first click, unless `ascFirst` (a rank: 1 first) */
const COLUMNS: { column: SortColumn; label: string; numeric?: boolean; ascFirst?: boolean; title?: string }[] = [
  { column: "target", label: "target" },
  { column: "class", label: "class" },
  {
    column: "position",
    label: "in line",
    numeric: true,
    ascFirst: true,
    title:
      "place in the planner's line among the tables waiting for the same kind of turn (if the planner ran them; a table's page gives the legacy queue's place too)",
  },
  { column: "score", label: "score", numeric: true },
  { column: "pending", label: "pending", numeric: true },
  {
    column: "bytes",
    label: "to merge",
    numeric: true,
    title: "bytes to merge: bytes through sealed on the shards with pending work",
  },
  { column: "oldest", label: "oldest pending" },
  { column: "wait", label: "wait", numeric: true },
  { column: "backlog", label: "backlog" },
  { column: "verdict", label: "verdict" },
];

export const COLUMN_COUNT = COLUMNS.length;

export function ListHeader({ view, onChange }: { view: ListView; onChange: (v: ListView) => void }) {
  return (
    <div className="vlist-head" role="row" aria-rowindex={1}>
      {COLUMNS.map(({ column, label, numeric, ascFirst, title }) => {
        const first = numeric && !ascFirst ? "desc" : "asc";
        const active = view.sort === column;
        const arrow = active ? (view.order === "asc" ? " ▲" : " ▼") : "";
        return (
          <div
            key={column}
            className={numeric ? "num" : undefined}
            role="columnheader"
            aria-sort={active ? (view.order === "asc" ? "ascending" : "descending") : "none"}
          >
            <button
              type="button"
              data-testid={`sort-${column}`}
              title={`${title ? `${title}. ` : ""}${active && view.order !== first ? "Click: back to planner order" : `Click: sort by ${label}`}`}
              onClick={() => {
                // first order → the other → planner order (the API's order, spec §4.1)
                if (!active) onChange({ ...view, sort: column, order: first });
                else if (view.order === first) onChange({ ...view, order: first === "asc" ? "desc" : "asc" });
                else onChange({ ...view, sort: "planner", order: "asc" });
              }}
            >
              {label}
              {arrow}
            </button>
          </div>
        );
      })}
    </div>
  );
}

/**
 * A row of the grid. Its target cell holds a plain anchor rather than next/link: thousands
 * of rows mount and unmount while scrolling, and a bare <a> is the cheapest link; `onOpen`
 * does the client navigation. A click anywhere on the row opens it.
 */
export const TableRow = memo(function TableRow({
  table: t,
  index,
  top,
  selected,
  href,
  onOpen,
}: {
  table: TableSummary;
  index: number;
  top: number;
  selected: boolean;
  href: string;
  onOpen: (href: string) => void;
}) {
  const open = (e: React.MouseEvent) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    onOpen(href);
  };
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      aria-selected={selected}
      onClick={open}
      className={`vlist-row${selected ? " selected" : ""}`}
      style={{ transform: `translateY(${top}px)` }}
      data-testid="table-row"
      data-index={index}
      data-target={t.target}
    >
      <span role="gridcell" className="target" title={t.target}>
        <a href={href} onClick={open} tabIndex={selected ? 0 : -1} aria-current={selected ? "true" : undefined}>
          {t.target}
        </a>
      </span>
      <span role="gridcell">
        <ClassBadge name={t.class} />
      </span>
      <span
        role="gridcell"
        className="num"
        title={
          t.position
            ? `${positionText(t.position)} in the planner's ${t.position.kind} line (${WORLD_WORDS.planner.other})`
            : "not in the planner's line"
        }
      >
        {t.position ? formatCount(t.position.rank) : "—"}
      </span>
      <span role="gridcell" className="num">
        {formatScore(t.score)}
      </span>
      <span role="gridcell" className="num">
        {formatCount(t.pending_generations)}
      </span>
      <span role="gridcell" className="num">
        {t.pending_generations > 0 ? formatBytes(t.pending_bytes) : "—"}
      </span>
      <span role="gridcell">
        <AgeBoundMark bound={t.age_bound} />
        {t.oldest_pending_ms === null ? "—" : formatTime(t.oldest_pending_ms).slice(5)}
      </span>
      <span role="gridcell" className="num">
        {t.clock_skew_ms !== null && (
          <abbr
            className="upper-bound"
            title={`clock skew: a record of this table is stamped ${formatDuration(t.clock_skew_ms)} in the future`}
            data-testid="clock-skew-mark"
          >
            ⚠
          </abbr>
        )}
        <WaitText waitMs={t.wait_ms} bound={t.age_bound} />
      </span>
      <span role="gridcell">
        <BacklogBadge name={t.backlog_class} />
      </span>
      <span role="gridcell">
        <VerdictText verdict={t.verdict} />
        {t.execution && !(t.verdict.state === "would_skip" && t.verdict.code.startsWith("write_turn")) && (
          <span className="muted"> · merge {t.execution.progress === "stalled" ? "stalled" : "running"}</span>
        )}
      </span>
    </div>
  );
});
