// `/shadow`: the five outcome counts, their tables one click away, the trend and agreement.
import type { ShadowResponse } from "@/lib/schema/api/shadow";
import { api, expect, screenshot, test } from "./support/fixtures";
import { INCIDENT } from "./support/scenario";

const OUTCOMES = ["discovery_miss", "queued_only", "running", "placement_gap", "phantom_task"] as const;

test("shows outcome counts, what they mean, and each outcome's tables", async ({ page }) => {
  await page.goto("/shadow");
  // the page and the API answer from the live plan; the clock's step (every 5 s) between the
  // two reads can move a count by a table whose wait crossed a bound, so read the API again
  // until it answers what the page shows
  const counts = (s: ShadowResponse) => OUTCOMES.map((o) => s.outcomes[o].toLocaleString("en-US"));
  const shown = () => Promise.all(OUTCOMES.map((o) => page.getByTestId(`outcome-count-${o}`).textContent()));
  let shadow = await api<ShadowResponse>("/api/v1/scheduler/shadow");
  await expect
    .poll(async () => {
      shadow = await api<ShadowResponse>("/api/v1/scheduler/shadow");
      return (await shown()).join(" ") === counts(shadow).join(" ");
    })
    .toBe(true);
  await expect(page.getByTestId("disagreements")).toHaveText(
    String(shadow.outcomes.discovery_miss + shadow.outcomes.phantom_task),
  );
  await expect(page.getByTestId("outcome-placement_gap")).toContainText("Does not mean:");
  await expect(page.getByTestId("shadow-trend")).toBeVisible();
  await expect(page.getByTestId("placement-agreement").locator(".tag").first()).toHaveText(
    shadow.placements.agree ? "agree" : "differ",
  );
  // targets both sides placed on different executors: both executors and why they can differ
  const mismatch = page.getByTestId("executor-mismatch");
  if (shadow.placements.executor_mismatch.length === 0) await expect(mismatch).toContainText("none");
  for (const m of shadow.placements.executor_mismatch.slice(0, 5)) {
    const row = mismatch.getByRole("row").filter({ has: page.getByRole("link", { name: m.target, exact: true }) });
    await expect(row).toContainText(m.console);
    await expect(row).toContainText(m.master);
    // the page reads the fleet itself: the reason names the revision it read, which may be newer
    for (const part of m.reason.split(/ at revision [\d,]+, where /)) await expect(row).toContainText(part);
  }
  // the trend chart's data as a table
  await page.getByTestId("shadow-trend-table").locator("summary").click();
  await expect(page.getByTestId("shadow-trend-table").getByRole("row").nth(1)).toBeVisible();
  await expect(page.getByTestId("shadow-rule-note")).toContainText("max_placements_per_cycle");

  // the two phantom tasks of the incidents scenario: legacy merges on tables without demand
  await expect(page.getByTestId("outcome-count-phantom_task")).toHaveText("2");
  await page.getByTestId("outcome-count-phantom_task").click();
  const phantoms = page.getByTestId("outcome-tables-phantom_task");
  await expect(phantoms.getByRole("link")).toHaveText([INCIDENT.phantomQueued, INCIDENT.phantomRunning].sort());
  // the open list is in the URL: a reload (or a shared link) shows it open
  await expect(page).toHaveURL(/open=phantom_task/);
  await page.reload();
  await expect(page.getByTestId("outcome-tables-phantom_task").getByRole("link")).toHaveText(
    [INCIDENT.phantomQueued, INCIDENT.phantomRunning].sort(),
  );
  await screenshot(page, "shadow");
  // a table with demand is one click from its outcome (phantoms have no demand to show)
  const outcome = (["running", "queued_only", "discovery_miss", "placement_gap"] as const).find(
    (o) => shadow.tables[o].length > 0,
  )!;
  const target = shadow.tables[outcome][0];
  await page.getByTestId(`outcome-count-${outcome}`).click();
  await page.getByTestId(`outcome-tables-${outcome}`).getByRole("link", { name: target, exact: true }).click();
  await expect(page.getByRole("heading", { name: target })).toBeVisible();
});
