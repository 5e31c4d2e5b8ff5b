// Single sign-on and team rights in Chromium (console-api.md fourth version): a real OpenID
// Connect provider (oidc-provider on 127.0.0.2: another site than the console) with two people
// in different teams, a console configured with it and a rules file, the shared stack's etcd
// under a prefix of its own. Each person signs in through the provider's login form, saves a
// policy inside their globs (200, audited with their email and rule) and is refused outside
// them (403, etcd unchanged, read back from etcd); sign-out ends the session; an expired
// session is treated as signed out and said so; a provider that is down gives a clear page.
import "../lib/sim/node-entry"; // first: lets lib/etcd and lib/auth load outside Next
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Etcd3 } from "etcd3";
import type { Browser, Page } from "@playwright/test";
import { createRawEtcdClient } from "@/lib/etcd/raw";
import { readAuthConfig } from "@/lib/auth/config";
import { SESSION_TTL_SECS, signPersonSession } from "@/lib/auth/session";
import { startApp, type RunningApp } from "../test/support/app";
import { startOidcProvider, writeTeamRules, type RunningProvider } from "../test/support/oidc-provider";
import { freePort } from "../test/support/ports";
import { policyKey, seedPolicyFleet, seedTables } from "../test/integration/policies/fleet";
import { auditRecords, writtenFingerprint } from "../test/integration/policies/helpers";
import { e2eState, expect, test } from "./support/fixtures";

const PREFIX = "/e2e-sso/lance-context/master";
const ORDERS = "orders/eu";
const INCIDENT = "incident/db-failover";
const PEOPLE = {
  alice: { password: "alice-pw-e2e", email: "alice@orders.example", groups: ["team-orders"] },
  bob: { password: "bob-pw-e2e", email: "bob@incident.example", groups: ["team-incident"] },
};
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "e2e-sso-"));

let client: Etcd3;
let provider: RunningProvider;
let app: RunningApp;
let appEnv: Record<string, string>;

// the refusals under test are non-2xx fetches, which Chromium logs
test.use({ allowConsoleErrors: [/status of 40[13] /] });
test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const { etcdEndpoints } = e2eState();
  client = createRawEtcdClient({ endpoints: etcdEndpoints.split(","), callTimeoutMs: 30_000 });
  await client.delete().prefix(PREFIX).exec();
  const put = async (k: string, v: string) => Number((await client.put(k).value(v).exec()).header.revision);
  await seedPolicyFleet(put, PREFIX, Date.now());
  await seedTables(put, PREFIX, Date.now(), { [INCIDENT]: 5 });
  // the console's port first: the provider must know where to send people back
  const port = await freePort();
  const callback = `http://127.0.0.1:${port}/api/v1/session/oidc/callback`;
  provider = await startOidcProvider({ redirectUri: callback, people: PEOPLE });
  const rules = writeTeamRules(dir);
  appEnv = {
    ETCD_ENDPOINTS: etcdEndpoints,
    ETCD_PREFIX: PREFIX,
    NEXT_TELEMETRY_DISABLED: "1",
    CONSOLE_SESSION_SECRET: "e2e-sso-session-secret-0123456789abcdef",
    CONSOLE_OIDC_ISSUER: provider.issuer,
    CONSOLE_OIDC_CLIENT_ID: provider.clientId,
    CONSOLE_OIDC_CLIENT_SECRET: provider.clientSecret,
    CONSOLE_OIDC_REDIRECT_URL: callback,
    CONSOLE_RBAC_FILE: rules,
  };
  app = await startApp(appEnv, { port });
});

