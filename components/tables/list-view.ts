// The /tables view state (filters + sort) as it lives in the URL, and applying it to the
// rows the API returned. Display only: the planner's order is the API's order
// (`sort=planner`), never recomputed here.
import { BACKLOG_CLASSES, CLASS_NAMES, type BacklogClass, type ClassName, type TableSummary } from "@/lib/client/api-types";

export const SORT_COLUMNS = ["planner", "target", "class", "position", "score", "pending", "bytes", "oldest", "wait", "backlog", "verdict"] as const;
export type SortColumn = (typeof SORT_COLUMNS)[number];
export type SortOrder = "asc" | "desc";

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
    classes: params.getAll("class").filter((c): c is ClassName => (CLASS_NAMES as string[]).includes(c)),
    backlogs: params.getAll("backlog").filter((b): b is BacklogClass => (BACKLOG_CLASSES as string[]).includes(b)),
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

/**
 * A pruned flush time (age_bound "upper", spec §3.4) makes the wait a lower bound: the table
 * waited at least that long, possibly far longer (pruning only happens on a deep backlog).
 * It is never compared as if exact: bounded waits sort past every exact one, at the "long"
 * end (first when longest-first), ordered by their bound among themselves.
 */
const UNBOUNDED_END = 1e15;

const BACKLOG_RANK: Record<string, number> = { ok: 0, warn: 1, critical: 2 };
const nullsLast = (v: number | null | undefined) => (v === null || v === undefined || Number.isNaN(v) ? null : v);

function sortValue(t: TableSummary, column: SortColumn): number | string | null {
  switch (column) {
    case "target": return t.target;
    case "class": return t.class_rank;
    case "position": return t.position ? t.position.rank : null;
    case "score": return t.score === "infinity" ? Infinity : nullsLast(t.score);
    case "pending": return t.pending_generations;
    case "bytes": return t.pending_bytes;
    case "oldest": return t.oldest_pending_ms === null ? null : t.age_bound === "upper" ? t.oldest_pending_ms - UNBOUNDED_END : t.oldest_pending_ms;
    case "wait": return t.wait_ms === null ? null : t.age_bound === "upper" ? t.wait_ms + UNBOUNDED_END : t.wait_ms;
    case "backlog": return BACKLOG_RANK[t.backlog_class] ?? 0;
    case "verdict": return t.verdict ? (t.verdict.state === "would_place" ? `0 ${t.verdict.executor}` : `1 ${t.verdict.code}`) : null;
    default: return null;
  }
}

function compare(a: number | string | null, b: number | string | null): number {
  if (a === b) return 0;
  if (a === null) return 1; // unknowns last in both directions
  if (b === null) return -1;
  if (typeof a === "string" || typeof b === "string") return String(a) < String(b) ? -1 : 1;
  return a - b;
}

/** Filter, then sort stably (ties keep planner order). */
export function applyListView(tables: TableSummary[], view: ListView): TableSummary[] {
  const q = view.q.trim().toLowerCase();
  const rows = tables.filter(
    (t) =>
      (view.classes.length === 0 || view.classes.includes(t.class)) &&
      (view.backlogs.length === 0 || view.backlogs.includes(t.backlog_class)) &&
      (q === "" || t.target.toLowerCase().includes(q)),
  );
  if (view.sort === "planner") return view.order === "desc" ? rows.reverse() : rows;
  const sign = view.order === "desc" ? -1 : 1;
  const keyed = rows.map((t, i) => ({ t, i, v: sortValue(t, view.sort) }));
  keyed.sort((x, y) => {
    if (x.v === null || y.v === null) return compare(x.v, y.v) || x.i - y.i;
    return sign * compare(x.v, y.v) || x.i - y.i;
  });
  return keyed.map((k) => k.t);
}
