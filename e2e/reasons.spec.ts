// `/reasons` (issue 23): due tables by verdict code over time, from the decision journal the
// e2e server's own sampler writes. The window is the journal's own span (the server started
// with the stack), so the answer for it is fixed: the page's data table equals the API's
// points, and a cell opened lists exactly the API's tables for that code and step.
import type { JournalCoverageResponse } from "@/lib/schema/api/journal";
import type { ReasonTargetsResponse, ReasonsResponse } from "@/lib/schema/api/reasons";
import { stepFor } from "@/lib/client/resources/reasons";
import { api, expect, screenshot, test } from "./support/fixtures";

test("charts due tables by reason over a journalled window; a count lists its tables", async ({ page }) => {
  let cov: JournalCoverageResponse | null = null;
  await expect
    .poll(
      async () => {
        cov = await api<JournalCoverageResponse>("/api/v1/journal/coverage");
        return cov.from_ms !== null && cov.to_ms !== null && cov.gaps.length === 0 && cov.to_ms - cov.from_ms >= 2000;
      },
      { timeout: 60_000, message: "the journal spans two seconds" },
    )
    .toBe(true);
  const { from_ms: from, to_ms: to } = cov! as { from_ms: number; to_ms: number };
  const step = stepFor(from, to);
  const r = await api<ReasonsResponse>(`/api/v1/scheduler/reasons?from_ms=${from}&to_ms=${to}&step_ms=${step}`);
  expect(r.points.length).toBeGreaterThan(1);
  expect(r.points[0].due).toBe(Object.values(r.points[0].by_code).reduce((a, b) => a + b, 0));

  await page.goto(`/reasons?window=custom&from_ms=${from}&to_ms=${to}`);
  await expect(page.getByTestId("reasons-chart")).toBeVisible();
  const rows = page.getByTestId("reasons-table").locator("tbody tr");
  await expect(rows).toHaveCount(r.points.length);
  await expect(rows.first().locator("td").nth(1)).toHaveText(r.points[0].due.toLocaleString("en-US"));

  // the least held code at the first step: its cell opens its tables
  const [code, n] = Object.entries(r.points[0].by_code).sort((a, b) => a[1] - b[1])[0];
  const t = await api<ReasonTargetsResponse>(
    `/api/v1/scheduler/reasons/targets?at_ms=${r.points[0].at_ms}&code=${code}`,
  );
  expect(t.targets.length).toBe(n);
  await page.getByTestId(`cell-${r.points[0].at_ms}-${code}`).click();
  await expect(page).toHaveURL(new RegExp(`at_ms=${r.points[0].at_ms}&code=${code}`));
  await expect(page.getByTestId("reasons-targets").getByRole("link")).toHaveText(t.targets);
  // a band in the chart opens the same list
  await page.goto(`/reasons?window=custom&from_ms=${from}&to_ms=${to}`);
  await page.getByTestId(`band-${r.points[0].at_ms}-${code}`).click();
  await expect(page.getByTestId("reasons-targets").getByRole("link")).toHaveText(t.targets);
  await screenshot(page, "reasons");
});

test.describe("outside the journal", () => {
  // the browser logs the expected 409 answers
  test.use({ allowConsoleErrors: [/status of 409 .*reasons\?from_ms=/] });
  test("a window the journal does not cover says so in words, and links the part it covers", async ({ page }) => {
    await page.goto("/reasons?window=custom&from_ms=1000&to_ms=2000");
    await expect(page.getByTestId("reasons-not-covered")).toContainText(
      /The decision journal covers .* This window, 1970-01-01 00:00:01Z to 1970-01-01 00:00:02Z, starts .* before the journal does/,
    );
    // the overnight window of a journal younger than that: the link shows the part it covers, which the server answers
    await page.goto("/reasons?window=overnight");
    const link = page.getByTestId("reasons-covered-link");
    await expect(link).toBeVisible();
    await link.click();
    await expect(page).toHaveURL(/window=custom&from_ms=\d+&to_ms=\d+/);
    const url = new URL(page.url());
    const r = await api<ReasonsResponse>(
      `/api/v1/scheduler/reasons?from_ms=${url.searchParams.get("from_ms")}&to_ms=${url.searchParams.get("to_ms")}`,
    );
    await expect(page.getByTestId("reasons-table").locator("tbody tr")).toHaveCount(r.points.length);
  });
});
