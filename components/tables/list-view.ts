// The /tables view state (filters + sort) as it lives in the URL, and applying it to the
// rows the API returned. Display only: the planner's order is the API's order
// (`sort=planner`), never recomputed here, and every other order is the API's own
// (lib/words/table-order.ts).
import {
  BACKLOG_CLASSES,
  CLASS_NAMES,
  type BacklogClass,
  type ClassName,
  type TableSummary,
} from "@/lib/client/api-types";
import {
  sortTables,
  tableNeedle,
  TABLE_SORTS,
  targetHas,
  type SortDirection,
  type TableSort,
} from "@/lib/words/table-order";

const SORT_COLUMNS = TABLE_SORTS;
export type SortColumn = TableSort;
type SortOrder = SortDirection;

export interface ListView {
  classes: ClassName[];
  backlogs: BacklogClass[];
  q: string;
  sort: SortColumn;
  order: SortOrder;
}

export function parseListView(params: URLSearchParams): ListView {
  const sort = params.get("sort") as SortColumn | null;
  return {
    classes: params.getAll("class").filter((c): c is ClassName => (CLASS_NAMES as readonly string[]).includes(c)),
    backlogs: params
      .getAll("backlog")
      .filter((b): b is BacklogClass => (BACKLOG_CLASSES as readonly string[]).includes(b)),
    q: params.get("q") ?? "",
    sort: sort && SORT_COLUMNS.includes(sort) ? sort : "planner",
    order: params.get("order") === "desc" ? "desc" : "asc",
  };
}

/** Serialise the view, keeping unrelated params (the pinned revision). */
export function listViewParams(view: ListView, base: URLSearchParams): URLSearchParams {
  const next = new URLSearchParams(base.toString());
  for (const name of ["class", "backlog", "q", "sort", "order"]) next.delete(name);
  view.classes.forEach((c) => next.append("class", c));
  view.backlogs.forEach((b) => next.append("backlog", b));
  if (view.q) next.set("q", view.q);
  if (view.sort !== "planner") {
    next.set("sort", view.sort);
    next.set("order", view.order);
  }
  return next;
}

/** Filter, then sort as the API does (lib/words/table-order.ts): ties keep planner order. */
export function applyListView(tables: TableSummary[], view: ListView): TableSummary[] {
  const needle = tableNeedle(view.q);
  // the default view is the listing as held (read-only here): no copy of 13,405 rows on every pushed change
  const everyRow = view.classes.length === 0 && view.backlogs.length === 0 && needle === "";
  if (everyRow && view.sort === "planner" && view.order === "asc") return tables;
  const rows = tables.filter(
    (t) =>
      (view.classes.length === 0 || view.classes.includes(t.class)) &&
      (view.backlogs.length === 0 || view.backlogs.includes(t.backlog_class)) &&
      targetHas(t.target, needle),
  );
  return sortTables(rows, view.sort, view.order);
}
