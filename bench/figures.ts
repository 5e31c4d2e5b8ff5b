// `npm run bench:figures`: every figure of the performance table, from ONE run on ONE
// stack (a fresh etcd with the production fleet, 13,405 tables × 2 shards, plus 6 h of
// one table's history; a real `next start`), side by side with its target:
//   1. cold pinned read ÷ `etcdctl get --prefix --rev` (./pinned.ts), far from the live view
//      (read in full) and near it (put back from it), 10 to 20,000 changes back
//   2. change → visible ÷ that cold pinned read, idle and with a writer at 10 events/s (./visible.ts)
//   3. ten /tables tabs in Chromium: the console's CPU in % of a core (./tabs.ts)
//   4. 32 clients in a closed loop over list, detail, executors and shadow with the writer: p95,
//      timed to each answer's last byte (test/support/load-client.ts "bytes"), and beside it the
//      same loop with clients that parse every answer as a page does ("parsed"), with the CPU
//      each kind of client took from the two cores the console runs on
//   5. the table history chart: requests and time for 6 h (./history.ts)
//   6. the first request after the process starts (./ready.ts; restarts the console, so last)
// Writes bench/results/figures.json (`table` holds the rows as printed).
import "../lib/sim/node-entry";
import { productionTarget } from "../lib/sim/scenarios/production";
import { runLoad } from "../test/support/load-driver";
import type { LoadClientKind } from "../test/support/load-client";
import { runBench, writeResult } from "./harness";
import { renderFigures, type FigureRow } from "./report";
import { historyLine, measureHistory, writeHistory } from "./history";
import { measureNearPinned, measurePinned, nearPinnedLine, pinnedLine, PINNED_RUNS } from "./pinned";
import { measureReady, readyLine } from "./ready";
import { loadAverage, round, withProductionStack, type BenchStack } from "./stack";
import { measureTabs, tabsLine } from "./tabs";
import { eventWriter, measureVisible, visibleLine } from "./visible";

const CLIENTS = 32;
const LOOP_WARMUP_S = Number(process.env.BENCH_LOOP_WARMUP_S ?? 10);
const LOOP_SECONDS = Number(process.env.BENCH_LOOP_SECONDS ?? 30);

/** 32 clients in a closed loop over list, detail, executors and shadow, with the writer at 10 events/s. */
export async function closedLoop(stack: BenchStack, client: LoadClientKind) {
  const targets = Array.from({ length: 500 }, (_, k) => productionTarget((k * 7919) % stack.tables));
  return runLoad({
    baseUrl: stack.app.url,
    serverPid: stack.app.process.pid!,
    clients: CLIENTS,
    warmupMs: LOOP_WARMUP_S * 1000,
    durationMs: LOOP_SECONDS * 1000,
    targets,
    writer: eventWriter(stack.etcd, stack.tables),
    log: stack.log,
    client,
  });
}

const pctText = (share: number) => `${round(share * 100, 1)} %`;

