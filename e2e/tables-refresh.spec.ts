// /tables refreshes by revalidation: once every page is loaded it asks only for the
// listing's changes (`?since=`), and a repeat of an unchanged answer comes back from the
// server as 304 (seen on Chromium's network, CDP Network events), the rows still shown.
import type { DemandList } from "@/lib/schema/api/demand";
import { api, expect, test } from "./support/fixtures";

const fmt = (n: number) => n.toLocaleString("en-US");

test("a repeat of an unchanged refresh comes back 304, and the page keeps its rows", async ({ page }) => {
  const statuses: { url: string; status: number }[] = [];
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  cdp.on("Network.responseReceived", (e: { response: { url: string; status: number } }) => {
    if (e.response.url.includes("/api/v1/scheduler/demand")) statuses.push({ url: e.response.url, status: e.response.status });
  });
  const fleet = await api<DemandList>("/api/v1/scheduler/demand?limit=1&include_idle=true");
  await page.goto("/tables");
  const count = page.getByTestId("tables-count");
  await expect(count).toContainText(`${fmt(fleet.total_tables)} of ${fmt(fleet.total_tables)} shown`);

  // refreshes ask for changes since the listing held, never for every page again
  await expect.poll(() => statuses.filter((s) => s.url.includes("since=")).length, { timeout: 30_000 }).toBeGreaterThan(0);
  const pagesLoaded = statuses.filter((s) => s.url.includes("limit=2000")).length;
  // the same refresh asked again while the plan stands: the browser revalidates, the server answers 304
  await expect
    .poll(() => statuses.some((s) => s.url.includes("since=") && s.status === 304), { timeout: 60_000, message: "a refresh revalidated with 304" })
    .toBe(true);
  expect(statuses.filter((s) => s.url.includes("limit=2000")).length, "no page was read again").toBe(pagesLoaded);
  await expect(count).toContainText(`${fmt(fleet.total_tables)} of ${fmt(fleet.total_tables)} shown`);
  await expect(page.getByTestId("table-row").first()).toBeVisible();
});
