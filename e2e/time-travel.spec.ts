// Time travel: `?revision=R` pins every page to a past revision and says "not live";
// "Live" returns to now.
import { e2eState, expect, screenshot, test } from "./support/fixtures";

test("pins a past revision, marks it not live, and returns to live", async ({ page }) => {
  const { seedRevision, changedRevision, changedTable } = e2eState();
  expect(changedRevision).toBeGreaterThan(seedRevision);
  await page.goto(`/tables/${encodeURIComponent(changedTable.target)}`);
  await expect(page.getByTestId("live-state")).toContainText("live");
  await expect(page.getByTestId("pending-generations")).toHaveText(changedTable.after.toLocaleString("en-US"));

  // pin through the header picker
  await page.getByRole("textbox", { name: "revision" }).fill(String(seedRevision));
  await page.getByRole("button", { name: "Pin" }).click();
  await expect(page).toHaveURL(new RegExp(`revision=${seedRevision}`));
  await expect(page.getByTestId("live-state")).toContainText(`NOT LIVE · pinned at rev ${seedRevision.toLocaleString("en-US")}`);
  await expect(page.getByTestId("shown-revision")).toContainText(`revision ${seedRevision.toLocaleString("en-US")}`);
  await expect(page.getByTestId("pending-generations")).toHaveText(changedTable.before.toLocaleString("en-US"));
  await screenshot(page, "time-travel-pinned");

  // navigation keeps the pin: the overview shows the same past revision
  await page.getByRole("link", { name: "Overview" }).click();
  await expect(page).toHaveURL(new RegExp(`/\\?revision=${seedRevision}`));
  await expect(page.getByTestId("shown-revision")).toContainText(`revision ${seedRevision.toLocaleString("en-US")}`);

  // Live drops the pin
  await page.getByRole("button", { name: "Live" }).click();
  await expect(page).not.toHaveURL(/revision=/);
  await expect(page.getByTestId("live-state")).not.toContainText("NOT LIVE");
});
