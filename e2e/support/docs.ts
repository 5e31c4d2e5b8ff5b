// README screenshots: the e2e suite writes them under docs/ on every run, so they show the
// console as it is (README.md "What it looks like").
import path from "node:path";
import type { Page } from "@playwright/test";

const DOCS = path.resolve(__dirname, "../../docs");

/** A 1440×900 light-scheme viewport screenshot at docs/<name>.png. */
export async function docsScreenshot(page: Page, name: string): Promise<void> {
  await page.emulateMedia({ colorScheme: "light" });
  await page.screenshot({ path: path.join(DOCS, `${name}.png`), animations: "disabled" });
  await page.emulateMedia({ colorScheme: "dark" });
}
