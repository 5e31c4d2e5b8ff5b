// The page's order is the API's: the /tables page (components/tables/list-view.ts) and
// GET /scheduler/demand (lib/scheduler/demand.ts) list the same rows in the same order for
// the same query, ties, case and whitespace in `q` included.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { TableSummary } from "@/lib/client/api-types";
import { summaryRow } from "@/test/support/table-summary";
import type { TablePlan } from "@/lib/planner/plan";
import { SORTS, type DemandQuery } from "@/lib/schema/api/demand";
import { BACKLOG_CLASSES, CLASS_NAMES } from "@/lib/schema/codes";
import { selectTables } from "@/lib/scheduler/demand";
import { applyListView } from "@/components/tables/list-view";
import { sortTables, tableNeedle, targetHas } from "./table-order";

const row = summaryRow;

const query = (over: Partial<DemandQuery>): DemandQuery => ({
  limit: 2000,
  include_idle: true,
  class: [],
  backlog: [],
  sort: "planner",
  ...over,
});

/** The API's rows for a query (TablePlan carries every field the order reads). */
const api = (rows: TableSummary[], q: DemandQuery) =>
  selectTables(rows as unknown as TablePlan[], q).map((t) => t.target);
const page = (rows: TableSummary[], q: DemandQuery) =>
  applyListView(rows, {
    classes: q.class,
    backlogs: q.backlog,
    q: q.q ?? "",
    sort: q.sort,
    order: q.order ?? "asc",
  }).map((t) => t.target);

// few distinct values, so ties are common; targets with case, spaces and characters whose
// UTF-16 order differs from their UTF-8 order (U+FF5E sorts below U+1F600 in UTF-16 units only)
const targetArb = fc
  .array(fc.constantFrom("a", "B", "b", " ", "/", "é", "\uff5e", "😀", "x"), { minLength: 1, maxLength: 4 })
  .map((cs) => cs.join(""));
const rowArb = fc
  .record({
    target: targetArb,
    class: fc.constantFrom(...CLASS_NAMES),
    backlog_class: fc.constantFrom(...BACKLOG_CLASSES),
    score: fc.oneof(fc.constantFrom(0, 0.5, 1, 2), fc.constant("infinity" as const)),
    pending_generations: fc.constantFrom(0, 4, 8),
    wait_ms: fc.option(fc.constantFrom(0, 60_000, 60_000.5, 120_000), { nil: null }),
    age_bound: fc.constantFrom("exact" as const, "upper" as const, null),
    rank: fc.option(fc.constantFrom(1, 2, 3), { nil: null }),
    place: fc.boolean(),
  })
  .map((r) =>
    row(r.target, {
      class: r.class,
      class_rank: CLASS_NAMES.indexOf(r.class),
      backlog_class: r.backlog_class,
      score: r.score,
      pending_generations: r.pending_generations,
      wait_ms: r.wait_ms,
      age_bound: r.age_bound,
      position: r.rank === null ? null : { kind: "merge_wal", rank: r.rank, of: 3 },
      verdict: r.place
        ? { state: "would_place", executor: "w1", reserved_bytes: 0, kind: "merge_wal" }
        : { state: "would_skip", code: "no_free_slot", message: "m" },
    }),
  );
const queryArb = fc.record({
  sort: fc.constantFrom(...SORTS),
  order: fc.constantFrom("asc" as const, "desc" as const),
  q: fc.option(fc.constantFrom("", "a", "A", " b", "b ", "  ", "😀", "\uff5e", "x/"), { nil: undefined }),
  class: fc.subarray([...CLASS_NAMES]),
  backlog: fc.subarray([...BACKLOG_CLASSES]),
});

describe("one table order for the API and the page", () => {
  it("lists the same rows in the same order for any rows and query", () => {
    fc.assert(
      fc.property(fc.array(rowArb, { maxLength: 30 }), queryArb, (rows, q) => {
        expect(page(rows, query(q))).toEqual(api(rows, query(q)));
      }),
      { numRuns: 500 },
    );
  });

  it("matches q trimmed and in any case, on both sides", () => {
    const rows = [row("Ingest/Ad"), row("ingest/b"), row("other")];
    for (const q of ["ingest", " INGEST ", "Ingest\t"]) {
      expect(api(rows, query({ q }))).toEqual(["Ingest/Ad", "ingest/b"]);
      expect(page(rows, query({ q }))).toEqual(["Ingest/Ad", "ingest/b"]);
    }
    expect(api(rows, query({ q: "   " }))).toEqual(["Ingest/Ad", "ingest/b", "other"]);
    expect(tableNeedle("  Ab ")).toBe("ab");
    expect(targetHas("xAbx", "ab")).toBe(true);
  });

  it("orders targets by their UTF-8 bytes and keeps planner order on ties, both ways", () => {
    const rows = [row("😀"), row("\uff5e"), row("b", { pending_generations: 4 }), row("a", { pending_generations: 4 })];
    expect(sortTables(rows, "target", "asc").map((t) => t.target)).toEqual(["a", "b", "\uff5e", "😀"]);
    expect(page(rows, query({ sort: "target", order: "desc" }))).toEqual(["😀", "\uff5e", "b", "a"]);
    // ties (pending 8, 8 and 4, 4) keep planner order whatever the direction
    expect(api(rows, query({ sort: "pending", order: "desc" }))).toEqual(["😀", "\uff5e", "b", "a"]);
    expect(api(rows, query({ sort: "pending", order: "asc" }))).toEqual(["b", "a", "😀", "\uff5e"]);
  });

  it("lists a table not in line last both ways, and an unknown wait as the shortest", () => {
    const rows = [
      row("none", { position: null, wait_ms: null }),
      row("second", { position: { kind: "merge_wal", rank: 2, of: 2 }, wait_ms: 10 }),
      row("first", { position: { kind: "merge_wal", rank: 1, of: 2 }, wait_ms: 20 }),
    ];
    expect(api(rows, query({ sort: "position", order: "asc" }))).toEqual(["first", "second", "none"]);
    expect(api(rows, query({ sort: "position", order: "desc" }))).toEqual(["second", "first", "none"]);
    expect(api(rows, query({ sort: "wait", order: "asc" }))).toEqual(["none", "second", "first"]);
    expect(api(rows, query({ sort: "wait", order: "desc" }))).toEqual(["first", "second", "none"]);
  });
});
