// `npm run bench:history`: the table history chart for 6 h of history, through the HTTP
// API, in the production fleet (13,405 tables) so each point is evaluated in a real fleet.
// The live simulator (lib/sim/live.ts) flushes or merges a backlog table about once every
// 12 s, so 6 h is ~1,800 changes of one table's keys; the bench writes that many (4
// shards, flush and merge events), with the fleet's heartbeats and the revision clock's
// samples between them on a compressed 6 h clock, then measures:
// * `GET /api/v1/scheduler/demand/history?target=T` (the chart's default 6 h), in each of
//   PROCESSES fresh console processes once its sampler has made its first write: the
//   process's first history request (another busy table's: it pays the route's, the revision
//   clock's and the JIT's first use), then T's first (cold: nothing of this table read yet);
//   then the median of 5 after it (what the console keeps across requests — the chunks
//   decoded for the table, lib/journal/reader.ts; what moved,
//   lib/time/history-moved-by.ts — is warm);
// * in Chromium, /tables/T: how many history requests the chart makes until its summary
//   shows, and the time from navigation to that summary.
// Target (issue 23): one request, the API ≤ 300 ms, the chart ≤ 1 s.
// By default the 6 h are also covered by the decision journal, as a console that has run
// for 6 h has it: the production fleet's journal (./journal-history.ts `journalChunks`:
// 13,405 tables, 354 busy, a writer at 10 events/s, a checkpoint each 30 min, rolled up
// as the writer does) with the table's entry changing at each of its 1,800 changes, each
// evaluation dated at the revision etcd had then, and marked with the table's inputs and
// the executors' capacities there (read from etcd as history reads unmarked revisions). Its entries are drawn, not planned (the
// timing does not depend on what they say; test/integration/journal/production.test.ts
// checks journal = plan at this scale). `--replan` writes no journal: the answer is
// re-planned, as before the journal's start (the answer's basis is checked either way).
import "../lib/sim/node-entry";
import { createRawEtcdClient } from "../lib/etcd/raw";
import { executorMergedEvent, writerEvent } from "../lib/planner/join";
import { keys, clockKey, journalPrefix } from "../lib/schema/keys";
import { publishDemandEvent } from "../lib/sim/publish";
import { fleetExecutors, heartbeatValue } from "../lib/sim/scenarios/fleet";
import { runBench, writeResult } from "./harness";
import {
  fail,
  loadAverage,
  median,
  PREFIX,
  round,
  startConsole,
  timedGet,
  withProductionStack,
  type BenchStack,
} from "./stack";
import { launchChromium } from "./tabs";
import { fetchMetrics, metricSum, until } from "../test/support/observe";
import { journalChunks, rolledUp, writeJournal } from "./journal-history";
import { ownKeys } from "../lib/journal/inputs";
import { inputsReadAt, type InputsAt } from "../lib/time/history-moved-by";
import { FLUSH_MS } from "./journal-shape";
import { PRODUCTION_TABLES, productionTarget } from "../lib/sim/scenarios/production";

export const HISTORY_TARGET = "ingest/clickstream";
const CHANGES = 1800;
const SHARDS = 4;
const WINDOW_MS = 6 * 3600_000;
const RUNS = 5;