async function main(): Promise<void> {
  const started = performance.now();
  const loadBefore = loadAverage();
  const out = await withProductionStack(
    { name: "figures", pastCount: PINNED_RUNS, beforeStart: (_etcd, endpoints, log) => writeHistory(endpoints, log) },
    async (stack) => {
      const pinned = await measurePinned(stack);
      stack.log(pinnedLine(pinned));
      const near = await measureNearPinned(stack);
      stack.log(nearPinnedLine(near));
      const visible = await measureVisible(stack, pinned.api_ms.median);
      stack.log(visibleLine(visible));
      const loop = await closedLoop(stack, "bytes");
      const parsedLoop = await closedLoop(stack, "parsed");
      for (const [kind, l] of [
        ["timed to the last byte", loop],
        ["parsing every answer", parsedLoop],
      ] as const)
        stack.log(
          `closed loop, ${CLIENTS} clients ${kind}, with the writer: p95 ${l.all.p95_ms} ms, p50 ${l.all.p50_ms} ms, ${l.all.requests_per_s} requests/s, ${l.all.errors} errors; the clients' process ${l.driver.cpu_pct_of_a_core} % of a core`,
        );
      const tabs = await measureTabs(stack);
      stack.log(tabsLine(tabs));
      const history = await measureHistory(stack);
      stack.log(historyLine(history));
      const ready = await measureReady(stack);
      stack.log(readyLine(ready));
      return { pinned, near, visible, loop, parsedLoop, tabs, history, ready };
    },
  );
  const { pinned, near, visible, loop, parsedLoop, tabs, history, ready } = out;
  const rewound = near.by_distance.filter((d) => d.path.read === 0);
  const farthest = rewound.at(-1);
  const table: FigureRow[] = [
    {
      figure:
        "cold full read at a pinned revision the console does not hold, `demand?limit=2000&revision=R` ÷ `etcdctl get --prefix --rev=R`",
      value: `${pinned.ratio}×`,
      before: "1.99×",
      target: "≤ 1.5×",
      met: pinned.ratio <= 1.5,
    },
    {
      figure:
        "… a pinned read near the live view, put back from it (its change log holds the values before each change), the same request ÷ the same floor",
      value: `${near.by_distance.map((d) => `${d.ratio}× ${d.changes_back.toLocaleString("en-US")} changes back${d.path.read > 0 ? " (read in full)" : ""}`).join(", ")}`,
      target: "≤ 1.5×",
      met: farthest !== undefined && rewound.every((d) => d.ratio <= 1.5),
    },
    {
      figure: "one demand event put → the API shows it ÷ that cold pinned read, idle",
      value: `${pctText(visible.idle_share)} (${visible.idle_ms.median} ms)`,
      before: "19.5 % (54–74 ms)",
      target: "≤ 5 %",
      met: visible.idle_share <= 0.05,
    },
    {
      figure: `… with a writer changing ${visible.writer_ms.writer_events_per_s} events/s`,
      value: `${pctText(visible.writer_share)} (${visible.writer_ms.median} ms)`,
      target: "≤ 5 %",
      met: visible.writer_share <= 0.05,
    },
    {
      figure: "ten open /tables tabs re-reading the fleet as the page does: console CPU",
      value: `${tabs.idle.cpu_pct_of_core} % of a core (${tabs.writer.cpu_pct_of_core} % with the writer)`,
      before: "23 % of a core",
      target: "≤ 10 %",
      met: tabs.idle.cpu_pct_of_core <= 10,
    },
    {
      figure:
        "32 clients in a closed loop over list, detail, executors and shadow, with the writer: p95, timed to each answer's last byte",
      value: `${loop.all.p95_ms} ms at ${loop.all.requests_per_s} requests/s (${loop.all.errors} errors; the clients took ${loop.driver.cpu_pct_of_a_core} % of a core)`,
      before: "171 ms",
      target: "≤ 100 ms",
      met: loop.all.p95_ms <= 100 && loop.all.errors === 0,
    },
    {
      figure:
        "… the same loop, its clients parsing every answer as a page does (`fetch`, then `JSON.parse`, timed after the parse), on the same two cores",
      value: `${parsedLoop.all.p95_ms} ms at ${parsedLoop.all.requests_per_s} requests/s (${parsedLoop.all.errors} errors; the clients took ${parsedLoop.driver.cpu_pct_of_a_core} % of a core)`,
      target: "for comparison",
      met: parsedLoop.all.errors === 0,
    },
    {
      figure: "the table history chart, 6 h",
      value: `drawn ${history.chart_ms.median} ms after navigation in Chromium (median of ${history.chart_ms.all.length}), the browser's ${history.chart_requests} request(s) making it interactive; ${history.server_answers_per_view} history answers per view (the server page's and the browser's); API ${history.api_cold_ms} ms cold, ${history.api_ms.median} ms warm`,
      before: "9–10 s, 18 requests",
      target: "one request, ≤ 1 s",
      met: history.chart_requests === 1 && history.chart_ms.median <= 1000,
    },
    {
      figure: "first request after the process starts ÷ a warm request",
      value: `${ready.first_over_warm}× (${ready.first_request_ms} ms, ${ready.first_request_full_reads} full reads; ready ${ready.time_to_ready_ms} ms after spawn)`,
      before: "a cold read + plan (4–5× the floor)",
      target: "served from a ready cache",
      met: ready.served_from_ready_cache,
    },
  ];
  const result = {
    at: new Date().toISOString(),
    seconds: round((performance.now() - started) / 1000),
    load_average: { before: loadBefore, after: loadAverage() },
    table,
    pinned,
    near_pinned: near,
    visible,
    closed_loop: {
      clients: CLIENTS,
      warmup_s: LOOP_WARMUP_S,
      seconds: LOOP_SECONDS,
      client: loop.config.client,
      driver: loop.driver,
      all: loop.all,
      by_endpoint: loop.by_endpoint,
      error_samples: loop.error_samples,
      rss: loop.rss,
      etcd: loop.etcd,
    },
    closed_loop_parsing: {
      client: parsedLoop.config.client,
      driver: parsedLoop.driver,
      all: parsedLoop.all,
      by_endpoint: parsedLoop.by_endpoint,
      error_samples: parsedLoop.error_samples,
    },
    tabs,
    history,
    ready,
  };
  writeResult("figures", result);
  console.log(
    `\n${renderFigures(table)}\nload average ${loadBefore.join(" ")} → ${result.load_average.after.join(" ")}; ${result.seconds} s`,
  );
}

if (require.main === module) runBench(main);
