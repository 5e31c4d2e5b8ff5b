// axe-core on every page of the console, live data, both colour schemes: no serious or
// critical violation. Pages that show more on interaction (an open outcome list, the
// trend table) are checked opened.
import fs from "node:fs";
import path from "node:path";
import { axeViolations, blocking } from "./support/axe";
import { expect, test } from "./support/fixtures";
import { GIANT_TABLE, INCIDENT } from "./support/scenario";

const t = (target: string) => `/tables/${encodeURIComponent(target)}`;

/** Every page; /diff only where the build has it. */
/** `ready`: a test id, or a CSS selector when it has a space. */
const PAGES: { path: string; ready: string; open?: string }[] = [
  { path: "/", ready: "total-tables" },
  { path: "/tables", ready: "table-row" },
  { path: "/tables?q=incident&sort=wait&order=desc", ready: "table-row" },
  { path: t(INCIDENT.mergingTarget), ready: "why-not" },
  { path: t(INCIDENT.brokenStore), ready: "why-not" },
  { path: t(GIANT_TABLE), ready: "why-not" },
  { path: t(INCIDENT.phantomQueued), ready: "table-not-found" },
  { path: "/executors", ready: "executor-card" },
  { path: "/shadow?open=phantom_task&open=running", ready: "outcome-tables-phantom_task", open: "shadow-trend-table" },
  { path: "/failures", ready: "failure-ledger" },
  { path: "/skipped", ready: "skipped-list" },
  { path: "/policies", ready: "policies-list" },
  { path: `/policies/${encodeURIComponent(INCIDENT.mergingTarget)}`, ready: "policy-read-view" },
  { path: "/audit", ready: "main h1" },
  { path: "/canary", ready: "canary-samples" },
  { path: "/facts", ready: "facts-tables" },
  ...(fs.existsSync(path.resolve(__dirname, "../app/(console)/diff/page.tsx"))
    ? [{ path: "/diff", ready: "main h1" }]
    : []),
];

for (const scheme of ["dark", "light"] as const) {
  test.describe(`${scheme} scheme`, () => {
    // the phantom table's page asks for its demand and is told 404 (it has none): expected
    test.use({ colorScheme: scheme, allowConsoleErrors: [/status of 404 .*demand\?target=incident%2Fphantom/] });
    for (const p of PAGES) {
      test(`${p.path} has no serious or critical axe violation`, async ({ page }) => {
        await page.goto(p.path);
        await expect((p.ready.includes(" ") ? page.locator(p.ready) : page.getByTestId(p.ready)).first()).toBeVisible();
        // the data, not the loading state: nothing on the page is still busy
        await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
        if (p.open) await page.getByTestId(p.open).locator("summary").click();
        const found = blocking(await axeViolations(page));
        expect(found, `axe on ${p.path} (${scheme})`).toEqual([]);
      });
    }
  });
}