/** Writes 6 h of one table's history (see above) into `endpoints` under PREFIX, and the journal of them unless `replan`. */
export async function writeHistory(
  endpoints: string,
  log: (line: string) => void,
  opts: { replan?: boolean; scale?: number } = {},
): Promise<void> {
  const client = createRawEtcdClient({ endpoints: endpoints.split(","), callTimeoutMs: 30_000 });
  const changed: { at: number; revision: number }[] = [];
  let inputs = new Map<number, InputsAt>();
  let end = 0;
  let firstRevision = 0;
  try {
    end = Date.now();
    firstRevision = Number((await client.get(keys.leader(PREFIX)).exec()).header.revision);
    const start = end - WINDOW_MS;
    const sealed = new Array<number>(SHARDS).fill(1000);
    const merged = new Array<number>(SHARDS).fill(1000);
    const executors = fleetExecutors(start);
    const started = performance.now();
    for (let i = 0; i < CHANGES; i++) {
      const at = start + Math.floor((i / CHANGES) * WINDOW_MS);
      const s = i % SHARDS;
      if (i % 3 === 2 && merged[s] < sealed[s]) {
        merged[s] = Math.min(sealed[s], merged[s] + 20);
        await publishDemandEvent(client, PREFIX, HISTORY_TARGET, executorMergedEvent(`shard-${s}`, merged[s], at));
      } else {
        sealed[s] += 3;
        await publishDemandEvent(
          client,
          PREFIX,
          HISTORY_TARGET,
          writerEvent({
            shard: `shard-${s}`,
            sealed: sealed[s],
            bytes: sealed[s] * 1_048_576,
            epoch: 1,
            flushedAtMs: at,
          }),
        );
      }
      changed.push({ at, revision: Number((await client.get(keys.leader(PREFIX)).exec()).header.revision) });
      if (i % 5 === 0) {
        for (const e of executors) await client.put(keys.executor(PREFIX, e.id)).value(heartbeatValue(e, at));
        const revision = Number((await client.get(keys.leader(PREFIX)).exec()).header.revision);
        await client.put(clockKey(PREFIX, at + 1)).value(JSON.stringify({ at_ms: at + 1, revision }));
      }
    }
    log(
      `wrote ${CHANGES} changes of ${HISTORY_TARGET} over a compressed 6 h in ${round((performance.now() - started) / 1000)} s`,
    );
    // the sampler marks each entry with the table's inputs at its revision, and each evaluation with
    // the executors' capacity (lib/snapshot/inputs.ts); here they are read from etcd, as history reads unmarked ones
    if (!opts.replan) {
      const revisions = [...new Set([firstRevision, ...changed.map((c) => c.revision)])];
      inputs = await inputsReadAt(ownKeys(PREFIX, HISTORY_TARGET), revisions, { client, prefix: PREFIX });
    }
  } finally {
    client.close();
  }
  if (opts.replan) return;
  const started = performance.now();
  const endMs = Math.floor(end / FLUSH_MS) * FLUSH_MS;
  let next = 0;
  let revision = firstRevision;
  const chunks = journalChunks(opts.scale ?? 1, endMs, {
    target: HISTORY_TARGET,
    targetChangesAt: changed.map((c) => c.at),
    revisionAt: (ms) => {
      while (next < changed.length && changed[next].at <= ms) revision = changed[next++].revision;
      return revision;
    },
    nameOf: productionTarget,
    inputsAt: (revision) => inputs.get(revision),
  });
  const written = await writeJournal(endpoints, PREFIX, rolledUp([...chunks], PREFIX));
  log(
    `wrote the journal of those 6 h (production shape, rolled up): ${written.chunks} chunks, ${round(written.bytes / 1_048_576)} MiB, in ${round((performance.now() - started) / 1000)} s`,
  );
}

export interface HistoryResult {
  target: string;
  changes: number;
  points: number;
  /** the answer's `verdict_basis`, and its points by basis */
  basis: string;
  points_by_basis: Record<string, number>;
  /** the process's first history request, of another busy table (it pays the process's own first use: the route, the revision clock, the chunk keys, the JIT), in each of PROCESSES processes */
  api_first_ms: { median: number; all: number[] };
  /** the table's first request, after that one: nothing of this table's history read by this process yet (median of the processes) */
  api_cold_ms: number;
  api_cold_all_ms: number[];
  api_ms: { median: number; all: number[] };
  /** history requests the browser made for one view of the page (the chart made interactive) */
  chart_requests: number;
  /** history answers the server made for one view: the server page's own read and the browser's */
  server_answers_per_view: number;
  /** the page's navigation start → the first frame with the chart's summary and lines, in Chromium (in-page clock) */
  chart_ms: { median: number; all: number[] };
  /** the same from the bench's side: page.goto until the page says it drew (adds the driver's round trips) */
  chart_wall_ms: { median: number; all: number[] };
  /** of chart_ms: the page's first and last byte from the server (navigation timing), by navigation */
  page_first_byte_ms: number[];
  page_last_byte_ms: number[];
  target_requests: number;
  target_api_ms: number;
  target_ms: number;
  load_average: number[];
}

/**
 * Set before the page's own scripts: each frame, until the chart's summary and lines are in
 * the DOM, then `__chartDrawnAt` = that frame's time (ms since the navigation started).
 */
const CHART_DRAWN_SCRIPT = `(() => {
  const drawn = () =>
    document.querySelector('[data-testid="history-summary"]') !== null &&
    document.querySelector('[data-testid="history-chart"] svg path') !== null;
  const tick = (at) => { if (drawn()) window.__chartDrawnAt = at; else requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
})();`;

