"use client";
// One row of the virtualized grid (its target is a link, so every table is deep-linkable)
// and the sortable column header. ARIA grid: rows carry aria-rowindex (the header is row 1)
// because only a window of them is in the DOM.
import { memo } from "react";
import { AgeBoundMark, BacklogBadge, ClassBadge, VerdictText, WaitText } from "@/components/ui/badges";
import { formatBytes, formatCount, formatDuration, formatScore, formatTime } from "@/components/ui/format";
import { positionText } from "@/lib/words/place-in-line";
import { TABLE_COLUMNS } from "@/lib/words/columns";
import { WORLD_WORDS } from "@/lib/words/forecasts";
import { holderKey, holderLabel } from "@/lib/words/write-turn";
import type { TableSummary } from "@/lib/client/api-types";
import type { ListView, SortColumn } from "./list-view";

/** numeric columns sort largest first on the first click, unless `ascFirst` (a rank: 1 first); words: lib/words/columns.ts */
const COLUMNS: { column: SortColumn & keyof typeof TABLE_COLUMNS; numeric?: boolean; ascFirst?: boolean }[] = [
  { column: "target" },
  { column: "class" },
  { column: "position", numeric: true, ascFirst: true },
  { column: "score", numeric: true },
  { column: "pending", numeric: true },
  { column: "bytes", numeric: true },
  { column: "oldest" },
  { column: "wait", numeric: true },
  { column: "backlog" },
  { column: "verdict" },
];

export const COLUMN_COUNT = COLUMNS.length;

export function ListHeader({ view, onChange }: { view: ListView; onChange: (v: ListView) => void }) {
  return (
    <div className="vlist-head" role="row" aria-rowindex={1}>
      {COLUMNS.map(({ column, numeric, ascFirst }) => {
        const { label } = TABLE_COLUMNS[column];
        const title = "title" in TABLE_COLUMNS[column] ? TABLE_COLUMNS[column].title : undefined;
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
  height,
  selected,
  href,
  onOpen,
}: {
  table: TableSummary;
  index: number;
  top: number;
  height: number;
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
      style={{ transform: `translateY(${top}px)`, height }}
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
        {t.position ? (
          <>
            {formatCount(t.position.rank)} <span className="muted kind-mark">· {t.position.kind}</span>
          </>
        ) : (
          "—"
        )}
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
      <span role="gridcell" data-holder={t.write_turn_holder ? holderKey(t.write_turn_holder) : "none"}>
        <VerdictText verdict={t.verdict} />
        {t.write_turn_holder && t.verdict.state === "would_place" && (
          <span className="muted" title={`write turn held by ${holderLabel(t.write_turn_holder)}`}>
            {" "}
            · write turn held
          </span>
        )}
      </span>
    </div>
  );
});
