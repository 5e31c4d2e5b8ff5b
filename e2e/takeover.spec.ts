// From canary to takeover in Chromium (console-api.md "The takeover gate and the canary
// evidence"): the canary report over a window (levels, trend, the rising warning, chronic
// tables and their CSV), the fleet facts with "preview this default" opening the guarded
// editor prefilled, and the takeover gates before review, a save to mode planner refused
// with them, then saved with the failing gates overridden (a second reason), as the audit says. Runs its own small etcd + console (an admin token, a policy-aware version, no
// sampler: the seeded samples are the whole history), like policies.spec.ts.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import type { Page } from "@playwright/test";
import { startApp, type RunningApp } from "../test/support/app";
import { startEtcd, type EtcdCluster } from "../test/support/etcd";
import { EtcdHttp } from "../test/support/etcd-http";
import { POLICY_TABLES, seedPolicyFleet } from "../test/integration/policies/fleet";
import { journalChunkKv, journalEvaluation, sampleKv, taskKvs } from "../test/integration/takeover/seed";
import { expect, screenshot, test } from "./support/fixtures";

const ADMIN = `adm-${randomBytes(12).toString("hex")}`;
const PREFIX = "/e2e-takeover/lance-context/master";
const TARGET = POLICY_TABLES[0];

let etcd: EtcdCluster;
let gateway: EtcdHttp;
let app: RunningApp;

test.use({ allowConsoleErrors: [/status of 409/] });
test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  etcd = await startEtcd();
  gateway = new EtcdHttp(etcd.endpoints.split(",")[0]);
  const now = Date.now();
  const put = (k: string, v: string) => gateway.put(k, v);
  await seedPolicyFleet(put, PREFIX, now); // one resident master at version "test": not policy-aware
  for (const kv of taskKvs(PREFIX, now, TARGET)) await put(...kv);
  for (let k = 0; k <= 24; k++) await put(...sampleKv(PREFIX, now, k)); // two hours of samples
  // three days of decision journal with the table in the plan (the gate asks for seven)
  await gateway.put(
    ...journalChunkKv(PREFIX, {
      kind: "after_no_sampler",
      from_ms: now - 3 * 86_400_000,
      to_ms: now - 1000,
      evaluations: [journalEvaluation(10, now - 3 * 86_400_000, [TARGET])],
    }),
  );
  app = await startApp({
    ETCD_ENDPOINTS: etcd.endpoints,
    ETCD_PREFIX: PREFIX,
    CONSOLE_ADMIN_TOKENS: ADMIN,
    CONSOLE_SHADOW_SAMPLER: "off",
    CONSOLE_POLICY_AWARE_VERSION: "0.43.0",
    NEXT_TELEMETRY_DISABLED: "1",
  });
});

test.afterAll(async () => {
  await app?.stop();
  await etcd?.stop();
});

async function signIn(page: Page, next: string): Promise<void> {
  await page.goto(`${app.url}/signin?next=${encodeURIComponent(next)}`);
  await page.locator("#token").fill(ADMIN);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((u) => !u.pathname.startsWith("/signin"));
}

test("the canary report reads the window as observations: trend, warning, chronic tables and their CSV", async ({
  page,
}) => {
  await page.goto(`${app.url}/canary?window_ms=3600000`);
  await expect(page.getByTestId("canary-samples")).toHaveText("12 samples");
  await expect(page.getByTestId("not-enough-data")).toContainText("fewer than 50 samples");
  await expect(page.getByTestId("rising-warning")).toContainText(
    "discovery misses among tables in legacy mode rose over the window (from 229 to 240, 288 a day)",
  );
  await expect(page.getByTestId("canary-outcome-discovery_miss")).toContainText("should trend down");
  await expect(page.getByTestId("agreement-share")).toContainText("75.0 %");
  await expect(page.getByTestId("chronic-list").getByRole("row")).toHaveCount(2);
  await expect(page.getByTestId("chronic-list")).toContainText("t/chronic");
  const download = page.waitForEvent("download");
  await page.getByTestId("chronic-csv").click();
  const csv = fs.readFileSync((await (await download).path())!, "utf8");
  expect(csv).toBe("target,outcome,share,samples,mode\r\nt/chronic,discovery_miss,1.0000,12,legacy\r\n");
  await screenshot(page, "canary");
  // the 6 h window holds all 25 samples: still under 50
  await page.getByTestId("window-picker").getByRole("button", { name: "6 h" }).click();
  await expect(page).toHaveURL(/window_ms=21600000/);
  await expect(page.getByTestId("canary-samples")).toHaveText("25 samples");
});

