// axe-core on every page of the console (e2e/support/pages.ts), live data: no serious or
// critical violation, in both colour schemes at 1440×900 and on a phone (390×844). Pages that
// show more on interaction (an open outcome list, the trend table) are checked opened.
import { axeViolations, blocking } from "./support/axe";
import { expect, test } from "./support/fixtures";
import { PAGES, readySelector } from "./support/pages";

const SCREENS = [
  { name: "dark scheme", colorScheme: "dark" as const, viewport: { width: 1440, height: 900 } },
  { name: "light scheme", colorScheme: "light" as const, viewport: { width: 1440, height: 900 } },
  { name: "a phone (390×844, dark scheme)", colorScheme: "dark" as const, viewport: { width: 390, height: 844 } },
];

for (const screen of SCREENS) {
  test.describe(screen.name, () => {
    // the phantom table's page asks for its demand and is told 404 (it has none): expected
    test.use({
      colorScheme: screen.colorScheme,
      viewport: screen.viewport,
      allowConsoleErrors: [/status of (404 .*demand\?target=incident%2Fphantom|409 .*scheduler\/reasons)/],
    });
    for (const p of PAGES) {
      test(`${p.path} has no serious or critical axe violation`, async ({ page }) => {
        await page.goto(p.path);
        await expect(page.locator(readySelector(p.ready)).first()).toBeVisible();
        // the data, not the loading state: nothing on the page is still busy
        await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
        if (p.open) await page.getByTestId(p.open).locator("summary").click();
        const found = blocking(await axeViolations(page));
        expect(found, `axe on ${p.path} (${screen.name})`).toEqual([]);
      });
    }
  });
}
