// /tables refreshes by revalidation: once every page is loaded it asks only for the
// listing's changes (`?since=`), and a repeat of an unchanged answer comes back from the
// server as 304 (the status on the wire, from Chromium's CDP Network events: the page's
// fetch sees the cached 200 it revalidated), the rows still shown.
import type { DemandList } from "@/lib/schema/api/demand";
import { api, expect, test } from "./support/fixtures";

const fmt = (n: number) => n.toLocaleString("en-US");

test("a repeat of an unchanged refresh comes back 304, and the page keeps its rows", async ({ page }) => {
  // ETags the server answered 304 for (the raw response, before the browser's cache)
  const notModified = new Set<string>();
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  cdp.on("Network.responseReceivedExtraInfo", (e: { statusCode: number; headers: Record<string, string> }) => {
    const etag = e.headers.etag ?? e.headers.ETag;
    if (e.statusCode === 304 && etag) notModified.add(etag);
  });
  // what the page's own fetches got: every page of the fleet, then its changes
  const refreshes: string[] = [];
  let pageReads = 0;
  page.on("response", (r) => {
    const url = r.url();
    if (!url.includes("/api/v1/scheduler/demand")) return;
    if (url.includes("since=")) refreshes.push(r.headers().etag ?? "");
    if (url.includes("limit=2000")) pageReads++;
  });

  const fleet = await api<DemandList>("/api/v1/scheduler/demand?limit=1&include_idle=true");
  await page.goto("/tables");
  const count = page.getByTestId("tables-count");
  await expect(count).toContainText(`${fmt(fleet.total_tables)} of ${fmt(fleet.total_tables)} shown`);
  await expect
    .poll(() => refreshes.length, { timeout: 30_000, message: "the page asks for changes" })
    .toBeGreaterThan(0);
  const pagesLoaded = pageReads;

  // the same refresh asked again while the plan stands: the browser revalidates, the server answers 304
  await expect
    .poll(() => refreshes.some((etag) => notModified.has(etag)), {
      timeout: 60_000,
      message: "a refresh of the page revalidated with 304",
    })
    .toBe(true);
  expect(pageReads, "no page of the fleet was read again").toBe(pagesLoaded);
  await expect(count).toContainText(`${fmt(fleet.total_tables)} of ${fmt(fleet.total_tables)} shown`);
  await expect(page.getByTestId("table-row").first()).toBeVisible();
});
