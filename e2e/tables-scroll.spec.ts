// /tables with production size: all 13,405+ rows in one virtualized list, scrolled to the end.
import type { DemandList } from "@/lib/schema/api/demand";
import { api, expect, screenshot, test } from "./support/fixtures";
import { PRODUCTION_TABLES } from "./support/scenario";

async function lastTableInPlannerOrder(): Promise<{ target: string; total: number }> {
  let cursor: string | null = null;
  let last = "";
  let total = 0;
  let revision: number | undefined;
  do {
    const q: string = `limit=2000&include_idle=true${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}${revision ? `&revision=${revision}` : ""}`;
    const page: DemandList = await api<DemandList>(`/api/v1/scheduler/demand?${q}`);
    revision = page.revision;
    total += page.tables.length;
    if (page.tables.length) last = page.tables[page.tables.length - 1].target;
    cursor = page.next_cursor;
  } while (cursor);
  return { target: last, total };
}

test("scrolls the whole fleet to the last table", async ({ page }) => {
  const { target, total } = await lastTableInPlannerOrder();
  expect(total).toBeGreaterThanOrEqual(PRODUCTION_TABLES);
  await page.goto("/tables");
  const scroller = page.getByTestId("tables-scroll");
  await expect(page.getByTestId("table-row").first()).toBeVisible();
  await expect(page.getByTestId("tables-count")).toContainText(
    `${total.toLocaleString("en-US")} of ${total.toLocaleString("en-US")} shown`,
  );
  // only a window of rows is in the DOM, not 13,405
  expect(await page.getByTestId("table-row").count()).toBeLessThan(120);
  // scroll in steps like a user flicking the wheel, then to the very end
  for (let i = 0; i < 10; i++) await scroller.evaluate((el, f) => el.scrollTo({ top: (el.scrollHeight * f) / 10 }), i);
  await scroller.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
  const lastRow = page.locator(`[data-testid="table-row"][data-index="${total - 1}"]`);
  await expect(lastRow).toBeVisible();
  await expect(lastRow).toHaveAttribute("data-target", target);
  await screenshot(page, "tables-scrolled-to-end");
});
