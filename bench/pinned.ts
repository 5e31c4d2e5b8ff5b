// `npm run bench:pinned`: a cold full read at a pinned revision the console does not hold,
// `GET /api/v1/scheduler/demand?limit=2000&revision=R` (the console reads, folds and plans
// the fleet at R, then answers 2,000 rows), against the floor `etcdctl get --prefix
// --rev=R` of the same revision. Each run uses a revision of its own (the console keeps
// the pinned reads it made), and the two alternate which goes first, so both see the
// same machine load. Prints the ratio of the medians (target ≤ 1.5).
import "../lib/sim/node-entry";
import os from "node:os";
import { cpuMsOf, fetchMetrics, metricSum } from "../test/support/observe";
import { etcdctlGet } from "./etcdctl-floor";
import { runBench, writeResult } from "./harness";
import { PRODUCTION_SHARDS } from "../lib/sim/scenarios/production";
import {
  fail,
  loadAverage,
  median,
  PREFIX,
  productionEvent,
  round,
  timedGet,
  treeCpuMs,
  withProductionStack,
  type BenchStack,
} from "./stack";

export const PINNED_RUNS = 7;

export interface PinnedResult {
  runs: number;
  api_ms: { median: number; all: number[] };
  floor_ms: { median: number; all: number[] };
  /** median API ÷ median floor */
  ratio: number;
  /** median of each run's own API ÷ floor */
  median_pair_ratio: number;
  target_ratio: number;
  /**
   * The console's own account (/api/metrics, console_snapshot_read_seconds{mode="pinned"}):
   * its fleet read (paged read, parse, fold) per request ÷ the floor, and what the rest
   * of the request took (plan, rows, JSON, HTTP) ÷ the floor.
   */
  read_over_floor: number;
  rest_over_floor: number;
  /**
   * CPU per run (median, ms, from /proc): the console's for a pinned request and etcd's
   * for it and for the floor; and the least wall time the console + etcd CPU allows on
   * this machine's CPUs even perfectly parallel, ÷ the floor (what no overlap can beat).
   */
  cpu_ms: { console: number; etcd: number; etcd_for_floor: number };
  cpu_bound_over_floor: number;
  load_average: number[];
}

async function pinnedReadSeconds(url: string): Promise<{ sum: number; count: number }> {
  const m = await fetchMetrics(url);
  return {
    sum: metricSum(m, "console_snapshot_read_seconds_sum", { mode: "pinned" }),
    count: metricSum(m, "console_snapshot_read_seconds_count", { mode: "pinned" }),
  };
}

/** The k-th pair in turn: `a` first on even k, `b` first on odd (both see the same machine load). */
async function alternately(k: number, a: () => Promise<void>, b: () => Promise<void>): Promise<void> {
  if (k % 2 === 0) {
    await a();
    await b();
  } else {
    await b();
    await a();
  }
}

export async function measurePinned(stack: BenchStack, revisions = stack.past): Promise<PinnedResult> {
  const { app, cluster } = stack;
  if (revisions.length === 0) fail("no past revisions to pin");
  // one etcdctl of the newest revision first: etcd's page cache as warm as the console's
  await etcdctlGet(cluster.endpoints, `${PREFIX}/`);
  const api: number[] = [];
  const floor: number[] = [];
  const cpu = { console: [] as number[], etcd: [] as number[], etcdForFloor: [] as number[] };
  const etcdPid = cluster.members[0].process?.pid;
  const consolePid = app.process.pid!;
  const reads0 = await pinnedReadSeconds(app.url);
  for (let k = 0; k < revisions.length; k++) {
    const revision = revisions[k];
    const read = async () => {
      const c0 = treeCpuMs(consolePid);
      const e0 = cpuMsOf(etcdPid);
      const r = await timedGet(`${app.url}/api/v1/scheduler/demand?limit=2000&revision=${revision}`);
      if (r.status !== 200) fail(`pinned read at ${revision} answered ${r.status}: ${r.body.slice(0, 300)}`, app);
      api.push(r.ms);
      cpu.console.push(treeCpuMs(consolePid) - c0);
      cpu.etcd.push(cpuMsOf(etcdPid) - e0);
    };
    const etcdctl = async () => {
      const e0 = cpuMsOf(etcdPid);
      floor.push(await etcdctlGet(cluster.endpoints, `${PREFIX}/`, revision));
      cpu.etcdForFloor.push(cpuMsOf(etcdPid) - e0);
    };
    await alternately(k, read, etcdctl);
  }
  const pairs = api.map((a, k) => a / floor[k]);
  const reads1 = await pinnedReadSeconds(app.url);
  const readMs = ((reads1.sum - reads0.sum) * 1000) / Math.max(1, reads1.count - reads0.count);
  const meanApi = api.reduce((a, b) => a + b, 0) / api.length;
  return {
    runs: revisions.length,
    api_ms: { median: round(median(api)), all: api.map((x) => round(x)) },
    floor_ms: { median: round(median(floor)), all: floor.map((x) => round(x)) },
    ratio: round(median(api) / median(floor), 2),
    median_pair_ratio: round(median(pairs), 2),
    target_ratio: 1.5,
    read_over_floor: round(readMs / median(floor), 2),
    rest_over_floor: round((meanApi - readMs) / median(floor), 2),
    cpu_ms: { console: median(cpu.console), etcd: median(cpu.etcd), etcd_for_floor: median(cpu.etcdForFloor) },
    cpu_bound_over_floor: round((median(cpu.console) + median(cpu.etcd)) / os.cpus().length / median(floor), 2),
    load_average: loadAverage(),
  };
}