test.afterAll(async () => {
  await app?.stop();
  await provider?.stop();
  await client?.delete().prefix(PREFIX).exec();
  client?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** From the console's sign-in page through the provider's login form, back to `target`'s policy. */
async function signIn(browser: Browser, who: keyof typeof PEOPLE, target: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(`${app.url}/signin?next=${encodeURIComponent(`/policies/${encodeURIComponent(target)}`)}`);
  await page.getByTestId("sso-sign-in").click();
  await expect(page).toHaveURL(new RegExp(`^${provider.issuer}/interaction/`));
  await page.getByLabel("Username").fill(who);
  await page.getByLabel("Password").fill(PEOPLE[who].password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(`${app.url}/policies/${encodeURIComponent(target)}`);
  await expect(page.getByTestId("session-bar")).toContainText(`Signed in as ${PEOPLE[who].email} (admin)`);
  return page;
}

/** Review → Save… → reason → Confirm save, as an admin does; answers once "saved" shows. */
async function saveThroughForm(page: Page, target: string, minGenerations: string, reason: string): Promise<void> {
  await page.getByLabel("Minimum pending generations", { exact: true }).fill(minGenerations);
  await page.getByRole("button", { name: "Review changes" }).click();
  await expect(page.getByTestId("preview")).toBeVisible({ timeout: 60_000 });
  await page.getByRole("button", { name: "Save…" }).click();
  const dialog = page.locator("dialog[open]");
  await dialog.getByLabel(/Why are you making this change/).fill(reason);
  if ((await dialog.getByTestId("confirm-name").count()) > 0) await dialog.getByTestId("confirm-name").fill(target);
  await dialog.getByRole("button", { name: "Confirm save" }).click();
  await expect(page.getByTestId("saved")).toBeVisible({ timeout: 60_000 });
}

/** A PUT from the page itself (same origin, the browser's own cookie), as the form sends it. */
async function putFromPage(page: Page, target: string): Promise<{ status: number; body: any }> {
  return page.evaluate(async (t) => {
    const res = await fetch(`/api/v1/policies/${encodeURIComponent(t)}`, {
      method: "PUT",
      headers: { "content-type": "application/json", "if-match": "0", "x-change-reason": "outside my team (e2e)" },
      body: JSON.stringify({ merge: { min_generations: 2 } }),
    });
    return { status: res.status, body: await res.json() };
  }, target);
}

const stored = async (target: string) => JSON.parse((await client.get(policyKey(PREFIX, target)).string()) ?? "null");

test("each person saves inside their team's globs (200, audited with their email) and is refused outside them (403, etcd unchanged)", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  for (const [who, own, other, glob] of [
    ["alice", ORDERS, INCIDENT, "orders/*"],
    ["bob", INCIDENT, ORDERS, "incident/*"],
  ] as const) {
    const page = await signIn(browser, who, own);
    await expect(page.getByTestId("admin-targets")).toHaveText(`· may change ${glob}`);
    await saveThroughForm(page, own, "3", `${who} tunes the team's table (e2e)`);
    expect(await stored(own)).toEqual({ v: 1, merge: { min_generations: 3 } });
    const audit = (await auditRecords(client, PREFIX)).find((r) => r.target === own);
    expect(audit).toMatchObject({
      actor: PEOPLE[who].email,
      rule: { source: "rbac_file", subject: `group team-${who === "alice" ? "orders" : "incident"}`, glob },
    });

    // the other team's table: no edit controls, and why
    await page.goto(`${app.url}/policies/${encodeURIComponent(other)}`);
    await expect(page.getByTestId("policy-read-view")).toBeVisible();
    await expect(page.getByRole("button", { name: "Review changes" })).toHaveCount(0);
    await expect(page.getByTestId("read-only-why")).toHaveText(
      `${PEOPLE[who].email} may change the policies of ${glob} only; ${other} is outside them.`,
    );
    // and a save sent anyway is refused before anything is written
    const before = await writtenFingerprint(client, PREFIX);
    const refused = await putFromPage(page, other);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("forbidden");
    expect(refused.body.error.admin_targets).toEqual([glob]);
    expect(await writtenFingerprint(client, PREFIX)).toBe(before);
    await page.context().close();
  }
  expect(await stored(ORDERS)).toEqual({ v: 1, merge: { min_generations: 3 } });
  expect(await stored(INCIDENT)).toEqual({ v: 1, merge: { min_generations: 3 } });
});

test("the audit finds a person's change by their email and says which rule allowed it", async ({ browser }) => {
  const page = await signIn(browser, "alice", ORDERS);
  await page.goto(`${app.url}/audit?actor=${encodeURIComponent("Alice@Orders.example")}`);
  const entry = page.getByTestId("audit-entry");
  await expect(entry).toHaveCount(1);
  await expect(entry.getByTestId("audit-actor")).toHaveText(PEOPLE.alice.email);
  await expect(entry.getByTestId("audit-rule")).toHaveText(
    "Allowed by rule 0 of CONSOLE_RBAC_FILE (group team-orders), which covers orders/*.",
  );
  await page.context().close();
});

test("sign-out ends the console session", async ({ browser }) => {
  const page = await signIn(browser, "alice", ORDERS);
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/signin\?signed_out=1$/);
  await expect(page.getByText("Signed out.")).toBeVisible();
  await page.goto(`${app.url}/policies/${encodeURIComponent(ORDERS)}`);
  await expect(page.getByTestId("session-bar")).toHaveAttribute("data-role", "anonymous");
  await expect(page.getByRole("button", { name: "Review changes" })).toHaveCount(0);
  const before = await writtenFingerprint(client, PREFIX);
  expect((await putFromPage(page, ORDERS)).status).toBe(401);
  expect(await writtenFingerprint(client, PREFIX)).toBe(before);
  await page.context().close();
});

test("an expired session is treated as signed out, and the page says it expired", async ({ browser }) => {
  // a session alice got two hours ago from any replica sharing the secret
  const issuedAt = Date.now() - 2 * SESSION_TTL_SECS * 1000;
  const jwt = await signPersonSession(
    readAuthConfig(appEnv),
    { actor: PEOPLE.alice.email, groups: ["team-orders"] },
    issuedAt,
  );
  const context = await browser.newContext();
  await context.addCookies([{ name: "console_session", value: jwt, url: app.url, httpOnly: true, sameSite: "Strict" }]);
  const page = await context.newPage();
  await page.goto(`${app.url}/policies/${encodeURIComponent(ORDERS)}`);
  const expiredAt = new Date(Math.floor(issuedAt / 1000) * 1000 + SESSION_TTL_SECS * 1000)
    .toISOString()
    .replace("T", " ")
    .replace(/\.\d+Z$/, "Z");
  await expect(page.getByTestId("session-expired")).toHaveText(`Your session expired at ${expiredAt}: sign in again.`);
  await expect(page.getByTestId("session-bar")).toHaveAttribute("data-role", "anonymous");
  await expect(page.getByRole("button", { name: "Review changes" })).toHaveCount(0);
  const refused = await putFromPage(page, ORDERS);
  expect(refused.status).toBe(401);
  expect(refused.body.error.message).toBe(`Your session expired at ${expiredAt}: sign in again.`);
  await context.close();
});

test("a provider that is down gives a clear page, not a crash", async ({ page }) => {
  await provider.stop();
  await page.goto(`${app.url}/signin?next=${encodeURIComponent(`/policies/${encodeURIComponent(ORDERS)}`)}`);
  await page.getByTestId("sso-sign-in").click();
  await expect(page).toHaveURL(/\/signin\?sso_error=provider_unavailable&next=/);
  await expect(page.getByTestId("sso-error")).toHaveText(
    "The identity provider did not answer, so you cannot sign in with it right now. Try again in a moment, or sign in with a token.",
  );
  // the token form is still there, and an API client gets the typed error
  await expect(page.locator("#token")).toBeVisible();
  const api = await fetch(`${app.url}/api/v1/session/oidc/login?return_to=/policies`, {
    headers: { accept: "application/json" },
    redirect: "manual",
  });
  expect(api.status).toBe(503);
  expect(((await api.json()) as { error: { code: string } }).error.code).toBe("provider_unavailable");
  // the console itself carries on
  expect((await fetch(`${app.url}/api/v1/health`)).status).toBe(200);
});
