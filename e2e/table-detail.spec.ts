// `/tables/[target]`: a prepared compaction makes the merge yield (T45, spec §5.6 (a)); the
// page must say so in the planner's own code and words, next to the demand it has.
import type { DemandDetail } from "@/lib/schema/api/demand";
import { api, expect, screenshot, test } from "./support/fixtures";
import { INCIDENT, INCIDENT_PENDING } from "./support/scenario";

test("explains why the prepared compaction's merge is not placed", async ({ page }) => {
  const target = INCIDENT.preparedTarget;
  const body = await api<DemandDetail>(`/api/v1/scheduler/demand?target=${encodeURIComponent(target)}`);
  const yieldReason = body.table.why_not.find((w) => w.code === "yield_to_prepared_commit");
  expect(yieldReason, "the API explains the yield").toBeDefined();

  await page.goto(`/tables/${encodeURIComponent(target)}`);
  await expect(page.getByRole("heading", { name: target })).toBeVisible();
  await expect(page.getByTestId("pending-generations")).toHaveText(String(INCIDENT_PENDING[target]));
  // the prepared commit is the table's head unit: class commit_ready, ahead of its merge
  expect(body.table).toMatchObject({ class: "commit_ready", reason: "prepared_commit_ready" });
  await expect(page.getByTestId("class-reason")).toContainText("prepared_commit_ready");
  await expect(page.getByTestId("class-reason")).toContainText("a merge yields one turn to it");
  await expect(page.locator(".page-title .badge").first()).toHaveText("commit ready");
  const whyNot = page.getByTestId("why-not");
  await expect(whyNot.getByTestId("why-not-code").filter({ hasText: "yield_to_prepared_commit" })).toBeVisible();
  await expect(whyNot.getByTestId("why-not-message").filter({ hasText: yieldReason!.message })).toBeVisible();
  // its merge unit waited 2 h (past the 1 h turn wait) and is critical, but yields the turn
  const units = page.getByRole("region", { name: "demand and score" }).getByRole("row");
  await expect(units.filter({ hasText: "merge_wal" })).toContainText("promoted_for_age");
  await expect(units.filter({ hasText: "compact" })).toContainText("prepared_commit_ready");
  await expect(page.getByRole("region", { name: "shards" })).toContainText("eeeeeeee-0000-4000-8000-");
  await expect(page.getByTestId("cache-agreement")).toBeVisible();
  // the table's history in one request, on a time axis: its shard's write (revision 409)
  await expect(page.getByTestId("history-chart")).toContainText(/\d+ changes? from \d{4}-\d\d-\d\d/);
  await page.getByTestId("history-chart").getByText("The data as a table").click();
  await expect(page.getByTestId("history-table")).toContainText("409");
  await screenshot(page, "table-detail-prepared-compaction");
  await screenshot(page, "table-detail-prepared-compaction-full", { fullPage: true });
});

test("shows the failure ledger and cooldowns of a broken table", async ({ page }) => {
  await page.goto(`/tables/${encodeURIComponent(INCIDENT.brokenStore)}`);
  const legacy = page.getByRole("region", { name: "legacy view" });
  await expect(legacy).toContainText("Not found: s3://lake/broken-store/_versions/17.manifest");
  await expect(legacy).toContainText("needs attention");
  await expect(legacy).toContainText("compaction failed: Not found: fragment 1207");
  await screenshot(page, "table-detail-broken-store");
});
