// `npm run bench:scale`: how the cost grows with the fleet. One etcd, grown in one run to
// 1×, 2×, 4× and 8× the production table count (13,405 → 107,240 tables × 2 shards, the
// §10 T23 shape continued), and at each size a fresh `next start` on it. Per size:
// * the cold pinned read ÷ `etcdctl get --prefix --rev` (./pinned.ts, 5 revisions);
// * the full plan: `planFleet` of the fleet read at the current revision, in this process
//   with the console stopped (median of 3);
// * change → visible through the API, idle (./visible.ts, 5 puts);
// * the console's RSS and live heap once ready (a full GC forced through its inspector),
//   again after the pinned reads (it keeps them), and its peak RSS until ready;
// * /tables in Chromium: navigation → first row, → every row loaded, and the page's JS heap;
// * etcd's db size (`etcdctl endpoint status -w json`, dbSize).
// Prints each figure's growth factor per doubling (linear or better: ≤ 2.2) and where the
// limits fall: etcd's default 2 GiB quota, Node's default old-space limit, the browser list.
// `--sizes=1,2` to run fewer sizes.
import "../lib/sim/node-entry";
import { execFileSync } from "node:child_process";
import v8 from "node:v8";
import vm from "node:vm";
import { createRawEtcdClient } from "../lib/etcd/raw";
import { readFolded } from "../lib/live/read";
import { plannerFleet } from "../lib/snapshot/planner-input";
import { planFleet } from "../lib/planner/plan";
import { PRODUCTION_TABLES } from "../lib/sim/scenarios/production";
import { liveHeapBytes } from "../test/support/inspector";
import { rssBytes } from "../test/support/observe";
import type { RunningApp } from "../test/support/app";
import { runBench, writeResult } from "./harness";
import { renderScale } from "./report";
import { measurePinned } from "./pinned";
import {
  EtcdHttp,
  etcdDbBytes,
  fail,
  loadAverage,
  median,
  pastRevisions,
  PREFIX,
  round,
  seedTables,
  sleep,
  startBenchEtcd,
  startConsole,
  type BenchStack,
} from "./stack";
import { launchChromium } from "./tabs";
import { changeToVisible } from "./visible";

const MIB = 1048576;
const ETCD_DEFAULT_QUOTA = 2 * 1024 ** 3;
const LINEAR = 2.2;
const READY_DEADLINE_MS = 300_000;
const PINNED_PER_SIZE = 5;

v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc") as () => void;

const sizesArg = process.argv.find((a) => a.startsWith("--sizes="))?.slice("--sizes=".length);
const SIZES = (sizesArg ?? "1,2,4,8").split(",").map(Number);

type SizeFigures = {
  multiple: number;
  tables: number;
  etcd_db_mib: number;
  time_to_ready_ms: number;
  pinned_ms: number;
  floor_ms: number;
  pinned_over_floor: number;
  plan_ms: number;
  change_to_visible_ms: number;
  /** once ready, before any pinned read: the live fleet and its plan */
  rss_mib: number;
  live_heap_mib: number;
  /** after the pinned reads: the console also holds those fleets (its pinned LRU) */
  rss_with_pinned_mib: number;
  live_heap_with_pinned_mib: number;
  startup_peak_rss_mib: number;
  tables_first_row_ms: number | null;
  tables_all_rows_ms: number | null;
  tables_js_heap_mib: number | null;
};

/** Starts the console and waits (longer than startApp's 60 s) for `ready`, sampling its RSS. */
async function startAndWait(
  stack: Omit<BenchStack, "app">,
): Promise<{ app: RunningApp; readyMs: number; peakRss: number }> {
  const spawned = performance.now();
  const app = await startConsole(stack.cluster, { inspect: true, ready: false });
  let peak = 0;
  for (;;) {
    peak = Math.max(peak, rssBytes(app.process.pid!));
    const body = (await fetch(`${app.url}/api/v1/health`)
      .then((r) => r.json())
      .catch(() => ({}))) as { ready?: boolean };
    if (body.ready === true) break;
    if (performance.now() - spawned > READY_DEADLINE_MS)
      fail(`not ready within ${READY_DEADLINE_MS / 1000} s at ${stack.tables} tables`, app);
    await sleep(100);
  }
  return { app, readyMs: performance.now() - spawned, peakRss: peak };
}

