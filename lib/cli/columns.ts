// Plain-text columns for a terminal: a header and rows, each column as wide as its widest
// cell, numbers right-aligned.

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
      .map((v, i) => (cols[i].align === "right" ? v.padStart(widths[i]) : i === values.length - 1 ? v : v.padEnd(widths[i])))
      .join("  ")
      .trimEnd();
  return [line(cols.map((c) => c.title)), ...cells.map(line)].join("\n");
}
