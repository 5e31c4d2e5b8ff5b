// Policy administration in Chromium (console-api.md policies, Additions "Policy edits an
// admin can trust"): an admin lowers a threshold, reviews the blast radius, confirms in a
// modal dialog with a reason, and the table page shows the new class at once (read your
// writes); a fleet-default save asks for the target's name and warns about the write
// cliff; validation names field, range and value and moves focus; a moved fleet answers
// "stale" and the fresh preview saves; two admins race and the three-way view asks which
// value wins; the audit shows the reason and reverts; a viewer gets no edit controls.
// Runs its own small etcd + console (with admin and viewer tokens: the shared stack has
// none) so it needs nothing from the shared stack and cannot disturb it.
import { randomBytes } from "node:crypto";
import path from "node:path";
import type { Browser, Page } from "@playwright/test";
import { startApp, type RunningApp } from "../test/support/app";
import { startEtcd, type EtcdCluster } from "../test/support/etcd";
import { EtcdHttp } from "../test/support/etcd-http";
import { EXECUTOR_ID, POLICY_TABLES, seedPolicyFleet, seedTables } from "../test/integration/policies/fleet";
import { expect, screenshot, test } from "./support/fixtures";

const ADMIN = `adm-${randomBytes(12).toString("hex")}`;
const VIEWER = `view-${randomBytes(12).toString("hex")}`;
const PREFIX = "/e2e-policies/lance-context/master";

let etcd: EtcdCluster;
let gateway: EtcdHttp;
let app: RunningApp;

// 409 and 412 answers are part of the stale and conflict flows; Chromium logs every non-2xx fetch
test.use({ allowConsoleErrors: [/status of 4(09|12)/] });
test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  etcd = await startEtcd();
  gateway = new EtcdHttp(etcd.endpoints.split(",")[0]);
  await seedPolicyFleet((k, v) => gateway.put(k, v), PREFIX, Date.now());
  app = await startApp({
    ETCD_ENDPOINTS: etcd.endpoints,
    ETCD_PREFIX: PREFIX,
    CONSOLE_ADMIN_TOKENS: ADMIN,
    CONSOLE_VIEWER_TOKENS: VIEWER,
    NEXT_TELEMETRY_DISABLED: "1",
  });
});

test.afterAll(async () => {
  await app?.stop();
  await etcd?.stop();
});

const asViewer = { headers: { authorization: `Bearer ${VIEWER}` } };
const stored = async (target: string) =>
  (
    (await (await fetch(`${app.url}/api/v1/policies/${encodeURIComponent(target)}`, asViewer)).json()) as {
      stored: unknown;
    }
  ).stored;

async function signIn(page: Page, token: string, target: string): Promise<void> {
  await page.goto(`${app.url}/signin?next=${encodeURIComponent(`/policies/${encodeURIComponent(target)}`)}`);
  await page.locator("#token").fill(token);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("policy-title")).toContainText(target);
}

async function adminPage(browser: Browser, target: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, ADMIN, target);
  await expect(page.getByTestId("policy-editor")).toBeVisible();
  return page;
}