/** planFleet of the fleet at the current revision, median of 3 (one warm-up). */
async function planMs(endpoints: string): Promise<number> {
  const client = createRawEtcdClient({ endpoints: endpoints.split(","), callTimeoutMs: 60_000 });
  try {
    const { snapshot, demand } = await readFolded(client, PREFIX);
    const fleet = plannerFleet({ snapshot, tables: demand.tables(snapshot) });
    const now = Date.now();
    planFleet(fleet, now);
    const times: number[] = [];
    for (let k = 0; k < 3; k++) {
      gc(); // each plan pays for its own garbage only
      const started = performance.now();
      planFleet(fleet, now);
      times.push(performance.now() - started);
    }
    return median(times);
  } finally {
    client.close();
  }
}

/** /tables in Chromium: second navigation → first row, → "N of N" loaded; the page's JS heap then. */
async function tablesPage(
  url: string,
): Promise<{ firstRow: number | null; allRows: number | null; heapMib: number | null }> {
  const browser = await launchChromium();
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, bypassCSP: true });
    const page = await context.newPage();
    await page.goto(`${url}/tables`);
    await page.waitForSelector('[data-testid="table-row"]', { timeout: 120_000 });
    const started = performance.now();
    await page.goto(`${url}/tables`, { waitUntil: "commit" });
    await page.waitForSelector('[data-testid="table-row"]', { timeout: 120_000 });
    const firstRow = performance.now() - started;
    let allRows: number | null = null;
    try {
      await page.waitForFunction(
        `(() => { const t = document.querySelector('[data-testid="tables-count"]')?.textContent ?? ""; const m = t.match(/^([\\d,]+) of ([\\d,]+)/); return m && m[1] === m[2] && !document.body.textContent.includes("loading "); })()`,
        undefined,
        { timeout: 180_000 },
      );
      allRows = performance.now() - started;
    } catch {
      allRows = null; // the list did not finish loading within 180 s
    }
    const cdp = await context.newCDPSession(page);
    await cdp.send("HeapProfiler.collectGarbage");
    const { usedSize } = (await cdp.send("Runtime.getHeapUsage")) as { usedSize: number };
    return {
      firstRow: round(firstRow),
      allRows: allRows === null ? null : round(allRows),
      heapMib: round(usedSize / MIB),
    };
  } finally {
    await browser.close();
  }
}

async function measureSize(
  base: Omit<BenchStack, "app">,
  multiple: number,
  log: (l: string) => void,
): Promise<SizeFigures> {
  const { app, readyMs, peakRss } = await startAndWait(base);
  const stack: BenchStack = { ...base, app };
  let figures: Omit<SizeFigures, "plan_ms">;
  try {
    log(`${multiple}×: ready after ${round(readyMs / 1000)} s`);
    const liveHeap = await liveHeapBytes(app.inspectorUrl!);
    const rss = rssBytes(app.process.pid!);
    const pinned = await measurePinned(stack);
    const heapWithPinned = await liveHeapBytes(app.inspectorUrl!);
    const rssWithPinned = rssBytes(app.process.pid!);
    const visible = await changeToVisible(stack, 5, multiple * 100);
    const page = await tablesPage(app.url);
    figures = {
      multiple,
      tables: base.tables,
      etcd_db_mib: round(etcdDbBytes(base.cluster.endpoints) / MIB),
      time_to_ready_ms: round(readyMs),
      pinned_ms: pinned.api_ms.median,
      floor_ms: pinned.floor_ms.median,
      pinned_over_floor: pinned.ratio,
      change_to_visible_ms: round(median(visible.ms)),
      rss_mib: round(rss / MIB),
      live_heap_mib: round(liveHeap / MIB),
      rss_with_pinned_mib: round(rssWithPinned / MIB),
      live_heap_with_pinned_mib: round(heapWithPinned / MIB),
      startup_peak_rss_mib: round(peakRss / MIB),
      tables_first_row_ms: page.firstRow,
      tables_all_rows_ms: page.allRows,
      tables_js_heap_mib: page.heapMib,
    };
  } finally {
    await app.stop();
  }
  const plan = await planMs(base.cluster.endpoints);
  return { ...figures, plan_ms: round(plan) };
}

const GROWTH_KEYS = [
  "pinned_ms",
  "floor_ms",
  "pinned_over_floor",
  "plan_ms",
  "change_to_visible_ms",
  "time_to_ready_ms",
  "rss_mib",
  "live_heap_mib",
  "rss_with_pinned_mib",
  "live_heap_with_pinned_mib",
  "startup_peak_rss_mib",
  "etcd_db_mib",
  "tables_first_row_ms",
  "tables_all_rows_ms",
  "tables_js_heap_mib",
] as const;

