// etcd goes away: the banner says so with the snapshot age, the last good data stays on
// screen; etcd comes back: the banner goes and live data returns. Runs its own etcd + app
// so stopping etcd can't disturb the other specs.
import { startStack, type Stack } from "./support/stack";
import { expect, screenshot, test } from "./support/fixtures";
import { writerEvent } from "@/lib/planner/join";
import { publishDemandEvent } from "@/lib/sim/publish";
import type { DemandList } from "@/lib/schema/api/demand";
import { FLEET_PAGE_LIMIT } from "@/lib/client/resources/demand";

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
  const mastersAware = page.getByTestId("masters-aware");
  await expect(mastersAware).not.toBeEmpty();
  const masters = await mastersAware.textContent();
  await expect(page.getByTestId("masters-last-good")).toHaveCount(0);

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
  // the masters panel keeps its last good state too, as of the revision the console still holds
  const held = await (await fetch(`${stack.url}/api/v1/health`)).json();
  const lastGood = (held as { snapshot: { revision: number } }).snapshot.revision.toLocaleString("en-US");
  await expect(mastersAware).toHaveText(masters!);
  // (its next refresh, every 30 s, reads the held revision)
  await expect(page.getByTestId("masters-last-good")).toContainText(`the last good state, as of revision ${lastGood}`, {
    timeout: 45_000,
  });
  await screenshot(page, "etcd-unreachable");

  // a page opened fresh during the outage gets the last good data, under the banner
  const fresh = await page.context().newPage();
  await fresh.goto(`${stack.url}/`);
  await expect(fresh.getByTestId("total-tables")).toHaveText(shown!);
  await expect(fresh.getByTestId("etcd-banner")).toBeVisible({ timeout: 20_000 });
  await expect(fresh.getByTestId("live-state")).toContainText("stale");
  // one outage, one message: no panel repeats the error
  await expect(fresh.getByText(/Could not load|unavailable \(see above\)/)).toHaveCount(0);
  await expect(fresh.getByTestId("masters-aware")).toHaveText(masters!);
  await expect(fresh.getByTestId("masters-last-good")).toContainText(`as of revision ${lastGood}`);
  await fresh.goto(`${stack.url}/tables`);
  await expect(fresh.getByTestId("table-row").first()).toBeVisible();
  await fresh.close();

  await stack.etcd.members[0].start();
  await expect(banner).toHaveCount(0, { timeout: 60_000 });
  await expect(page.getByTestId("live-state")).toContainText("live");
  await expect(total).toHaveText(shown!);
  await expect(page.getByTestId("masters-last-good")).toHaveCount(0);
  await screenshot(page, "etcd-back");
});

/** more tables than one page of the fleet listing: the list a refresh must not cut to its first page */
const BULK_TABLES = FLEET_PAGE_LIMIT + 150;

test("/tables keeps its whole last good list through an outage, marked as of that revision", async ({ page }) => {
  test.setTimeout(240_000);
  const now = Date.now();
  const names = Array.from({ length: BULK_TABLES }, (_, i) => `bulk/t${String(i).padStart(4, "0")}`);
  for (let i = 0; i < names.length; i += 50)
    await Promise.all(
      names
        .slice(i, i + 50)
        .map((target) =>
          publishDemandEvent(
            stack.client,
            stack.state.prefix,
            target,
            writerEvent({ shard: "s1", sealed: 2, bytes: 2_000, epoch: 1, flushedAtMs: now }),
          ),
        ),
    );
  const live = async () => {
    const res = await fetch(`${stack.url}/api/v1/scheduler/demand?limit=1&include_idle=true`);
    return res.ok ? ((await res.json()) as DemandList) : null;
  };
  await expect.poll(async () => (await live())?.matched ?? 0, { timeout: 60_000 }).toBeGreaterThan(BULK_TABLES);
  const whole = (await live())!.matched!;
  const fmt = (n: number) => n.toLocaleString("en-US");

  await page.goto(`${stack.url}/tables`);
  const count = page.getByTestId("tables-count");
  // every page streamed in, and the listing's refresh has caught up with the whole fleet
  await expect(count).toContainText(`${fmt(whole)} of ${fmt(whole)} shown`, { timeout: 60_000 });
  const revision = await page.getByTestId("shown-revision").textContent();
  await expect(page.getByTestId("tables-last-good")).toHaveCount(0);

  await stack.etcd.members[0].kill();
  try {
    await expect(page.getByTestId("etcd-banner")).toBeVisible({ timeout: 45_000 });
    // the listing's refresh met the outage (it says so) and kept every row it had
    await expect(page.getByText("Showing last good tables")).toBeVisible({ timeout: 30_000 });
    await expect(count).toContainText(`${fmt(whole)} of ${fmt(whole)} shown`);
    // the page is pushed steps until etcd goes (the clock's plan every 5 s): the revision it
    // holds is the last one pushed, no older than the one read above, and the notice names it
    const revNum = (text: string | null) => Number(/revision ([\d,]+)/.exec(text ?? "")![1].replace(/,/g, ""));
    const held = await page.getByTestId("shown-revision").textContent();
    expect(revNum(held)).toBeGreaterThanOrEqual(revNum(revision));
    await expect(page.getByTestId("tables-last-good")).toContainText(
      `the last good list, as of revision ${fmt(revNum(held))}`,
    );
    await expect(page.getByTestId("shown-revision")).toHaveText(held!);
    await page.getByRole("searchbox").fill("bulk/t2149");
    await expect(count).toContainText(`1 of ${fmt(whole)} shown`);
    await screenshot(page, "tables-etcd-unreachable");
  } finally {
    await stack.etcd.members[0].start();
  }
  await expect(page.getByTestId("etcd-banner")).toHaveCount(0, { timeout: 60_000 });
  await expect(page.getByTestId("tables-last-good")).toHaveCount(0);
});
