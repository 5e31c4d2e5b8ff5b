// e2e: headless Chromium (Debian's /usr/bin/chromium, never `playwright install`) against a
// real `next start` and a real etcd seeded by the simulator (e2e/support/global-setup.ts).
import { defineConfig } from "@playwright/test";

const PAGE_SWEEPS = ["a11y.spec.ts", "screens.spec.ts"];

export default defineConfig({
  testDir: "e2e",
  testMatch: "*.spec.ts",
  // two at a time at most: the page sweeps (axe and the screen checks on every page, read
  // only) run two tests at once; the flows, which write, stop etcd or measure time, run one
  // at a time, beside at most one page sweep
  workers: 2,
  projects: [
    { name: "pages", testMatch: PAGE_SWEEPS, fullyParallel: true, workers: 2 },
    { name: "flows", testIgnore: PAGE_SWEEPS, fullyParallel: false, workers: 1 },
  ],
  retries: 0,
  timeout: 90_000,
  expect: { timeout: 20_000 },
  globalSetup: "./e2e/support/global-setup.ts",
  reporter: [["list"]],
  use: {
    viewport: { width: 1440, height: 900 },
    colorScheme: "dark",
    actionTimeout: 15_000,
    navigationTimeout: 45_000,
    trace: "off",
    screenshot: "off",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
});
