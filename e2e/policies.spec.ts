// Policy administration in Chromium (issue 6): an admin signs in, lowers
// merge.min_generations for one table, sees the preview list its verdict change, confirms,
// and finds the new class on the table page and the change in the audit log; two admins
// race and the slower one gets the three-way conflict view; a viewer gets no edit controls.
// Runs its own small etcd + console (with admin and viewer tokens: the shared stack has
// none) so it needs nothing from the shared stack and cannot disturb it.
import { randomBytes } from "node:crypto";
import type { Browser, Page } from "@playwright/test";
import { startApp, type RunningApp } from "../test/support/app";
import { startEtcd, type EtcdCluster } from "../test/support/etcd";
import { EtcdHttp } from "../test/support/etcd-http";
import { EXECUTOR_ID, POLICY_TABLES, seedPolicyFleet } from "../test/integration/policies/fleet";
import { expect, screenshot, test } from "./support/fixtures";

const ADMIN = `adm-${randomBytes(12).toString("hex")}`;
const VIEWER = `view-${randomBytes(12).toString("hex")}`;
const PREFIX = "/e2e-policies/lance-context/master";

let etcd: EtcdCluster;
let app: RunningApp;

// a 412 answer is part of the conflict flow; Chromium logs every non-2xx fetch
test.use({ allowConsoleErrors: [/status of 412/] });
test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  etcd = await startEtcd();
  const gateway = new EtcdHttp(etcd.endpoints.split(",")[0]);
  await seedPolicyFleet((k, v) => gateway.put(k, v), PREFIX, Date.now());
  app = await startApp({ ETCD_ENDPOINTS: etcd.endpoints, ETCD_PREFIX: PREFIX, CONSOLE_ADMIN_TOKENS: ADMIN, CONSOLE_VIEWER_TOKENS: VIEWER, NEXT_TELEMETRY_DISABLED: "1" });
});

test.afterAll(async () => {
  await app?.stop();
  await etcd?.stop();
});

const policyUrl = (target: string) => `${app.url}/policies/${encodeURIComponent(target)}`;

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

test("an admin lowers merge.min_generations, previews the verdict change, saves, and sees class and audit", async ({ page }) => {
  const target = POLICY_TABLES[0];
  await signIn(page, ADMIN, target);
  const field = page.getByLabel("merge.min_generations", { exact: true });
  await expect(page.getByTestId("effective-merge.min_generations")).toContainText("8 built-in");
  await field.fill("2");
  await expect(page.getByTestId("effective-merge.min_generations")).toContainText("2 table");
  await expect(page.getByTestId("policy-diff").first()).toContainText("merge.min_generations");

  await page.getByRole("button", { name: "Review changes" }).click();
  const preview = page.getByTestId("preview");
  await expect(preview.getByTestId("preview-summary")).toContainText(`1 table changes class, score or verdict; ${POLICY_TABLES.length - 1} unchanged.`);
  const row = preview.locator(`[data-testid="preview-row"][data-target="${target}"]`);
  await expect(row).toBeVisible();
  // 5 pending generations: a tail under the built-in 8, due (normal) and placed under 2
  await expect(row.getByTestId("preview-verdict")).toHaveText(`would skip: tail_below_threshold → would place on ${EXECUTOR_ID}`);
  await expect(row.getByTestId("preview-class-before")).toHaveText("tail");
  await expect(row.getByTestId("preview-class-after")).toHaveText("normal");
  const promisedClass = "normal";
  await screenshot(page, "policy-preview");

  await page.getByRole("button", { name: "Save…" }).click();
  const confirm = page.getByTestId("confirm");
  await expect(confirm).toContainText(target);
  await expect(confirm).toContainText("1 table changes class, score or verdict.");
  await page.getByRole("button", { name: "Confirm save" }).click();
  await expect(page.getByTestId("saved")).toContainText("Saved (mod_revision");

  // the table detail shows the class the preview promised (once the live cache has the save)
  const demandClass = async () => {
    const res = await fetch(`${app.url}/api/v1/scheduler/demand?target=${encodeURIComponent(target)}`, { headers: { authorization: `Bearer ${VIEWER}` } });
    return ((await res.json()) as { table: { class: string } }).table.class;
  };
  await expect.poll(demandClass).toBe(promisedClass);
  await page.getByRole("link", { name: "Open the table" }).click();
  await expect(page.locator(`.page-title .badge.class-${promisedClass}`)).toBeVisible();

  await page.goto(`${app.url}/audit`);
  const entry = page.locator(`[data-testid="audit-entry"][data-target="${target}"]`).first();
  await expect(entry).toContainText("merge.min_generations");
  await expect(entry).toContainText(/admin:[0-9a-f]{12}/);
  await screenshot(page, "policy-audit");
});

