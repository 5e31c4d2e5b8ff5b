// `/failures`: needs-attention first, next-retry countdowns and the error text.
import type { FailuresResponse } from "@/lib/schema/api/failures";
import { api, expect, screenshot, test } from "./support/fixtures";
import { INCIDENT } from "./support/scenario";

test("lists the ledger with needs-attention first and the cooldowns", async ({ page }) => {
  const body = await api<FailuresResponse>("/api/v1/scheduler/failures");
  expect(body.failures.length, "the seeded scenario has failures").toBeGreaterThan(0);
  await page.goto("/failures");
  const rows = page.getByTestId("failure-row");
  await expect(rows).toHaveCount(body.failures.length);
  // both needs-attention rows come first, the sooner retry (broken-store, ~50 min) on top
  await expect(rows.nth(0)).toContainText(INCIDENT.brokenStore);
  await expect(rows.nth(0)).toContainText("needs attention");
  await expect(rows.nth(0)).toContainText("Not found: s3://lake/broken-store/_versions/17.manifest");
  // its retry time, counted from now (seeded ~50 min ahead; a slow run has used some of it)
  const retry = body.failures.find((f) => f.target === INCIDENT.brokenStore && f.needs_attention)!.next_retry_ms;
  const minutes = Math.floor((retry - Date.now()) / 60_000);
  await expect(rows.nth(0)).toContainText(new RegExp(`in (${minutes}|${minutes - 1})m \\d\\ds`));
  await expect(rows.nth(1)).toContainText(INCIDENT.brokenStoreRepeat);
  await expect(rows.nth(1)).toContainText("needs attention");
  await expect(rows.nth(1)).toContainText("temporary storage failure: 503 slow down");
  // the retryable master:compact row is due in under two minutes
  await expect(rows.nth(2)).toContainText("master:compact");
  // (seeded ~90 s ahead of the stack's start: by the time this spec runs it may be due)
  const compact = body.failures.find((f) => f.endpoint === "master:compact")!;
  expect(compact.next_retry_ms - Date.now()).toBeLessThan(120_000);
  await expect(rows.nth(2)).toContainText(
    compact.next_retry_ms > Date.now() + 2000
      ? /in 1m \d\ds|in \d+s|due now/
      : /due now|in \d+s|overdue by (\d+m )?\d+s/,
  );
  const cooldowns = page.getByTestId("cooldowns");
  await expect(cooldowns).toContainText("compaction failed: Not found: fragment 1207");
  await expect(cooldowns).toContainText("repair failed: timed out");
  // below its threshold a cooldown is not "expired": it never started
  await expect(cooldowns.getByTestId("cooldown-below-threshold")).toHaveText("2 of 3 failures, not cooling");
  await screenshot(page, "failures");
});