/** axe-core on the page as it is now: no serious or critical violation. */
async function expectAccessible(page: Page, what: string): Promise<void> {
  await page.addScriptTag({ path: path.resolve(__dirname, "../node_modules/axe-core/axe.min.js") });
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            ctx: Document,
          ) => Promise<{ violations: { id: string; impact: string | null; nodes: { target: unknown }[] }[] }>;
        };
      }
    ).axe;
    const result = await axe.run(document);
    return result.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.id}: ${JSON.stringify(v.nodes.map((n) => n.target))}`);
  });
  expect(violations, what).toEqual([]);
}

/** Review → Save… → the dialog: give a reason, confirm. */
async function reviewAndSave(page: Page, reason: string): Promise<void> {
  await page.getByRole("button", { name: "Review changes" }).click();
  await page.getByRole("button", { name: "Save…" }).click();
  const dialog = page.locator("dialog[open]");
  await expect(dialog).toBeVisible();
  await dialog.getByLabel(/Why are you making this change/).fill(reason);
  await dialog.getByRole("button", { name: "Confirm save" }).click();
}

test("an admin lowers the threshold, reviews the blast radius, saves with a reason, and the table shows the new class at once", async ({
  page,
}) => {
  const target = POLICY_TABLES[0];
  await signIn(page, ADMIN, target);
  // the table page first, so its data is in the browser's cache when we come back after the save
  await page.goto(`${app.url}/tables/${encodeURIComponent(target)}`);
  await expect(page.locator(".page-title .badge.class-tail")).toBeVisible();
  await page.getByRole("link", { name: "edit" }).click();
  await expect(page.getByTestId("policy-editor")).toBeVisible();
  await expect(page.getByTestId("mode-notice")).toContainText(
    "this policy's mode is legacy: the save changes the console's model and preview only",
  );
  // the modes are explained where they are chosen, under a P1 and a policy-aware master
  const guide = page.getByTestId("mode-guide");
  await guide.getByText("What each mode does under a P1 and a policy-aware (P2) master").click();
  await expect(guide.locator('[data-mode="frozen"]')).toContainText(
    "Policy-aware (P2) master: No new work is placed for the table at all",
  );
  await expect(guide.locator('[data-mode="planner"]')).toContainText(
    "P1 master: Nothing changes: a P1 master reads no policy",
  );
  // nothing edited yet: nothing to save, and the review button says so
  await expect(page.getByTestId("nothing-to-save")).toHaveText(
    "Nothing to save: the form equals the stored document. Change a field to review.",
  );
  await expect(page.getByRole("button", { name: "Review changes" })).toBeDisabled();
  const field = page.getByLabel("Minimum pending generations", { exact: true });
  await expect(page.getByTestId("effective-merge.min_generations")).toContainText("8 built-in");
  await field.fill("2");
  await expect(page.getByTestId("effective-merge.min_generations")).toContainText("2 table");

  await page.getByRole("button", { name: "Review changes" }).click();
  const preview = page.getByTestId("preview");
  await expect(preview.getByTestId("effect-placements_gained")).toHaveAttribute("data-count", "1");
  await expect(preview.getByTestId("effect-promoted")).toHaveAttribute("data-count", "1");
  await expect(preview.getByTestId("effect-placements_lost")).toHaveAttribute("data-count", "0");
  const row = preview.locator(`[data-testid="preview-row"][data-target="${target}"]`);
  // 5 pending generations: a tail under the built-in 8, due (normal) and placed under 2
  await expect(row.getByTestId("preview-verdict")).toHaveText(`skip: tail: not placed → place → ${EXECUTOR_ID}`);
  await expect(row.getByTestId("preview-class-after")).toHaveText("normal");
  // each count opens its tables
  await preview.getByTestId("effect-placements_gained").getByText("1 placement gained").click();
  await expect(preview.getByTestId("effect-placements_gained").getByTestId("effect-table")).toContainText(target);
  await screenshot(page, "policy-preview");

  await page.getByRole("button", { name: "Save…" }).click();
  const dialog = page.locator("dialog[open]");
  await expect(dialog).toBeVisible();
  const reason = dialog.getByLabel(/Why are you making this change/);
  await expect(reason).toBeFocused();
  // a table save that loses nothing needs no typed name, but always a reason
  await expect(dialog.getByTestId("confirm-name")).toHaveCount(0);
  await expect(dialog.getByRole("button", { name: "Confirm save" })).toBeDisabled();
  await expect(dialog.getByTestId("confirm-waiting")).toHaveText("Waiting for a reason (why you make this change).");
  await reason.fill("Merge orders/eu sooner: its readers see stale rows");
  await expect(dialog.getByTestId("confirm-waiting")).toHaveCount(0);
  await dialog.getByRole("button", { name: "Confirm save" }).click();
  await expect(page.getByTestId("saved")).toContainText("Saved (mod_revision");
  // the closed dialog hands focus to the outcome
  await expect(page.getByTestId("saved")).toBeFocused();
  // the stored document now carries v: 1, which is no setting: no phantom "v inherit → 1", nothing to save
  await expect(page.locator('[aria-label="stored vs proposed"]')).toHaveCount(0);
  await expect(page.getByText("No changes stored vs proposed.")).toBeVisible();
  await expect(page.getByTestId("nothing-to-save")).toBeVisible();

  // read your writes: the table page never shows the class from before the save (watched
  // across the client-side navigation, from the click until the new class shows)
  await page.evaluate(() => {
    const w = window as unknown as { sawOldClass: boolean };
    w.sawOldClass = false;
    new MutationObserver(() => {
      if (document.querySelector(".page-title .badge.class-tail")) w.sawOldClass = true;
    }).observe(document.body, { subtree: true, childList: true, attributes: true });
  });
  await page.getByRole("link", { name: "Open the table" }).click();
  await expect(page.locator(".page-title .badge.class-normal")).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { sawOldClass: boolean }).sawOldClass)).toBe(false);

  await page.goto(`${app.url}/audit`);
  const entry = page.locator(`[data-testid="audit-entry"][data-target="${target}"]`).first();
  await expect(entry).toContainText("merge.min_generations");
  await expect(entry.getByTestId("audit-reason")).toHaveText(
    "Reason: Merge orders/eu sooner: its readers see stale rows",
  );
  await expect(entry).toContainText(/admin:[0-9a-f]{12}/);
  await screenshot(page, "policy-audit");
});

test("a fleet-default save warns about the write cliff, leads with what it costs, and asks for the target's name", async ({
  page,
}) => {
  await signIn(page, ADMIN, "_default");
  await page.getByLabel("Minimum pending generations", { exact: true }).fill("100000");
  await page.getByLabel("Critical pending generations", { exact: true }).fill("100000");
  await page.getByRole("button", { name: "Review changes" }).click();
  // orders/eu has its own threshold (2): it keeps its placement; the others were tails already
  await expect(page.getByTestId("preview-warnings")).toContainText("above the 4,096-generation write cliff");
  await expect(page.getByTestId("preview-warnings")).toContainText("Sane range: 1 to 4,096 generations.");
  await page.getByRole("button", { name: "Save…" }).click();
  const dialog = page.locator("dialog[open]");
  await expect(dialog.getByTestId("blast-radius").locator("li").first()).toHaveAttribute(
    "data-testid",
    "effect-placements_lost",
  );
  await dialog.getByLabel(/Why are you making this change/).fill("trying a fleet-wide threshold");
  const confirm = dialog.getByRole("button", { name: "Confirm save" });
  await expect(confirm).toBeDisabled();
  await dialog.getByTestId("confirm-name").fill("_defaul");
  await expect(confirm).toBeDisabled();
  await expect(dialog.getByTestId("confirm-waiting")).toHaveText("Waiting for the name _default typed exactly.");
  await dialog.getByTestId("confirm-name").fill("_default");
  await expect(confirm).toBeEnabled();
  await screenshot(page, "policy-confirm");
  await expectAccessible(page, "the confirm dialog");
  // Esc cancels the native dialog, and focus returns to the button that opened it
  await page.keyboard.press("Escape");
  await expect(page.locator("dialog[open]")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Save…" })).toBeFocused();
  expect(await stored("_default")).toBeNull();
});

test("validation names every issue at once — field, bounds in words, the value as typed — and moves focus to the first error", async ({
  page,
}) => {
  await signIn(page, ADMIN, POLICY_TABLES[2]);
  await page.getByLabel("Minimum pending generations", { exact: true }).fill("0");
  await page.getByLabel("Age that doubles the score", { exact: true }).fill("abc");
  await page.getByLabel("Critical pending generations", { exact: true }).fill("99999999999999999999");
  // a cross-field issue beside the field issues, not after they are fixed
  await page.getByLabel("Backlog warning", { exact: true }).fill("10");
  await page.getByLabel("Backlog critical", { exact: true }).fill("5");
  // the effective column never takes a value that fails validation: it keeps the inherited one and says why
  await expect(page.getByTestId("effective-merge.max_age_secs")).toContainText("3600 built-in");
  await expect(page.getByTestId("effective-merge.max_age_secs")).not.toContainText("abc");
  await expect(page.getByTestId("unused-merge.max_age_secs")).toHaveText(
    "the typed value is not valid, so it is not used",
  );
  await expect(page.getByTestId("effective-merge.min_generations")).not.toContainText("0 table");
  await page.getByRole("button", { name: "Review changes" }).click();
  await expect(page.getByLabel("Minimum pending generations", { exact: true })).toBeFocused();
  await expect(page.getByTestId("error-merge.min_generations")).toHaveText(
    "Minimum pending generations must be a whole number between 1 and 9,007,199,254,740,991 (generations); you gave 0.",
  );
  await expect(page.getByTestId("error-merge.max_age_secs")).toHaveText(
    'Age that doubles the score must be a whole number between 1 and 9,007,199,254,740,991 (seconds); you gave "abc".',
  );
  await expect(page.getByTestId("error-merge.critical_generations")).toHaveText(
    "Critical pending generations must be a whole number between 1 and 9,007,199,254,740,991 (generations); you gave 99999999999999999999.",
  );
  await expect(page.getByLabel("Critical pending generations", { exact: true })).toHaveValue("99999999999999999999");
  await expect(page.getByTestId("error-backlog.critical_generations")).toHaveText(
    "Backlog critical must be at least Backlog warning, which is 10 generations; you gave 5.",
  );
  const summary = page.getByTestId("error-summary");
  await expect(summary).toContainText("4 fields need a change");
  await summary.getByRole("link", { name: "Age that doubles the score" }).click();
  await expect(page.getByLabel("Age that doubles the score", { exact: true })).toBeFocused();
  await expect(page.getByTestId("review")).toHaveCount(0);
  await expectAccessible(page, "the form with errors");
});

test("a fleet that moved between review and save: nothing is written, the form shows what changed, the fresh preview saves", async ({
  page,
}) => {
  const target = POLICY_TABLES[1];
  await signIn(page, ADMIN, target);
  await page.getByLabel("Minimum pending generations", { exact: true }).fill("3");
  await page.getByRole("button", { name: "Review changes" }).click();
  await expect(page.getByTestId("effect-placements_gained")).toHaveAttribute("data-count", "1");
  // meanwhile a due table with more pending work takes the executor's last free merge slot
  await seedTables((k, v) => gateway.put(k, v), PREFIX, Date.now(), { "e2e/hot-a": 40, "e2e/hot-b": 41 });
  await page.getByRole("button", { name: "Save…" }).click();
  const dialog = page.locator("dialog[open]");
  await dialog.getByLabel(/Why are you making this change/).fill("merge orders/us sooner");
  await dialog.getByRole("button", { name: "Confirm save" }).click();
  const stale = page.getByTestId("stale-notice");
  await expect(stale).toBeInViewport();
  await expect(stale).toBeFocused();
  // what changed, as target lists: orders/us (whose own records did not move) no longer gains its placement
  await expect(stale.getByTestId("stale-placements_gained")).toHaveText(`placements gained: no longer ${target}`);
  expect(await stored(target)).toBeNull();
  await stale.getByTestId("confirm-fresh").click();
  await expect(dialog.getByLabel(/Why are you making this change/)).toHaveValue("merge orders/us sooner");
  await dialog.getByRole("button", { name: "Confirm save" }).click();
  await expect(page.getByTestId("saved")).toBeVisible();
  expect(await stored(target)).toEqual({ v: 1, merge: { min_generations: 3 } });
});

test("two admins change the same field: the three-way view asks which value wins and never overwrites silently", async ({
  browser,
}) => {
  const target = POLICY_TABLES[2];
  const first = await adminPage(browser, target);
  const second = await adminPage(browser, target);

  await second.getByLabel("Minimum pending generations", { exact: true }).fill("6");
  await second.getByLabel("Age that doubles the score", { exact: true }).fill("600");
  await reviewAndSave(second, "second admin: faster aging");
  await expect(second.getByTestId("saved")).toBeVisible();

  await first.getByLabel("Minimum pending generations", { exact: true }).fill("4");
  await first.getByLabel("Backpressure", { exact: true }).selectOption("off");
  await reviewAndSave(first, "first admin: lower threshold");
  const conflict = first.getByTestId("conflict-view");
  await expect(conflict).toBeVisible();
  await expect(conflict).toBeFocused();
  // the version marker is not a change of either side
  await expect(conflict.locator('[data-path="v"]')).toHaveCount(0);
  const both = conflict.getByTestId("both-changed-field");
  await expect(both).toHaveCount(1);
  await expect(both).toHaveAttribute("data-path", "merge.min_generations");
  await expect(both).toContainText("theirs: 6");
  await expect(both).toContainText("mine: 4");
  const go = conflict.getByRole("button", { name: /Choose 1 value first/ });
  await expect(go).toBeDisabled();
  await screenshot(first, "policy-conflict");
  await expectAccessible(first, "the conflict view");
  await both.getByLabel("mine: 4").check();
  await conflict.getByRole("button", { name: "Continue with the combined change" }).click();
  await expect(first.getByLabel("Minimum pending generations", { exact: true })).toHaveValue("4");
  await expect(first.getByLabel("Age that doubles the score", { exact: true })).toHaveValue("600");
  await reviewAndSave(first, "first admin: lower threshold, keeping the faster aging");
  await expect(first.getByTestId("saved")).toBeVisible();
  expect(await stored(target)).toEqual({ v: 1, merge: { min_generations: 4, max_age_secs: 600 }, backpressure: "off" });
  await first.context().close();
  await second.context().close();
});

test("the audit shows each reason and diff, and reverts a change through an ordinary guarded save", async ({
  page,
}) => {
  const target = POLICY_TABLES[2];
  await signIn(page, ADMIN, target);
  await page.goto(`${app.url}/audit?target=${encodeURIComponent(target)}`);
  const newest = page.getByTestId("audit-entry").first();
  await expect(newest.getByTestId("audit-reason")).toHaveText(
    "Reason: first admin: lower threshold, keeping the faster aging",
  );
  await expectAccessible(page, "the audit page");
  await newest.getByTestId("revert").click();
  await expect(page.getByTestId("revert-notice")).toBeVisible();
  await expect(page.getByLabel("Minimum pending generations", { exact: true })).toHaveValue("6");
  await page.getByRole("button", { name: "Review changes" }).click();
  await page.getByRole("button", { name: "Save…" }).click();
  const dialog = page.locator("dialog[open]");
  await expect(dialog.getByLabel(/Why are you making this change/)).toHaveValue(
    /^Revert the change of .* by admin:[0-9a-f]{12}$/,
  );
  await dialog.getByRole("button", { name: "Confirm save" }).click();
  await expect(page.getByTestId("saved")).toBeVisible();
  expect(await stored(target)).toEqual({ v: 1, merge: { min_generations: 6, max_age_secs: 600 } });
});

test("deleting an override is previewed and confirmed like a save, and reverting the deletion restores it", async ({
  page,
}) => {
  const target = POLICY_TABLES[1];
  await signIn(page, ADMIN, target);
  await page.getByRole("button", { name: "Delete override" }).click();
  await expect(page.getByTestId("review")).toContainText("Review: delete the override");
  // orders/us goes back to the built-in 8: a tail again
  await expect(page.getByTestId("effect-demoted")).toHaveAttribute("data-count", "1");
  await page.getByRole("button", { name: "Delete…" }).click();
  const dialog = page.locator("dialog[open]");
  await dialog.getByLabel(/Why are you making this change/).fill("back to the fleet default");
  await dialog.getByRole("button", { name: "Confirm delete" }).click();
  await expect(page.getByTestId("saved")).toHaveText(/Override deleted\./);
  expect(await stored(target)).toBeNull();

  await page.goto(`${app.url}/audit?target=${encodeURIComponent(target)}`);
  const newest = page.getByTestId("audit-entry").first();
  await expect(newest).toContainText("deleted the override");
  await newest.getByTestId("revert").click();
  await expect(page.getByLabel("Minimum pending generations", { exact: true })).toHaveValue("3");
  await reviewAndSave(page, "restore the override");
  await expect(page.getByTestId("saved")).toBeVisible();
  expect(await stored(target)).toEqual({ v: 1, merge: { min_generations: 3 } });

  // reverting that restore (no override before it) deletes: the form says so, never "nothing to save" beside it
  await page.goto(`${app.url}/audit?target=${encodeURIComponent(target)}`);
  await page.getByTestId("audit-entry").first().getByTestId("revert").click();
  await expect(page.getByTestId("revert-notice")).toContainText("so reverting deletes it");
  await expect(page.getByTestId("revert-notice")).not.toContainText("holds the document from before");
  await expect(page.getByTestId("review")).toContainText("Review: delete the override");
  await expect(page.getByTestId("nothing-to-save")).toHaveCount(0);
});

test("a table save that loses a placement asks for the table's name", async ({ page }) => {
  const target = "e2e/hot-a";
  await signIn(page, ADMIN, target);
  await page.getByLabel("Minimum pending generations", { exact: true }).fill("100");
  await page.getByRole("button", { name: "Review changes" }).click();
  await expect(page.getByTestId("effect-placements_lost")).toHaveAttribute("data-count", "1");
  await page.getByRole("button", { name: "Save…" }).click();
  const dialog = page.locator("dialog[open]");
  await expect(dialog).toContainText("This save loses placements.");
  await dialog.getByLabel(/Why are you making this change/).fill("hold hot-a back during the backfill");
  const confirm = dialog.getByRole("button", { name: "Confirm save" });
  await expect(confirm).toBeDisabled();
  await dialog.getByTestId("confirm-name").fill(target);
  await confirm.click();
  await expect(page.getByTestId("saved")).toBeVisible();
  expect(await stored(target)).toEqual({ v: 1, merge: { min_generations: 100 } });
});

test("a viewer sees the effective policy and no edit controls; a pinned revision shows the policy stored then", async ({
  page,
}) => {
  const target = POLICY_TABLES[0];
  await signIn(page, VIEWER, target);
  await expect(page.getByTestId("policy-read-view")).toBeVisible();
  await expect(page.getByTestId("effective-merge.min_generations")).toHaveText("2 table");
  await expect(page.getByTestId("policy-editor")).toHaveCount(0);
  await expect(page.locator("main input:not([type=hidden]), main select, main textarea")).toHaveCount(0);
  await expect(page.getByRole("button", { name: /Review changes|Delete override|reset to inherited/ })).toHaveCount(0);
  // a link's proposed change (the facts page's "preview this default") is shown, never dropped silently
  await page.goto(
    `${app.url}/policies/_default?prefill=${encodeURIComponent(JSON.stringify({ merge: { min_generations: 2 } }))}`,
  );
  const proposed = page.getByTestId("proposed-change");
  await expect(proposed).toContainText("This link proposes a change");
  await expect(proposed.getByTestId("policy-diff").locator('[data-path="merge.min_generations"]')).toContainText("2");
  await proposed.getByTestId("preview-proposed").click();
  await expect(proposed.getByTestId("preview")).toBeVisible();
  await page.goto(`${app.url}/policies/${encodeURIComponent(target)}`);
  // before the first save, orders/eu inherited the built-in 8
  const audit = (await (
    await fetch(`${app.url}/api/v1/audit?target=${encodeURIComponent(target)}`, asViewer)
  ).json()) as { entries: { mod_revision: number }[] };
  const firstSave = audit.entries[audit.entries.length - 1].mod_revision;
  await page.goto(`${app.url}/policies/${encodeURIComponent(target)}?revision=${firstSave - 1}`);
  await expect(page.getByTestId("effective-merge.min_generations")).toHaveText("8 built-in");
  await page.goto(`${app.url}/audit?revision=${firstSave - 1}`);
  await expect(page.getByText("No policy changes up to this revision.")).toBeVisible();
  await page.goto(`${app.url}/policies`);
  await expect(page.getByTestId("policies-list")).toContainText("_default (fleet default)");
  await expect(page.getByRole("button", { name: "Open policy to edit" })).toHaveCount(0);
});