test("two admins edit at once: the second to save gets the three-way conflict view and redoes the change", async ({ browser }) => {
  const target = POLICY_TABLES[1];
  const first = await adminPage(browser, target);
  const second = await adminPage(browser, target);

  await second.getByLabel("merge.max_age_secs", { exact: true }).fill("600");
  await second.getByRole("button", { name: "Review changes" }).click();
  await second.getByRole("button", { name: "Save…" }).click();
  await second.getByRole("button", { name: "Confirm save" }).click();
  await expect(second.getByTestId("saved")).toBeVisible();

  await first.getByLabel("merge.min_generations", { exact: true }).fill("3");
  await first.getByRole("button", { name: "Review changes" }).click();
  await first.getByRole("button", { name: "Save…" }).click();
  await first.getByRole("button", { name: "Confirm save" }).click();
  const conflict = first.getByTestId("conflict-view");
  await expect(conflict).toBeVisible();
  await expect(conflict.getByTestId("conflict-base")).toContainText("(no document: inherits)");
  await expect(conflict.getByTestId("conflict-current")).toContainText('"max_age_secs": 600');
  await expect(conflict.getByTestId("conflict-mine")).toContainText('"min_generations": 3');
  await screenshot(first, "policy-conflict");

  await conflict.getByRole("button", { name: "Redo my change on the stored version" }).click();
  await expect(first.getByLabel("merge.min_generations", { exact: true })).toHaveValue("3");
  await expect(first.getByLabel("merge.max_age_secs", { exact: true })).toHaveValue("600");
  await first.getByRole("button", { name: "Review changes" }).click();
  await first.getByRole("button", { name: "Save…" }).click();
  await first.getByRole("button", { name: "Confirm save" }).click();
  await expect(first.getByTestId("saved")).toBeVisible();
  const stored = (await (await fetch(`${app.url}/api/v1/policies/${encodeURIComponent(target)}`, { headers: { authorization: `Bearer ${VIEWER}` } })).json()) as { stored: unknown };
  expect(stored.stored).toEqual({ v: 1, merge: { min_generations: 3, max_age_secs: 600 } });
  await first.context().close();
  await second.context().close();
});

test("a viewer sees the effective policy and no edit controls", async ({ page }) => {
  const target = POLICY_TABLES[0];
  await signIn(page, VIEWER, target);
  await expect(page.getByTestId("policy-read-view")).toBeVisible();
  const api = (await (await fetch(`${app.url}/api/v1/policies/${encodeURIComponent(target)}`, { headers: { authorization: `Bearer ${VIEWER}` } })).json()) as {
    effective: { merge: { min_generations: number } };
    sources: { fields: Record<string, string> };
  };
  const source = api.sources.fields["merge.min_generations"] === "builtin" ? "built-in" : api.sources.fields["merge.min_generations"];
  await expect(page.getByTestId("effective-merge.min_generations")).toHaveText(`${api.effective.merge.min_generations} ${source}`);
  await expect(page.getByTestId("policy-editor")).toHaveCount(0);
  await expect(page.locator("main input:not([type=hidden]), main select, main textarea")).toHaveCount(0);
  await expect(page.getByRole("button", { name: /Review changes|Delete override|reset to inherited/ })).toHaveCount(0);
  await page.goto(`${app.url}/policies`);
  await expect(page.getByTestId("policies-list")).toContainText("_default (fleet default)");
  await expect(page.getByRole("button", { name: "Open policy to edit" })).toHaveCount(0);
});