export const pinnedLine = (r: PinnedResult) =>
  `cold pinned demand?limit=2000&revision=R median ${r.api_ms.median} ms vs etcdctl get --prefix --rev=R ${r.floor_ms.median} ms → ${r.ratio}× (per-run median ${r.median_pair_ratio}×; target ≤ ${r.target_ratio}); of it the fleet read ${r.read_over_floor}×, plan + rows + HTTP ${r.rest_over_floor}× the floor; CPU console ${r.cpu_ms.console} ms + etcd ${r.cpu_ms.etcd} ms (floor: etcd ${r.cpu_ms.etcd_for_floor} ms) → at least ${r.cpu_bound_over_floor}× the floor on ${os.cpus().length} CPUs`;

/** How many changes before the live view the near pinned reads are (the last is past what the change log holds). */
export const NEAR_CHANGES_BACK = [10, 100, 1_000, 3_000, 10_000, 20_000];
const NEAR_RUNS = 3;
const NEAR_WRITERS = 8;

export interface NearPinnedResult {
  /** one demand event per revision, written after the console started */
  changes_written: number;
  by_distance: {
    changes_back: number;
    api_ms: { median: number; all: number[] };
    floor_ms: { median: number; all: number[] };
    ratio: number;
    /** how the console made these views (console_pinned_views_total) */
    path: { rewound: number; read: number };
  }[];
  load_average: number[];
}

const pinnedViews = async (url: string) => {
  const m = await fetchMetrics(url);
  return {
    rewound: metricSum(m, "console_pinned_views_total", { path: "rewound" }),
    read: metricSum(m, "console_pinned_views_total", { path: "read" }),
  };
};

/**
 * A pinned read near the live view (lib/live/rewind.ts puts it back from the live view with
 * the values before each change since, which its change log holds): one demand event per
 * revision is written after the console started, then revisions 10 to 20,000 changes
 * before the newest are read through the API, each against `etcdctl get --prefix --rev=R`
 * of the same revision, alternating which goes first.
 */
export async function measureNearPinned(stack: BenchStack): Promise<NearPinnedResult> {
  const { app, cluster, etcd, tables } = stack;
  const total = Math.max(...NEAR_CHANGES_BACK) + NEAR_RUNS;
  const revisions: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: NEAR_WRITERS }, async () => {
      while (next < total) {
        const k = next++;
        const event = productionEvent(PREFIX, (k * 7919 + 101) % tables, PRODUCTION_SHARDS[1], 1 + (k % 5));
        revisions.push(await etcd.put(event.key, event.value));
      }
    }),
  );
  revisions.sort((a, b) => a - b);
  const newest = revisions.at(-1)!;
  // the live view holds every change before any is read back
  const caught = await timedGet(`${app.url}/api/v1/scheduler/demand?limit=1&min_revision=${newest}`);
  if (caught.status !== 200) fail(`live read at min_revision ${newest} answered ${caught.status}`, app);
  await etcdctlGet(cluster.endpoints, `${PREFIX}/`);
  const byDistance: NearPinnedResult["by_distance"] = [];
  for (const back of NEAR_CHANGES_BACK) {
    const api: number[] = [];
    const floor: number[] = [];
    const before = await pinnedViews(app.url);
    for (let j = 0; j < NEAR_RUNS; j++) {
      const revision = revisions[revisions.length - 1 - back - j];
      const read = async () => {
        const r = await timedGet(`${app.url}/api/v1/scheduler/demand?limit=2000&revision=${revision}`);
        if (r.status !== 200) fail(`pinned read at ${revision} answered ${r.status}: ${r.body.slice(0, 300)}`, app);
        api.push(r.ms);
      };
      const etcdctl = async () => void floor.push(await etcdctlGet(cluster.endpoints, `${PREFIX}/`, revision));
      await alternately(j, read, etcdctl);
    }
    const after = await pinnedViews(app.url);
    byDistance.push({
      changes_back: back,
      api_ms: { median: round(median(api)), all: api.map((x) => round(x)) },
      floor_ms: { median: round(median(floor)), all: floor.map((x) => round(x)) },
      ratio: round(median(api) / median(floor), 2),
      path: { rewound: after.rewound - before.rewound, read: after.read - before.read },
    });
  }
  return { changes_written: total, by_distance: byDistance, load_average: loadAverage() };
}

export const nearPinnedLine = (r: NearPinnedResult) =>
  `pinned reads near the live view (${r.changes_written} changes written after start): ${r.by_distance
    .map(
      (d) =>
        `${d.changes_back} changes back ${d.api_ms.median} ms vs etcdctl ${d.floor_ms.median} ms → ${d.ratio}× (${d.path.rewound} rewound, ${d.path.read} read in full)`,
    )
    .join("; ")}`;

if (require.main === module) {
  runBench(async () => {
    const { far, near } = await withProductionStack({ name: "pinned", pastCount: PINNED_RUNS }, async (stack) => ({
      far: await measurePinned(stack),
      near: await measureNearPinned(stack),
    }));
    console.log(pinnedLine(far));
    console.log(nearPinnedLine(near));
    writeResult("pinned", { at: new Date().toISOString(), ...far, near });
  });
}