test("the facts page says what the fleet implies, and 'preview this default' opens the guarded editor prefilled", async ({
  page,
}) => {
  await signIn(page, "/facts?window_ms=3600000");
  await page.goto(`${app.url}/facts?window_ms=3600000`);
  await expect(page.getByTestId("task-merge_wal")).toContainText("20.0 %");
  await expect(page.getByTestId("implied-wait")).toHaveText("200 s");
  await expect(page.getByTestId("implied-critical")).toHaveText("8");
  await screenshot(page, "facts");
  await page.getByTestId("preview-default").click();
  await expect(page.getByTestId("policy-title")).toContainText("_default");
  await expect(page.getByLabel("Critical pending generations", { exact: true })).toHaveValue("8");
  await expect(page.getByLabel("Longest wait for a turn (WAL merge)", { exact: true })).toHaveValue("200");
  // the review shows the blast radius before anything is saved
  await page.getByRole("button", { name: "Review changes" }).click();
  await expect(page.getByTestId("preview")).toBeVisible();
});

test("the editor shows the takeover gates before review, and a save to mode planner is refused with them", async ({
  page,
}) => {
  await signIn(page, `/policies/${encodeURIComponent(TARGET)}`);
  await page.goto(`${app.url}/policies/${encodeURIComponent(TARGET)}`);
  const gates = page.getByTestId("takeover-gates");
  await expect(gates.getByTestId("gate-fleet_homogeneous")).toHaveAttribute("data-ok", "false");
  await expect(gates.getByTestId("gate-fleet_homogeneous")).toContainText(
    "0 of 1 masters apply policies (0.43.0 or later); exec-a runs test.",
  );
  await expect(gates.getByTestId("gate-observed_days")).toContainText(
    "2.9 of 7 days of shadow observations of orders/eu in the decision journal",
  );
  await expect(gates.getByTestId("gate-evidence_read")).toHaveAttribute("data-ok", "false");
  // opened from the canary report, the evidence gate passes
  const digest = ((await (await fetch(`${app.url}/api/v1/canary?window_ms=86400000`)).json()) as { digest: string })
    .digest;
  await page.goto(`${app.url}/policies/${encodeURIComponent(TARGET)}?evidence=${digest}`);
  await expect(gates.getByTestId("gate-evidence_read")).toHaveAttribute("data-ok", "true");
  await screenshot(page, "takeover-gates");
  await page.getByLabel("Scheduling mode", { exact: true }).selectOption("planner");
  await page.getByRole("button", { name: "Review changes" }).click();
  await page.getByRole("button", { name: "Save…" }).click();
  const dialog = page.locator("dialog[open]");
  await dialog.getByLabel(/Why are you making this change/).fill("take over orders/eu");
  await dialog.getByRole("button", { name: "Confirm save" }).click();
  await expect(
    page.getByText(/Not saved: takeover_not_ready: orders\/eu cannot switch to mode planner yet/),
  ).toBeVisible();
  const stored = (await (await fetch(`${app.url}/api/v1/policies/${encodeURIComponent(TARGET)}`)).json()) as {
    stored: unknown;
  };
  expect(stored.stored).toBeNull();

  // the admin overrides the two failing gates with a second reason; the save goes through
  const refused = page.getByTestId("takeover-refused");
  const override = refused.getByTestId("gate-override");
  await expect(override.getByRole("checkbox")).toHaveCount(2);
  await override.getByRole("checkbox", { name: /Every master applies policies/ }).check();
  await expect(override.getByTestId("override-problem")).toHaveText(
    "Every failing gate must be overridden (or met) for the save to go through.",
  );
  await override.getByRole("checkbox", { name: /Enough days of shadow observations/ }).check();
  await expect(override.getByRole("button", { name: "Save with the gates overridden" })).toBeDisabled();
  await override.getByLabel(/Why override these gates/).fill("master-b upgrade signed off; 3 days are enough here");
  await screenshot(page, "takeover-override");
  await override.getByRole("button", { name: "Save with the gates overridden" }).click();
  await expect(page.getByTestId("saved")).toBeVisible();
  const after = (await (await fetch(`${app.url}/api/v1/policies/${encodeURIComponent(TARGET)}`)).json()) as {
    stored: { mode?: string } | null;
  };
  expect(after.stored?.mode).toBe("planner");

  // the audit says which gates were overridden, and why
  await page.goto(`${app.url}/audit?target=${encodeURIComponent(TARGET)}`);
  const entry = page.getByTestId("audit-entry").first();
  await expect(entry.getByTestId("audit-reason")).toHaveText("Reason: take over orders/eu");
  await expect(entry.getByTestId("audit-override")).toHaveText(
    "Overrode the takeover gates “Every master applies policies”, “Enough days of shadow observations”. Why: master-b upgrade signed off; 3 days are enough here",
  );
});
