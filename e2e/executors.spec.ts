// `/executors`: slot usage, headroom bars, marks and live assignments.
import type { ExecutorsResponse } from "@/lib/schema/api/executors";
import { api, expect, screenshot, test } from "./support/fixtures";
import { INCIDENT } from "./support/scenario";

test("shows each executor's free slots, byte headroom and marks", async ({ page }) => {
  const body = await api<ExecutorsResponse>("/api/v1/scheduler/executors");
  expect(body.executors.length).toBeGreaterThan(0);
  await page.goto("/executors");
  await expect(page.getByTestId("executor-card")).toHaveCount(body.executors.length);
  for (const e of body.executors) {
    const card = page.locator(`[data-testid="executor-card"][data-executor="${e.id}"]`);
    for (const [kind, free] of Object.entries(e.slots_free)) {
      await expect(card.getByTestId(`slots-${kind}`)).toContainText(`${free} free`);
    }
    if (e.draining) await expect(card.getByText("draining", { exact: true })).toBeVisible();
    if (e.orphan) await expect(card.getByText("orphan", { exact: true })).toBeVisible();
  }
  // the realistic fleet's shadow rows: two of master-a's three merge slots are reserved
  const masterA = page.locator('[data-testid="executor-card"][data-executor="master-a"]');
  await expect(masterA.getByTestId("slots-merge_wal")).toHaveText("2/3 used · 1 free");
  await expect(masterA.getByTestId("slots-index_id")).toHaveText("0/2 used · 2 free");
  await expect(page.locator(`[data-testid="executor-card"][data-executor="${INCIDENT.drainingExecutor}"]`).getByText("draining", { exact: true })).toBeVisible();
  const orphan = page.locator(`[data-testid="executor-card"][data-executor="${INCIDENT.orphanExecutor}"]`);
  await expect(orphan.getByText("orphan", { exact: true })).toBeVisible();
  await expect(orphan).toContainText(INCIDENT.orphanUnitId);
  await expect(orphan.getByRole("link", { name: INCIDENT.orphanTarget })).toBeVisible();
  await screenshot(page, "executors");
});