/**
 * the table whose history the process answers first: another busy one (the journal's busy
 * tables are the fleet's first; its entries are not marked in this journal, so what moved is
 * read from etcd at each of its ~600 points), so that the table measured cold meets a
 * process that has answered a history before, as a running console has
 */
const FIRST_TARGET = productionTarget(1);

/** fresh console processes the cold request is timed in */
const PROCESSES = 3;

/** fresh pages the chart is timed on */
const NAVIGATIONS = 5;

export async function measureHistory(stack: BenchStack): Promise<HistoryResult> {
  // the console's address changes with each process
  const historyUrl = (target: string) =>
    `${stack.app.url}/api/v1/scheduler/demand/history?target=${encodeURIComponent(target)}`;
  const times: number[] = [];
  // the console's own sampler starts with a checkpoint of every table, a burst once per start:
  // measured after it, as a console that has run a while is met
  const writers = async () =>
    new Set(
      (await stack.etcd.range(journalPrefix(PREFIX), { keysOnly: true })).kvs.map((kv) => {
        const key = kv.key.toString("utf8");
        return key.slice(key.lastIndexOf("-") + 1);
      }),
    );
  const settled = async (before: ReadonlySet<string>) => {
    const done = await until(
      async () => ([...(await writers())].some((w) => w !== "bench" && !before.has(w)) ? true : undefined),
      60_000,
    );
    if (done === null)
      fail(
        `the console's sampler wrote no journal chunk within 60 s (writers before: ${[...before].join(", ")}; now: ${[...(await writers())].join(", ")})`,
        stack.app,
      );
  };
  // cold, in PROCESSES fresh console processes: the process's first history (another busy table's),
  // then the table's first. The first process goes on to the warm requests and the pages; the
  // others are started after them
  const firsts: number[] = [];
  const colds: number[] = [];
  const coldIn = async (p: number) => {
    // the first process may have written already; a restarted one must write anew
    const before = p === 0 ? new Set<string>() : await writers();
    if (p > 0) {
      await stack.app.stop();
      stack.app = await startConsole(stack.cluster);
    }
    await settled(before);
    const first = await timedGet(historyUrl(FIRST_TARGET));
    if (first.status !== 200) fail(`history answered ${first.status}: ${first.body.slice(0, 300)}`, stack.app);
    const cold = await timedGet(historyUrl(HISTORY_TARGET));
    if (cold.status !== 200) fail(`history answered ${cold.status}: ${cold.body.slice(0, 300)}`, stack.app);
    firsts.push(first.ms);
    colds.push(cold.ms);
  };
  await coldIn(0);
  let points = 0;
  let basis = "";
  let byBasis: Record<string, number> = {};
  for (let run = 0; run < RUNS; run++) {
    const r = await timedGet(historyUrl(HISTORY_TARGET));
    if (r.status !== 200) fail(`history answered ${r.status}: ${r.body.slice(0, 300)}`, stack.app);
    times.push(r.ms);
    const answer = JSON.parse(r.body) as { points: { basis: string }[]; verdict_basis: string };
    points = answer.points.length;
    basis = answer.verdict_basis;
    byBasis = {};
    for (const p of answer.points) byBasis[p.basis] = (byBasis[p.basis] ?? 0) + 1;
  }
  // in Chromium, NAVIGATIONS fresh pages: when the chart is drawn, measured in the page (from
  // its navigation's start to the first frame after the summary and the chart's lines are in the
  // DOM: a MutationObserver set before any of the page's scripts), and how many history answers
  // the server made for it (its own metric: the server page's read and the browser's)
  const browser = await launchChromium();
  const drawnAt: number[] = [];
  const wallMs: number[] = [];
  const firstByte: number[] = [];
  const lastByte: number[] = [];
  const answered: number[] = [];
  let chartRequests = 0;
  const historyAnswers = async () =>
    metricSum(await fetchMetrics(stack.app.url), "console_request_duration_seconds_count", {
      route: "/api/v1/scheduler/demand/history",
    });
  try {
    for (let run = 0; run < NAVIGATIONS; run++) {
      const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
      // a string, not a function: tsx's transpile names inner functions with a helper the page lacks
      await page.addInitScript(CHART_DRAWN_SCRIPT);
      let requests = 0;
      page.on("request", (req) => {
        if (req.url().includes("/api/v1/scheduler/demand/history")) requests += 1;
      });
      const before = await historyAnswers();
      const started = performance.now();
      await page.goto(`${stack.app.url}/tables/${encodeURIComponent(HISTORY_TARGET)}`);
      await page.waitForFunction(
        () => (window as unknown as { __chartDrawnAt?: number }).__chartDrawnAt !== undefined,
        null,
        {
          timeout: 120_000,
        },
      );
      wallMs.push(performance.now() - started);
      drawnAt.push(await page.evaluate(() => (window as unknown as { __chartDrawnAt: number }).__chartDrawnAt));
      // where that time went: the server's first byte (its render: the table's and the history's reads, the drawing) and its last
      const nav = await page.evaluate(() => {
        const n = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
        return { first: n.responseStart, last: n.responseEnd };
      });
      firstByte.push(nav.first);
      lastByte.push(nav.last);
      // the browser's own read (the chart made interactive) ends the page's history requests
      await page.waitForSelector('[data-testid="history-chart"] .step-chart svg[width]:not([width="100%"])', {
        timeout: 120_000,
      });
      chartRequests = Math.max(chartRequests, requests);
      answered.push((await historyAnswers()) - before);
      await page.close();
    }
  } finally {
    await browser.close();
  }
  for (let p = 1; p < PROCESSES; p++) await coldIn(p);
  return {
    target: HISTORY_TARGET,
    changes: CHANGES,
    points,
    api_first_ms: { median: round(median(firsts)), all: firsts.map((t) => round(t)) },
    api_cold_ms: round(median(colds)),
    api_cold_all_ms: colds.map((t) => round(t)),
    basis,
    points_by_basis: byBasis,
    api_ms: { median: round(median(times)), all: times.map((t) => round(t)) },
    chart_requests: chartRequests,
    server_answers_per_view: Math.max(...answered),
    chart_ms: { median: round(median(drawnAt)), all: drawnAt.map((t) => round(t)) },
    chart_wall_ms: { median: round(median(wallMs)), all: wallMs.map((t) => round(t)) },
    page_first_byte_ms: firstByte.map((t) => round(t)),
    page_last_byte_ms: lastByte.map((t) => round(t)),
    target_requests: 1,
    target_ms: 1000,
    target_api_ms: 300,
    load_average: loadAverage(),
  };
}

