// `npm run bench:ready`: the first request after the process starts. The console is
// (re)started on the production fleet, health is polled every 25 ms from the spawn on
// (console-api.md "Readiness": `503 starting` until the first full read and plan are
// done, then `ready: true`), and the moment it says ready, `demand?limit=2000` is asked.
// It must be served from the ready cache: no full read of its own (the console's
// `console_snapshot_full_reads_total` does not move), and its latency is reported ÷ a warm
// request of the same (median of 5) and ÷ the etcdctl floor.
import "../lib/sim/node-entry";
import { fetchMetrics, metricSum } from "../test/support/observe";
import { etcdctlGet } from "./etcdctl-floor";
import { runBench, writeResult } from "./harness";
import {
  fail,
  loadAverage,
  median,
  PREFIX,
  round,
  sleep,
  startConsole,
  timedGet,
  withProductionStack,
  type BenchStack,
} from "./stack";

export interface ReadyResult {
  /** spawn → health `ready` */
  time_to_ready_ms: number;
  /** health answers before ready, by status and `status` field */
  health_before_ready: Record<string, number>;
  first_request_ms: number;
  first_request_full_reads: number;
  warm_request_ms: number;
  /** first ÷ warm */
  first_over_warm: number;
  floor_ms: number;
  first_over_floor: number;
  served_from_ready_cache: boolean;
  load_average: number[];
}

const fullReads = async (url: string) => metricSum(await fetchMetrics(url), "console_snapshot_full_reads_total");

export async function measureReady(stack: BenchStack): Promise<ReadyResult> {
  await stack.app.stop();
  const spawned = performance.now();
  const app = await startConsole(stack.cluster, { ready: false });
  stack.app = app;
  const before: Record<string, number> = {};
  for (;;) {
    const res = await fetch(`${app.url}/api/v1/health`).catch(() => null);
    const body = res ? ((await res.json().catch(() => ({}))) as { ready?: boolean; status?: string }) : {};
    if (res && res.status === 200 && body.ready === true) break;
    const k = `${res?.status ?? "no answer"} ${body.status ?? ""}`.trim();
    before[k] = (before[k] ?? 0) + 1;
    if (performance.now() - spawned > 120_000) fail("the console was not ready within 120 s", app);
    await sleep(25);
  }
  const ready = performance.now() - spawned;
  const reads0 = await fullReads(app.url);
  const url = `${app.url}/api/v1/scheduler/demand?limit=2000`;
  const first = await timedGet(url);
  if (first.status !== 200) fail(`first request answered ${first.status}`, app);
  const reads = (await fullReads(app.url)) - reads0;
  const warm: number[] = [];
  for (let k = 0; k < 5; k++) warm.push((await timedGet(url)).ms);
  const floors: number[] = [];
  for (let k = 0; k < 3; k++) floors.push(await etcdctlGet(stack.cluster.endpoints, `${PREFIX}/`));
  const warmMs = median(warm);
  const floorMs = median(floors);
  return {
    time_to_ready_ms: round(ready),
    health_before_ready: before,
    first_request_ms: round(first.ms),
    first_request_full_reads: reads,
    warm_request_ms: round(warmMs),
    first_over_warm: round(first.ms / warmMs, 2),
    floor_ms: round(floorMs),
    first_over_floor: round(first.ms / floorMs, 2),
    served_from_ready_cache: reads === 0,
    load_average: loadAverage(),
  };
}

export const readyLine = (r: ReadyResult) =>
  `first request after start: ready after ${r.time_to_ready_ms} ms (before: ${
    Object.entries(r.health_before_ready)
      .map(([k, n]) => `${n}× ${k}`)
      .join(", ") || "none"
  }); ` +
  `first demand?limit=2000 ${r.first_request_ms} ms with ${r.first_request_full_reads} full reads of its own = ${r.first_over_warm}× a warm one (${r.warm_request_ms} ms), ${r.first_over_floor}× the floor → ${r.served_from_ready_cache ? "served from the ready cache" : "NOT from the ready cache"}`;

if (require.main === module) {
  runBench(async () => {
    const result = await withProductionStack({ name: "ready" }, (stack) => measureReady(stack));
    console.log(readyLine(result));
    writeResult("ready", { at: new Date().toISOString(), ...result });
  });
}
