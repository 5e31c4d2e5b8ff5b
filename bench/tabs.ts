// `npm run bench:tabs`: ten real Chromium tabs on /tables (each loads the fleet and
// re-reads it as the page does), then the console's CPU over a window, as % of one core:
// the `next start` process tree's CPU time from /proc before and after. Idle (target
// ≤ 10 %), and again with a writer changing 10 events a second. The tabs' API requests
// are counted by status (200 or 304) and by bytes received, so a page that revalidates
// instead of re-downloading shows it.
import "../lib/sim/node-entry";
import { chromium, type Browser, type Page } from "playwright-core";
import { runBench, writeResult } from "./harness";
import { loadAverage, round, sleep, treeCpuMs, withProductionStack, type BenchStack } from "./stack";
import { eventWriter } from "./visible";

/** ten by default; `BENCH_TABS=50` for the fifty idle tabs (written to bench/results/tabs-50.json) */
const TABS = Number(process.env.BENCH_TABS ?? 10);
const WINDOW_MS = Number(process.env.BENCH_TABS_WINDOW_MS ?? 30_000);
const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-background-timer-throttling",
  "--disable-renderer-backgrounding",
  "--disable-backgrounding-occluded-windows",
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: CHROMIUM_ARGS });
}

interface Traffic {
  requests: number;
  ok: number;
  not_modified: number;
  other: number;
  bytes: number;
}

const emptyTraffic = (): Traffic => ({ requests: 0, ok: 0, not_modified: 0, other: 0, bytes: 0 });

/**
 * The page's API traffic as the server answered it, from the DevTools protocol: a
 * revalidated response reaches the page (and Playwright's `response.status()`) as the
 * cached 200, so the server's own status is read from the raw response headers, and the
 * bytes are those on the wire (compressed, headers included).
 */
async function countApi(page: Page, traffic: { now: Traffic }): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  const api = new Set<string>();
  cdp.on("Network.requestWillBeSent", (e: { requestId: string; request: { url: string } }) => {
    if (e.request.url.includes("/api/v1/")) api.add(e.requestId);
  });
  cdp.on("Network.responseReceivedExtraInfo", (e: { requestId: string; statusCode: number }) => {
    if (!api.has(e.requestId)) return;
    const t = traffic.now;
    t.requests += 1;
    if (e.statusCode === 200) t.ok += 1;
    else if (e.statusCode === 304) t.not_modified += 1;
    else t.other += 1;
  });
  cdp.on("Network.loadingFinished", (e: { requestId: string; encodedDataLength: number }) => {
    if (api.delete(e.requestId)) traffic.now.bytes += e.encodedDataLength;
  });
  cdp.on("Network.loadingFailed", (e: { requestId: string }) => api.delete(e.requestId));
}

interface Window {
  seconds: number;
  console_cpu_ms: number;
  /** console CPU ÷ wall time of the window, in % of one core */
  cpu_pct_of_core: number;
  api: Traffic;
}

async function cpuWindow(pid: number, traffic: { now: Traffic }, ms: number): Promise<Window> {
  traffic.now = emptyTraffic();
  const cpu0 = treeCpuMs(pid);
  const t0 = performance.now();
  await sleep(ms);
  const cpu = treeCpuMs(pid) - cpu0;
  const wall = performance.now() - t0;
  return {
    seconds: round(wall / 1000),
    console_cpu_ms: cpu,
    cpu_pct_of_core: round((cpu / wall) * 100, 1),
    api: { ...traffic.now, bytes: Math.round(traffic.now.bytes) },
  };
}

export interface TabsResult {
  tabs: number;
  idle: Window;
  writer: Window;
  /** the same window with no tab open: what the console costs on its own */
  no_tabs: Window;
  target_pct: number;
  load_average: number[];
}

export async function measureTabs(stack: BenchStack, windowMs = WINDOW_MS): Promise<TabsResult> {
  const pid = stack.app.process.pid!;
  const traffic = { now: emptyTraffic() };
  const noTabs = await cpuWindow(pid, traffic, Math.min(windowMs, 10_000));
  const browser = await launchChromium();
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const pages: Page[] = [];
    for (let t = 0; t < TABS; t++) {
      const page = await context.newPage();
      await countApi(page, traffic);
      await page.goto(`${stack.app.url}/tables`);
      await page.waitForSelector('[data-testid="table-row"]', { timeout: 120_000 });
      pages.push(page);
    }
    // every tab holds the whole fleet (its later pages load after the first rows show), so
    // no first load's tail falls in the windows measured
    // ("N of N shown", N at least the seeded fleet: bench:figures adds the history's table)
    for (const page of pages)
      await page.waitForFunction(
        (n) => {
          const text = document.querySelector('[data-testid="tables-count"]')?.textContent ?? "";
          const m = /^([\d,]+) of ([\d,]+) shown/.exec(text);
          return m !== null && m[1] === m[2] && Number(m[1].replace(/,/g, "")) >= n;
        },
        stack.tables,
        { timeout: 300_000 },
      );
    stack.log(`${TABS} tabs show rows; measuring ${windowMs / 1000} s idle, then ${windowMs / 1000} s with the writer`);
    await sleep(2000);
    const idle = await cpuWindow(pid, traffic, windowMs);
    const writer = eventWriter(stack.etcd, stack.tables);
    writer.start();
    let loaded: Window;
    try {
      loaded = await cpuWindow(pid, traffic, windowMs);
    } finally {
      await writer.stop();
    }
    await context.close();
    return {
      tabs: TABS,
      idle,
      writer: loaded,
      no_tabs: noTabs,
      target_pct: TABS > 10 ? 5 : 10,
      load_average: loadAverage(),
    };
  } finally {
    await browser.close();
  }
}

export const tabsLine = (r: TabsResult) =>
  `${r.tabs} /tables tabs: console CPU ${r.idle.cpu_pct_of_core} % of a core idle (target ≤ ${r.target_pct} %; ${r.idle.api.requests} API requests, ${r.idle.api.not_modified} of them 304, ${Math.round(r.idle.api.bytes / 1024)} KiB in ${r.idle.seconds} s), ` +
  `${r.writer.cpu_pct_of_core} % with the writer (${r.writer.api.requests} requests, ${r.writer.api.not_modified} 304, ${Math.round(r.writer.api.bytes / 1024)} KiB); no tabs: ${r.no_tabs.cpu_pct_of_core} %`;

if (require.main === module) {
  runBench(async () => {
    const result = await withProductionStack({ name: "tabs" }, (stack) => measureTabs(stack));
    console.log(tabsLine(result));
    writeResult(TABS === 10 ? "tabs" : `tabs-${TABS}`, { at: new Date().toISOString(), ...result });
  });
}