export const historyLine = (r: HistoryResult) =>
  `history chart, 6 h (${r.points} points, basis ${r.basis}: ${Object.entries(r.points_by_basis)
    .map(([b, n]) => `${n} ${b}`)
    .join(
      ", ",
    )}): GET …/demand/history ${r.api_cold_ms} ms cold (median of ${r.api_cold_all_ms.length} processes: ${r.api_cold_all_ms.join(", ")}; each process's first, another busy table's: ${r.api_first_ms.all.join(", ")} ms), then median ${r.api_ms.median} ms (target ≤ ${r.target_api_ms} ms); in Chromium the chart is drawn ${r.chart_ms.median} ms after navigation (median of ${r.chart_ms.all.length}: ${r.chart_ms.all.join(", ")}; ${r.chart_wall_ms.median} ms by the driver's clock; target ≤ ${r.target_ms} ms), then made interactive with ${r.chart_requests} request; the server answered the history ${r.server_answers_per_view}× per view (its page's read and the browser's)`;

if (require.main === module) {
  runBench(async () => {
    const replan = process.argv.includes("--replan");
    // `--scale N`: the fleet and its journal at N× the production tables (the result goes to bench/results/history-N.json)
    const at = process.argv.indexOf("--scale");
    const scale = at < 0 ? 1 : Number(process.argv[at + 1]);
    if (!(scale >= 1)) fail(`--scale wants a number ≥ 1, not ${process.argv[at + 1]}`);
    const result = await withProductionStack(
      {
        name: "history",
        tables: PRODUCTION_TABLES * scale,
        beforeStart: async (_etcd, endpoints, log) => writeHistory(endpoints, log, { replan, scale }),
      },
      async (stack) => {
        const r = await measureHistory(stack);
        const wanted = replan ? ["fleet_plan", "figures_only"] : ["journal"];
        if (!wanted.includes(r.basis)) fail(`the answer's basis is ${r.basis}, not ${wanted.join(" or ")}`, stack.app);
        return r;
      },
    );
    console.log(historyLine(result));
    writeResult(scale === 1 ? "history" : `history-${scale}x`, {
      at: new Date().toISOString(),
      replan,
      scale,
      ...result,
    });
  });
}
