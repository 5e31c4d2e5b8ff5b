"use client";
// One row of the virtualized list (a link, so every table is deep-linkable) and the
// sortable column header.
import { memo } from "react";
import { AgeBoundMark, BacklogBadge, ClassBadge, VerdictText } from "@/components/ui/badges";
import { formatBytes, formatCount, formatDuration, formatScore, formatTime } from "@/components/ui/format";
import type { TableSummary } from "@/lib/client/api-types";
import type { ListView, SortColumn } from "./list-view";

const COLUMNS: { column: SortColumn; label: string; numeric?: boolean }[] = [
  { column: "target", label: "target" },
  { column: "class", label: "class" },
  { column: "score", label: "score", numeric: true },
  { column: "pending", label: "pending", numeric: true },
  { column: "bytes", label: "bytes", numeric: true },
  { column: "oldest", label: "oldest pending" },
  { column: "wait", label: "wait", numeric: true },
  { column: "backlog", label: "backlog" },
  { column: "verdict", label: "verdict" },
];

export function ListHeader({ view, onChange }: { view: ListView; onChange: (v: ListView) => void }) {
  return (
    <div className="vlist-head" role="row">
      {COLUMNS.map(({ column, label, numeric }) => {
        const active = view.sort === column;
        const arrow = active ? (view.order === "asc" ? " ▲" : " ▼") : "";
        return (
          <div key={column} className={numeric ? "num" : undefined} role="columnheader" aria-sort={active ? (view.order === "asc" ? "ascending" : "descending") : "none"}>
            <button
              type="button"
              data-testid={`sort-${column}`}
              title={active && view.order === "desc" ? "back to planner order" : `sort by ${label}`}
              onClick={() => {
                // asc → desc → planner order (the API's order, spec §4.1)
                if (!active) onChange({ ...view, sort: column, order: numeric ? "desc" : "asc" });
                else if (view.order === (numeric ? "desc" : "asc")) onChange({ ...view, order: numeric ? "asc" : "desc" });
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
 * A plain anchor rather than next/link: thousands of rows mount and unmount while
 * scrolling, and a bare <a> is the cheapest link; `onOpen` does the client navigation.
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
  return (
    <a
      href={href}
      onClick={(e) => {
        if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
        e.preventDefault();
        onOpen(href);
      }}
      className={`vlist-row${selected ? " selected" : ""}`}
      style={{ transform: `translateY(${top}px)` }}
      data-testid="table-row"
      data-index={index}
      data-target={t.target}
      aria-current={selected ? "true" : undefined}
      role="listitem"
    >
      <span className="target" title={t.target}>{t.target}</span>
      <span><ClassBadge name={t.class} /></span>
      <span className="num">{formatScore(t.score)}</span>
      <span className="num">{formatCount(t.pending_generations)}</span>
      <span className="num">{t.pending_generations > 0 ? formatBytes(t.pending_bytes) : "—"}</span>
      <span>
        <AgeBoundMark bound={t.age_bound} />
        {t.oldest_pending_ms === null ? "—" : formatTime(t.oldest_pending_ms).slice(5)}
      </span>
      <span className="num">
        <AgeBoundMark bound={t.age_bound} of="wait" />
        {formatDuration(t.wait_ms)}
      </span>
      <span><BacklogBadge name={t.backlog_class} /></span>
      <span><VerdictText verdict={t.verdict} /></span>
    </a>
  );
});
