// etcd goes away: the banner says so with the snapshot age, the last good data stays on
// screen; etcd comes back: the banner goes and live data returns. Runs its own etcd + app
// so stopping etcd can't disturb the other specs.
import { startStack, type Stack } from "./support/stack";
import { expect, screenshot, test } from "./support/fixtures";

let stack: Stack;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  stack = await startStack({ production: false });
});
test.afterAll(async () => {
  await stack?.stop();
});

// Failed fetches while etcd is down are expected network noise (503s), not page bugs.
test.use({ allowConsoleErrors: [/Failed to load resource: the server responded with a status of 50[34]/] });

test("keeps the last good data under an etcd-unreachable banner, then goes live again", async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto(`${stack.url}/`);
  const total = page.getByTestId("total-tables");
  await expect(total).not.toBeEmpty();
  const shown = await total.textContent();
  await expect(page.getByTestId("etcd-banner")).toHaveCount(0);

  await stack.etcd.members[0].kill();
  const banner = page.getByTestId("etcd-banner");
  await expect(banner).toBeVisible({ timeout: 45_000 });
  await expect(banner).toContainText("etcd unreachable");
  await expect(banner).toContainText("snapshot age");
  await expect(total).toHaveText(shown!); // kept data
  // the header agrees with the banner: stale, not "live"
  await expect(page.getByTestId("live-state")).toContainText("stale");
  await expect(page.getByTestId("live-state")).not.toContainText("live");
  await expect(page.getByTestId("stale-data")).toBeVisible();
  await screenshot(page, "etcd-unreachable");

  // a page opened fresh during the outage gets the last good data, under the banner
  const fresh = await page.context().newPage();
  await fresh.goto(`${stack.url}/`);
  await expect(fresh.getByTestId("total-tables")).toHaveText(shown!);
  await expect(fresh.getByTestId("etcd-banner")).toBeVisible({ timeout: 20_000 });
  await expect(fresh.getByTestId("live-state")).toContainText("stale");
  // one outage, one message: no panel repeats the error
  await expect(fresh.getByText(/Could not load|unavailable \(see above\)/)).toHaveCount(0);
  await fresh.goto(`${stack.url}/tables`);
  await expect(fresh.getByTestId("table-row").first()).toBeVisible();
  await fresh.close();

  await stack.etcd.members[0].start();
  await expect(banner).toHaveCount(0, { timeout: 60_000 });
  await expect(page.getByTestId("live-state")).toContainText("live");
  await expect(total).toHaveText(shown!);
  await screenshot(page, "etcd-back");
});
