// Plain text for a terminal: columns (each as wide as its widest cell, numbers right-
// aligned), counted nouns and capped lists.
import { countOf, formatCount } from "../words/format";

export { countOf };

export interface Column<R> {
  title: string;
  cell: (row: R) => string;
  align?: "left" | "right";
}

export function columns<R>(rows: readonly R[], cols: readonly Column<R>[]): string {
  const cells = rows.map((r) => cols.map((c) => c.cell(r)));
  const widths = cols.map((c, i) => Math.max(c.title.length, ...cells.map((row) => row[i].length)));
  const line = (values: string[]) =>
    values
      .map((v, i) =>
        cols[i].align === "right" ? v.padStart(widths[i]) : i === values.length - 1 ? v : v.padEnd(widths[i]),
      )
      .join("  ")
      .trimEnd();
  return [line(cols.map((c) => c.title)), ...cells.map(line)].join("\n");
}

/** At most `max` items, then how many more (the JSON answer has them all). */
export function listOf(items: readonly string[], max = 20): string {
  if (items.length === 0) return "none";
  const shown = items.slice(0, max).join(", ");
  return items.length > max ? `${shown} ${moreOf(items.length, max)}` : shown;
}

/** What a capped list leaves out: "… and 12 more (--json lists all)". */
export function moreOf(total: number, max: number): string {
  return `… and ${formatCount(total - max)} more (--json lists all)`;
}
