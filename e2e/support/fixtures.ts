// Shared e2e pieces: the seeded stack's URLs (from global-setup via env), a fixture that
// fails any test whose page logged a console error, and 1440×900 screenshots.
import { test as base, expect, type Page } from "@playwright/test";
import fs from "node:fs";
import path from "node:path";

export interface E2eState {
  url: string;
  etcdEndpoints: string;
  prefix: string;
  /** revision right after the seed, before the follow-up change (for time travel) */
  seedRevision: number;
  /** revision after the follow-up change */
  changedRevision: number;
  /** the table the follow-up change touched, and its pending generations before/after */
  changedTable: { target: string; before: number; after: number };
}

export function e2eState(): E2eState {
  const raw = process.env.E2E_STATE;
  if (!raw) throw new Error("E2E_STATE is not set: run through playwright.config.ts (global-setup)");
  return JSON.parse(raw) as E2eState;
}

const SCREENSHOTS = path.resolve(__dirname, "../screenshots");

/** A 1440×900 screenshot (the viewport); `fullPage` adds the whole page below the fold. */
export async function screenshot(page: Page, name: string, opts: { fullPage?: boolean } = {}): Promise<void> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: opts.fullPage ?? false });
}

/** How often `api` asks again after etcd timed a read out (504 etcd_timeout: an overloaded machine, not an answer). */
const TIMEOUT_RETRIES = 2;

/** GET a console API path on the seeded app (to compare the page with the API). */
export async function api<T>(pathAndQuery: string): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(`${e2eState().url}${pathAndQuery}`);
    if (res.ok) return (await res.json()) as T;
    const text = await res.text();
    if (res.status === 504 && text.includes('"etcd_timeout"') && attempt < TIMEOUT_RETRIES) continue;
    throw new Error(`${pathAndQuery}: HTTP ${res.status} ${text}`);
  }
}

export const test = base.extend<{ consoleErrors: string[]; allowConsoleErrors: RegExp[] }>({
  baseURL: async ({}, use) => use(e2eState().url),
  allowConsoleErrors: [[], { option: true }],
  // Every page must log no console error. Collected for the whole test, checked after.
  consoleErrors: [
    async ({ page, allowConsoleErrors }, use) => {
      const errors: string[] = [];
      page.on("console", (msg) => {
        if (msg.type() !== "error") return;
        const text = `${msg.text()} @ ${msg.location().url}`;
        if (!allowConsoleErrors.some((re) => re.test(text))) errors.push(text);
      });
      page.on("pageerror", (err) => {
        const text = `pageerror: ${err.message}`;
        if (!allowConsoleErrors.some((re) => re.test(text))) errors.push(text);
        else console.log(`allowed on this test only: ${text.slice(0, 120)}`);
      });
      await use(errors);
      expect(errors, "console errors on the page").toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
