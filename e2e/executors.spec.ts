// `/executors`: slot usage, headroom bars, marks and live assignments.
import type { AssignmentsResponse } from "@/lib/schema/api/assignments";
import type { ExecutorsResponse } from "@/lib/schema/api/executors";
import { api, expect, screenshot, test } from "./support/fixtures";
import { INCIDENT } from "./support/scenario";
import { headroomText } from "../lib/words/capacity";

test("shows each executor's free slots, byte headroom and marks", async ({ page }) => {
  const body = await api<ExecutorsResponse>("/api/v1/scheduler/executors");
  expect(body.executors.length).toBeGreaterThan(0);
  await page.goto("/executors");
  await expect(page.getByTestId("executor-card")).toHaveCount(body.executors.length);
  for (const e of body.executors) {
    const card = page.locator(`[data-testid="executor-card"][data-executor="${e.id}"]`);
    // one headroom per kind: `free` (what the verdicts use) first, its parts beside it
    for (const [kind, h] of Object.entries(e.slots)) {
      await expect(card.getByTestId(`slots-${kind}`)).toHaveText(headroomText(h));
      await expect(card.getByTestId(`slots-${kind}`)).toHaveAttribute("data-free", String(h.free));
    }
    // the master's fold (§5.2): an orphan row is draining too, and says "orphan" in words
    if (e.orphan) expect(e.draining).toBe(true);
    if (e.draining && !e.orphan) await expect(card.getByText("draining", { exact: true })).toBeVisible();
    if (e.orphan) await expect(card.getByText("orphan", { exact: true })).toBeVisible();
    // what runs where: the unfinished executions naming this executor
    for (const x of e.executions)
      await expect(card.locator(`[data-execution="${x.execution_id}"]`)).toHaveAttribute("data-target", x.target);
  }
  // the realistic fleet's shadow rows: two of master-a's three merge slots are reserved
  const masterA = page.locator('[data-testid="executor-card"][data-executor="master-a"]');
  // the realistic fleet's shadow rows: two of master-a's three merge slots hold the master's
  // shadow rows, which its next pass replaces: the verdicts use 3 free
  await expect(masterA.getByTestId("slots-merge_wal")).toHaveText(
    /^3 free · 3 total · 0 reserved · 2 shadow rows · \d+ legacy running$/,
  );
  await expect(masterA.getByTestId("slots-index_id")).toHaveText(
    "2 free · 2 total · 0 reserved · 0 shadow rows · 0 legacy running",
  );
  await expect(
    page
      .locator(`[data-testid="executor-card"][data-executor="${INCIDENT.drainingExecutor}"]`)
      .getByText("draining", { exact: true }),
  ).toBeVisible();
  // the incident scenario's two worker merges run on worker-1 (as their table pages say)
  const worker = body.executors.find((e) => e.executions.some((x) => x.target === INCIDENT.mergingTarget));
  expect(worker?.executions.map((x) => x.target).sort()).toEqual(
    [INCIDENT.mergingTarget, INCIDENT.stalledTarget].sort(),
  );
  const orphan = page.locator(`[data-testid="executor-card"][data-executor="${INCIDENT.orphanExecutor}"]`);
  await expect(orphan.getByText("orphan", { exact: true })).toBeVisible();
  await expect(orphan).toContainText(INCIDENT.orphanUnitId);
  await expect(orphan.getByRole("link", { name: INCIDENT.orphanTarget })).toBeVisible();
  // one headroom, named: free is what the verdicts use, the shadow rows and legacy executions beside it
  await expect(page.getByTestId("headroom-note")).toContainText("Free is what every verdict uses");
  for (const e of body.executors) {
    const card = page.locator(`[data-testid="executor-card"][data-executor="${e.id}"]`);
    if (e.bytes.total > 0 && e.bytes.reserved > e.bytes.total)
      await expect(card.getByTestId("overcommitted")).toContainText(`over by`);
    if (e.orphan) await expect(card.getByText("draining", { exact: true })).toHaveCount(0);
    // where legacy executions outnumber the free slots, a plain note says P1 does not count them
    for (const [kind, h] of Object.entries(e.slots))
      await expect(card.getByTestId(`legacy-note-${kind}`)).toHaveCount(h.legacy_running > h.free ? 1 : 0);
  }
  // the incident scenario's worker-1 runs two merges outside any assignment
  const worker1 = body.executors.find((e) => e.id === worker!.id)!;
  expect(worker1.slots.merge_wal.legacy_running).toBeGreaterThanOrEqual(2);
  // shadow rows are never bound in P1, so never overdue
  const assignments = await api<AssignmentsResponse>("/api/v1/scheduler/assignments");
  const shadowUnit = assignments.assignments.find((a) => a.state === "shadow");
  if (shadowUnit)
    await expect(page.getByRole("row").filter({ hasText: shadowUnit.unit_id })).not.toContainText("overdue");
  if (body.totals.unbudgeted > 0)
    await expect(page.getByTestId("bytes-free-total")).toContainText(`${body.totals.unbudgeted} executor`);
  await screenshot(page, "executors");
});
