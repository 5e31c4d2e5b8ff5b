import { describe, expect, it } from "vitest";
import { summaryRow } from "@/test/support/table-summary";
import { applyListView, listViewParams, parseListView } from "./list-view";

const row = summaryRow;

const fleet = [
  row("db/a", { class: "critical", class_rank: 1, pending_generations: 300, wait_ms: 9000, backlog_class: "warn" }),
  row("db/b", { score: 4, wait_ms: null }),
  row("db/c", { score: 2.5, pending_generations: 20 }),
  row("other/d", { class: "tail", class_rank: 5, score: 0.5, pending_generations: 4 }),
  row("other/e", {
    class: "idle",
    class_rank: 6,
    score: 0,
    pending_generations: 0,
    wait_ms: null,
    oldest_pending_ms: null,
  }),
];

describe("list view", () => {
  it("parses the URL and ignores unknown values", () => {
    const view = parseListView(
      new URLSearchParams("class=critical&class=bogus&backlog=warn&q=db&sort=score&order=desc"),
    );
    expect(view).toEqual({ classes: ["critical"], backlogs: ["warn"], q: "db", sort: "score", order: "desc" });
    expect(parseListView(new URLSearchParams("sort=nope"))).toEqual({
      classes: [],
      backlogs: [],
      q: "",
      sort: "planner",
      order: "asc",
    });
  });

  it("round-trips through the URL and keeps the pinned revision", () => {
    const view = parseListView(new URLSearchParams("class=tail&q=x&sort=wait&order=desc"));
    const params = listViewParams(view, new URLSearchParams("revision=42&class=normal"));
    expect(params.toString()).toBe("revision=42&class=tail&q=x&sort=wait&order=desc");
  });

  it("keeps planner order by default and filters by class, backlog, substring", () => {
    const all = parseListView(new URLSearchParams());
    expect(applyListView(fleet, all).map((t) => t.target)).toEqual(["db/a", "db/b", "db/c", "other/d", "other/e"]);
    expect(applyListView(fleet, all)).toBe(fleet); // the default view: the listing held, not a copy
    expect(applyListView(fleet, { ...all, classes: ["tail", "idle"] }).map((t) => t.target)).toEqual([
      "other/d",
      "other/e",
    ]);
    expect(applyListView(fleet, { ...all, backlogs: ["warn"] }).map((t) => t.target)).toEqual(["db/a"]);
    expect(applyListView(fleet, { ...all, q: "OTHER/" }).map((t) => t.target)).toEqual(["other/d", "other/e"]);
  });

  it("sorts any column both ways; a table with no key (score, oldest, place in line) last", () => {
    const all = parseListView(new URLSearchParams());
    expect(applyListView(fleet, { ...all, sort: "score", order: "desc" }).map((t) => t.target)).toEqual([
      "db/b",
      "db/c",
      "db/a",
      "other/d",
      "other/e",
    ]);
    // an unknown wait counts as the shortest, as the API sorts it: first when shortest first
    expect(applyListView(fleet, { ...all, sort: "wait", order: "asc" }).map((t) => t.target)).toEqual([
      "db/b",
      "other/e",
      "db/c",
      "other/d",
      "db/a",
    ]);
    expect(applyListView(fleet, { ...all, sort: "wait", order: "desc" }).map((t) => t.target)).toEqual([
      "db/a",
      "db/c",
      "other/d",
      "db/b",
      "other/e",
    ]);
    expect(applyListView(fleet, { ...all, sort: "target", order: "desc" }).map((t) => t.target)).toEqual([
      "other/e",
      "other/d",
      "db/c",
      "db/b",
      "db/a",
    ]);
    expect(applyListView(fleet, { ...all, sort: "pending", order: "asc" }).map((t) => t.pending_generations)).toEqual([
      0, 4, 8, 20, 300,
    ]);
  });

  it("sorts a lower-bound wait by the value it states (≥ 2m 38s never above 3h), longer on a tie", () => {
    const all = parseListView(new URLSearchParams());
    const bounded = [
      row("exact/long", { wait_ms: 3 * 3600_000, oldest_pending_ms: 10_000 }),
      row("bound/short", { age_bound: "upper", wait_ms: 158_000, oldest_pending_ms: 50_000 }),
      row("exact/short", { wait_ms: 60_000, oldest_pending_ms: 40_000 }),
      row("bound/longer", { age_bound: "upper", wait_ms: 600_000, oldest_pending_ms: 30_000 }),
    ];
    expect(applyListView(bounded, { ...all, sort: "wait", order: "desc" }).map((t) => t.target)).toEqual([
      "exact/long",
      "bound/longer",
      "bound/short",
      "exact/short",
    ]);
    expect(applyListView(bounded, { ...all, sort: "wait", order: "asc" }).map((t) => t.target)).toEqual([
      "exact/short",
      "bound/short",
      "bound/longer",
      "exact/long",
    ]);
    expect(applyListView(bounded, { ...all, sort: "oldest", order: "asc" }).map((t) => t.target)).toEqual([
      "exact/long",
      "bound/longer",
      "exact/short",
      "bound/short",
    ]);
    const tie = [row("exact/tie", { wait_ms: 60_000 }), row("bound/tie", { age_bound: "upper", wait_ms: 60_000 })];
    expect(applyListView(tie, { ...all, sort: "wait", order: "desc" }).map((t) => t.target)).toEqual([
      "bound/tie",
      "exact/tie",
    ]);
  });
});
