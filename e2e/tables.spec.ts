// /tables: filter, sort and open a table by keyboard; filters live in the URL.
import type { DemandList } from "@/lib/schema/api/demand";
import { api, expect, screenshot, test } from "./support/fixtures";
import { GIANT_TABLE, HOT_TABLES, INCIDENT, PRODUCTION_TABLES, realisticTables } from "./support/scenario";
import { docsScreenshot } from "./support/docs";

const pendingOf = (target: string) =>
  realisticTables()
    .find((t) => t.target === target)!
    .pending.reduce((a, b) => a + b, 0);
const fmt = (n: number) => n.toLocaleString("en-US");

test("lists every table, filters by class and substring, sorts, and opens by keyboard", async ({ page }) => {
  const fleet = await api<DemandList>("/api/v1/scheduler/demand?limit=1&include_idle=true");
  expect(fleet.total_tables).toBeGreaterThanOrEqual(PRODUCTION_TABLES);
  await page.goto("/tables");
  const list = page.getByTestId("tables-list");
  await expect(page.getByTestId("tables-count")).toContainText(
    `${fmt(fleet.total_tables)} of ${fmt(fleet.total_tables)} shown`,
  );
  // planner order (§4.1): the first row is the API's first table
  const first = await api<DemandList>("/api/v1/scheduler/demand?limit=1");
  await expect(list.getByTestId("table-row").first()).toHaveAttribute("data-target", first.tables[0].target);
  await screenshot(page, "tables");
  await docsScreenshot(page, "tables");

  // `/` focuses the search; typing filters and lands in the URL
  await page.locator("body").press("/");
  await expect(page.locator("#tables-search")).toBeFocused();
  await page.keyboard.type("ingest/");
  await expect(page).toHaveURL(/q=ingest%2F/);
  const ingest = await api<DemandList>("/api/v1/scheduler/demand?limit=2000&include_idle=true&q=ingest%2F");
  expect(ingest.tables.length).toBeGreaterThanOrEqual(1 + HOT_TABLES.length);
  await expect(page.getByTestId("tables-count")).toContainText(`${ingest.tables.length} of`);

  // class filter: the giant and the hot tables are all past critical_generations (256)
  await page.getByTestId("filter-class-critical").check();
  await expect(page).toHaveURL(/class=critical/);
  const critical = ingest.tables.filter((t) => t.class === "critical");
  await expect(page.getByTestId("tables-count")).toContainText(`${critical.length} of`);

  // sort by pending generations, descending: the giant first, then the largest hot table
  const byPending = [GIANT_TABLE, ...HOT_TABLES].sort((a, b) => pendingOf(b) - pendingOf(a));
  await page.getByTestId("sort-pending").click();
  await expect(page).toHaveURL(/sort=pending&order=desc/);
  await expect(list.getByTestId("table-row").first()).toHaveAttribute("data-target", byPending[0]);
  await expect(list.getByTestId("table-row").nth(1)).toHaveAttribute("data-target", byPending[1]);
  await screenshot(page, "tables-filtered");

  // keyboard: j j j k selects the 2nd row, Enter opens it
  await page.keyboard.press("j");
  await page.keyboard.press("j");
  await page.keyboard.press("j");
  await page.keyboard.press("k");
  await expect(list.locator(".vlist-row.selected")).toHaveAttribute("data-target", byPending[1]);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/tables/${encodeURIComponent(byPending[1])}`));
  await expect(page.getByRole("heading", { name: byPending[1] })).toBeVisible();
  await expect(page.getByTestId("pending-generations")).toHaveText(fmt(pendingOf(byPending[1])));
});

test("a link with filters reproduces the view", async ({ page }) => {
  const expected = realisticTables()
    .map((t) => t.target)
    .filter((t) => t.includes("table-1340"))
    .sort()
    .reverse();
  expect(expected).toHaveLength(5);
  await page.goto("/tables?q=table-1340&sort=target&order=desc");
  await expect(page.getByTestId("tables-count")).toContainText("5 of");
  await expect(page.getByTestId("table-row").first()).toHaveAttribute("data-target", expected[0]);
  await expect(page.getByTestId("table-row").last()).toHaveAttribute("data-target", expected[4]);
  await expect(page.locator("#tables-search")).toHaveValue("table-1340");
});

test("is an ARIA grid; Esc clears the search; bytes and verdicts in words; sorts by place in line", async ({
  page,
}) => {
  const fleet = await api<DemandList>("/api/v1/scheduler/demand?limit=1&include_idle=true");
  await page.goto("/tables");
  const grid = page.getByRole("grid", { name: "tables" });
  await expect(grid).toHaveAttribute("aria-rowcount", String(fleet.total_tables + 1));
  await expect(grid.getByRole("columnheader")).toHaveCount(10);
  const first = page.getByTestId("table-row").first();
  await expect(first).toHaveAttribute("role", "row");
  await expect(first).toHaveAttribute("aria-rowindex", "2");
  await expect(first.getByRole("gridcell")).toHaveCount(10);
  await expect(page.getByTestId("sort-bytes")).toHaveText("to merge");
  await expect(page.getByTestId("sort-bytes")).toHaveAttribute("title", /bytes through sealed/);

  // Esc in the search clears the filter (and the URL) at once
  const search = page.locator("#tables-search");
  await search.fill("incident/");
  await expect(page).toHaveURL(/q=incident%2F/);
  const merging = page.locator(`[data-testid="table-row"][data-target="${INCIDENT.mergingTarget}"]`);
  // a running merge holds the write turn: the verdict says so in words
  await expect(merging).toContainText("skip: write turn held");
  await search.press("Escape");
  await expect(search).toHaveValue("");
  await expect(page).not.toHaveURL(/q=/);
  await expect(page.getByTestId("tables-count")).toContainText(
    `${fmt(fleet.total_tables)} of ${fmt(fleet.total_tables)} shown`,
  );

  // place in line: rank 1 first
  await page.getByTestId("sort-position").click();
  await expect(page).toHaveURL(/sort=position&order=asc/);
  const ranked = await api<DemandList>("/api/v1/scheduler/demand?limit=1&sort=position&order=asc");
  expect(ranked.tables[0].position?.rank).toBe(1);
  // the place in line says its kind: two "1"s of different kinds never look alike
  await expect(page.getByTestId("table-row").first().getByRole("gridcell").nth(2)).toHaveText(
    `1 · ${ranked.tables[0].position!.kind}`,
  );
});

test("at 1024 px the verdict column and the Live button are on screen", async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 800 });
  await page.goto("/tables");
  const verdict = page.getByTestId("table-row").first().getByRole("gridcell").last();
  await expect(verdict).toBeVisible();
  const cell = (await verdict.boundingBox())!;
  expect(cell.x + cell.width).toBeLessThanOrEqual(1024);
  const textWidth = await verdict.evaluate((el) => [el.scrollWidth, el.clientWidth]);
  expect(textWidth[0], "the verdict text is not cut").toBeLessThanOrEqual(textWidth[1] + 1);
  const live = page.getByRole("button", { name: "Live" });
  const button = (await live.boundingBox())!;
  expect(button.x + button.width).toBeLessThanOrEqual(1024);
  await screenshot(page, "tables-1024");
});
