// `/`: the fleet overview shows the seeded fleet's real numbers.
import type { DemandList } from "@/lib/schema/api/demand";
import type { ExecutorsResponse } from "@/lib/schema/api/executors";
import type { ShadowResponse } from "@/lib/schema/api/shadow";
import type { SkippedResponse } from "@/lib/schema/api/skipped";
import { api, expect, screenshot, test } from "./support/fixtures";
import { docsScreenshot } from "./support/docs";
import { INCIDENT, LEADER_INSTANCE, PRODUCTION_TABLES } from "./support/scenario";

test("shows counts, leader, etcd, capacity, shadow and skipped records", async ({ page }) => {
  const demand = await api<DemandList>("/api/v1/scheduler/demand?limit=1");
  const executors = await api<ExecutorsResponse>("/api/v1/scheduler/executors");
  const shadow = await api<ShadowResponse>("/api/v1/scheduler/shadow");
  await page.goto("/");
  await expect(page.getByTestId("total-tables")).toHaveText(demand.total_tables.toLocaleString("en-US"));
  expect(demand.total_tables).toBeGreaterThanOrEqual(PRODUCTION_TABLES);
  await expect(page.getByTestId("count-class-critical")).toHaveText(demand.counts.by_class.critical.toLocaleString("en-US"));
  await expect(page.getByTestId("count-backlog-ok")).toHaveText(demand.counts.by_backlog.ok.toLocaleString("en-US"));
  await expect(page.getByTestId("leader-instance")).toHaveText(LEADER_INSTANCE);
  await expect(page.getByLabel("etcd health").getByText("ok")).toBeVisible();
  for (const [kind, n] of Object.entries(executors.totals.slots_free)) await expect(page.getByTestId(`free-slots-${kind}`)).toHaveText(n.toLocaleString("en-US"));
  await expect(page.getByTestId("shadow-disagreements")).toHaveText(String(shadow.disagreements));
  await expect(page.getByLabel("next in planner order").getByRole("link").first()).toHaveText(demand.tables[0].target);
  // the two lists never repeat each other
  const next = await page.getByLabel("next in planner order").getByRole("link").allTextContents();
  await expect(page.getByLabel("longest waits").getByRole("link").first()).toBeVisible();
  const waits = await page.getByLabel("longest waits").getByRole("link").allTextContents();
  expect(next.length).toBe(10);
  expect(waits.filter((t) => next.includes(t))).toEqual([]);
  // free bytes leave out executors without a byte budget, and say how many
  if (executors.totals.unbudgeted > 0) await expect(page.getByTestId("bytes-free-total")).toContainText(`${executors.totals.unbudgeted} executor`);
  await expect(page.getByLabel("skipped records")).toContainText("unknown version 1");
  await screenshot(page, "overview");
  await docsScreenshot(page, "overview");

  // skipped records: the count links to the list with key and reason
  const skipped = await api<SkippedResponse>("/api/v1/scheduler/skipped");
  await expect(page.getByTestId("skipped-total")).toHaveText(skipped.skipped.length.toLocaleString("en-US"));
  await page.getByTestId("skipped-total").click();
  await expect(page).toHaveURL(/\/skipped/);
  if (skipped.skipped.length > 0) {
    const first = skipped.skipped[0];
    const row = page.getByTestId("skipped-list").getByRole("row").filter({ hasText: first.key });
    await expect(row).toContainText(first.reason);
  }
  // a key naming a table as hex shows the table, decoded and linked
  await expect(page.getByTestId("skipped-list").getByRole("link", { name: INCIDENT.futureVersionTarget })).toBeVisible();
  await expect(page.getByTestId("skipped-list").getByRole("row").filter({ hasText: INCIDENT.badHexKeySuffix })).toContainText("key names no table it could decode");
  await screenshot(page, "skipped");
});
