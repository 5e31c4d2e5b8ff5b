// The one order and filter of a table listing, for the server (GET /scheduler/demand:
// lib/scheduler/demand.ts) and the page (/tables: components/tables/list-view.ts), so the
// page shows the API's order for the same rows and query. Pure: no clock, no I/O.
// * `q` matches a substring of the target, any case, trimmed of surrounding whitespace;
// * targets compare by their UTF-8 bytes, as the planner's tie-break does (§4.1);
// * ties keep planner order in either direction, so pages never overlap;
// * a table not in line (`position`) or with no key sorts last in either direction; an
//   unknown wait counts as the shortest (last when longest first);
// * a lower-bound wait sorts by the value it states ("≥ 2m" never above "2h 42m") and, on a
//   tie, as the longer one, since it may be longer still.
import { compareTargets } from "@/lib/planner/order";

/** Every column a listing sorts by; the API accepts those of lib/schema/api/demand.ts `SORTS`. */
export const TABLE_SORTS = [
  "planner",
  "target",
  "class",
  "position",
  "score",
  "pending",
  "bytes",
  "oldest",
  "wait",
  "backlog",
  "verdict",
] as const;
export type TableSort = (typeof TABLE_SORTS)[number];
export type SortDirection = "asc" | "desc";

/** The fields of a table row the order and filter read (a TablePlan and a TableSummary both have them). */
export interface OrderedRow {
  target: string;
  class: string;
  class_rank: number;
  backlog_class: string;
  score: number | "infinity";
  pending_generations: number;
  pending_bytes: number;
  oldest_pending_ms: number | null;
  age_bound: "exact" | "upper" | null;
  wait_ms: number | null;
  /** a plan row names no place (its plan's line does: `sortTables`' `rankOf`) */
  position?: { rank: number } | null;
  verdict: { state: "would_place"; executor: string } | { state: "would_skip"; code: string };
}

/** `q` as matched: trimmed, lower case; "" matches every target. */
export const tableNeedle = (q: string | undefined): string => (q ?? "").trim().toLowerCase();

/** Whether a target holds the needle (made by `tableNeedle`). */
export const targetHas = (target: string, needle: string): boolean =>
  needle === "" || target.toLowerCase().includes(needle);

const BOUND_TIE = 0.5;
const BACKLOG_RANK: Readonly<Record<string, number>> = { ok: 0, warn: 1, critical: 2 };

type Key = number | string | null;

function sortKey<T extends OrderedRow>(t: T, sort: TableSort, rankOf?: (t: T) => number | null): Key {
  switch (sort) {
    case "target":
      return t.target;
    case "class":
      return t.class_rank;
    case "position":
      return rankOf ? rankOf(t) : (t.position?.rank ?? null);
    case "score":
      return t.score === "infinity" ? Infinity : t.score;
    case "pending":
      return t.pending_generations;
    case "bytes":
      return t.pending_bytes;
    case "oldest":
      if (t.oldest_pending_ms === null) return null;
      return t.age_bound === "upper" ? t.oldest_pending_ms - BOUND_TIE : t.oldest_pending_ms;
    case "wait":
      if (t.wait_ms === null) return -1;
      return t.age_bound === "upper" ? t.wait_ms + BOUND_TIE : t.wait_ms;
    case "backlog":
      return BACKLOG_RANK[t.backlog_class] ?? 0;
    case "verdict":
      return t.verdict.state === "would_place" ? `0 ${t.verdict.executor}` : `1 ${t.verdict.code}`;
    case "planner":
      return 0;
  }
}

/** Two present keys: strings by UTF-8 bytes, numbers by value (NaN and ∞ − ∞ tie). */
function compareKeys(a: number | string, b: number | string): number {
  if (typeof a === "string" || typeof b === "string") return compareTargets(String(a), String(b));
  return a - b || 0;
}

/**
 * `rows` (in planner order) sorted by `sort` in `direction`. Stable: ties keep their
 * planner order whatever the direction. `rankOf` gives a row's place in line when the row
 * does not carry it (a plan's rows).
 */
export function sortTables<T extends OrderedRow>(
  rows: readonly T[],
  sort: TableSort,
  direction: SortDirection,
  rankOf?: (t: T) => number | null,
): T[] {
  if (sort === "planner") return direction === "desc" ? rows.slice().reverse() : rows.slice();
  const sign = direction === "desc" ? -1 : 1;
  const keyed = rows.map((t, i) => ({ t, i, k: sortKey(t, sort, rankOf) }));
  keyed.sort((x, y) => {
    if (x.k === null || y.k === null) return (x.k === null ? 1 : 0) - (y.k === null ? 1 : 0) || x.i - y.i;
    return sign * compareKeys(x.k, y.k) || x.i - y.i;
  });
  return keyed.map((r) => r.t);
}