/** Per figure: the factor of each doubling step and the mean factor per doubling over the whole range. */
function growth(sizes: SizeFigures[]) {
  const out: Record<
    string,
    { per_step: (number | null)[]; per_doubling: number | null; linear_or_better: boolean | null }
  > = {};
  for (const key of GROWTH_KEYS) {
    const v = sizes.map((s) => s[key]);
    const perStep = v
      .slice(1)
      .map((x, i) =>
        x === null || v[i] === null || v[i] === 0
          ? null
          : round((x / v[i]!) ** (1 / Math.log2(sizes[i + 1].multiple / sizes[i].multiple)), 2),
      );
    const first = v[0];
    const last = v[v.length - 1];
    const doublings = sizes.length > 1 ? Math.log2(sizes[sizes.length - 1].multiple / sizes[0].multiple) : 0;
    const perDoubling = first && last && doublings > 0 ? round((last / first) ** (1 / doublings), 2) : null;
    out[key] = {
      per_step: perStep,
      per_doubling: perDoubling,
      linear_or_better: perDoubling === null ? null : perDoubling <= LINEAR,
    };
  }
  return out;
}

/** Least-squares line through (tables, y); the table count at which y reaches `limit`. */
function tablesAt(sizes: SizeFigures[], y: (s: SizeFigures) => number, limit: number): number | null {
  const n = sizes.length;
  if (n < 2) return null;
  const mx = sizes.reduce((a, s) => a + s.tables, 0) / n;
  const my = sizes.reduce((a, s) => a + y(s), 0) / n;
  const sxy = sizes.reduce((a, s) => a + (s.tables - mx) * (y(s) - my), 0);
  const sxx = sizes.reduce((a, s) => a + (s.tables - mx) ** 2, 0);
  const slope = sxy / sxx;
  if (!(slope > 0)) return null;
  return Math.round((limit - (my - slope * mx)) / slope);
}

function nodeHeapLimitMib(): number {
  const out = execFileSync(process.execPath, ["-e", "console.log(require('v8').getHeapStatistics().heap_size_limit)"], {
    env: { ...process.env, NODE_OPTIONS: "" },
  });
  return round(Number(out.toString().trim()) / MIB);
}

async function main(): Promise<void> {
  const log = (l: string) => console.log(`[bench:scale] ${l}`);
  const started = performance.now();
  const loadBefore = loadAverage();
  const cluster = await startBenchEtcd();
  const sizes: SizeFigures[] = [];
  let broke: { multiple: number; tables: number; error: string } | null = null;
  try {
    const etcd = new EtcdHttp(cluster.members[0].clientUrl);
    let seeded = 0;
    for (const multiple of SIZES) {
      const tables = multiple * PRODUCTION_TABLES;
      const t0 = performance.now();
      await seedTables(etcd, PREFIX, seeded, tables);
      seeded = tables;
      const past = await pastRevisions(etcd, PREFIX, PINNED_PER_SIZE, tables);
      log(
        `${multiple}×: ${tables.toLocaleString("en-US")} tables seeded (${round((performance.now() - t0) / 1000)} s)`,
      );
      try {
        const figures = await measureSize({ cluster, etcd, tables, past, log }, multiple, log);
        sizes.push(figures);
        log(`${multiple}×: ${JSON.stringify(figures)}`);
      } catch (e) {
        // where it breaks is a result too; a larger fleet would not do better
        const error = (e instanceof Error ? e.message : String(e)).split("\n")[0].slice(0, 400);
        broke = { multiple, tables, error };
        log(`${multiple}×: FAILED: ${error}`);
        break;
      }
    }
  } finally {
    await cluster.stop();
  }
  const heapLimit = nodeHeapLimitMib();
  const g = growth(sizes);
  const limits = {
    etcd_default_quota_mib: ETCD_DEFAULT_QUOTA / MIB,
    tables_at_etcd_quota: tablesAt(sizes, (s) => s.etcd_db_mib, ETCD_DEFAULT_QUOTA / MIB),
    node_heap_limit_mib: heapLimit,
    tables_at_heap_limit_live: tablesAt(sizes, (s) => s.live_heap_mib, heapLimit),
    // a console that also holds pinned reads (time travel) keeps up to 4 more fleets
    tables_at_heap_limit_with_pinned: tablesAt(sizes, (s) => s.live_heap_with_pinned_mib, heapLimit),
  };
  const result = {
    at: new Date().toISOString(),
    seconds: round((performance.now() - started) / 1000),
    load_average: { before: loadBefore, after: loadAverage() },
    sizes,
    broke,
    growth: g,
    linear_threshold: LINEAR,
    limits,
  };
  writeResult("scale", result);
  console.log(renderScale(result));
  if (broke) {
    console.log(`broke at ${broke.multiple}× (${broke.tables.toLocaleString("en-US")} tables): ${broke.error}`);
    process.exitCode = 1;
  }
}

if (require.main === module) runBench(main);
