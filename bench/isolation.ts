// `npm run bench:isolation` (issue 46, console-api.md "Additions (fourth version)", Overload
// and memory): in ONE run on ONE etcd, side by side with their targets,
//   1. the console's resident memory (its process tree, /proc VmRSS) at the production fleet
//      (13,405 tables × 2 shards, ./stack.ts) after start, after 40 pinned reads, 20 histories
//      and 6 diffs, and over the quiet minute that follows (sampled every 5 s);
//   2. far pinned reads (revisions before the console started: read in full) ÷ the
//      `etcdctl get --prefix --rev` floor (./pinned.ts);
//   3. isolation: a second client's live one-table reads and health, p95, and a streaming
//      tab's change → visible (a demand event put, to the first /tables stream event at or
//      past its revision), p95, while one client loops far pinned reads and diffs, beside the
//      same clients with no heavy one;
//   4. 32 clients in a closed loop over list, detail, executors and shadow with a writer at
//      10 events/s: p95 (test/support/load-driver.ts);
//   5. the resident memory at 8× (107,240 tables) while and after pinned reads (sampled every
//      50 ms during each), within CONSOLE_MEMORY_MIB (the console restarted on the grown
//      fleet; last, as it grows etcd).
// Writes bench/results/isolation.json. Nothing passes or fails on time: the table says which
// targets this machine met.
import "../lib/sim/node-entry";
import { PRODUCTION_SHARDS, productionTarget } from "../lib/sim/scenarios/production";
import { closedLoop } from "./figures";
import { runBench, writeResult } from "./harness";
import { measurePinned, pinnedLine, PINNED_RUNS } from "./pinned";
import { renderFigures, type FigureRow } from "./report";
import {
  fail,
  loadAverage,
  pastRevisions,
  pct,
  PREFIX,
  productionEvent,
  round,
  seedTables,
  sleep,
  startConsole,
  timedGet,
  treeRssBytes,
  withProductionStack,
  type BenchStack,
} from "./stack";

const PINS = 40;
const HISTORIES = 20;
const DIFFS = 6;
const QUIET_MS = Number(process.env.BENCH_QUIET_S ?? 60) * 1000;
const ISOLATION_MS = Number(process.env.BENCH_ISOLATION_S ?? 20) * 1000;
const CLIENTS = 32;
const SCALE = 8;
const PINS_AT_SCALE = 6;
/** the default of CONSOLE_MEMORY_MIB (lib/config/env.ts), which the bench's consoles run with */
const BUDGET_MIB = 1024;

const rssMib = (stack: BenchStack) => round(treeRssBytes(stack.app.process.pid!) / 2 ** 20);

async function ok(stack: BenchStack, path: string): Promise<number> {
  const r = await timedGet(`${stack.app.url}${path}`);
  if (r.status !== 200) fail(`${path} answered ${r.status}: ${r.body.slice(0, 300)}`, stack.app);
  return r.ms;
}

interface HealthMemory {
  rss_mib: number;
  budget_mib: number;
  over_budget: boolean;
  held_views: number;
  pinned_views: number;
}

async function healthMemory(stack: BenchStack): Promise<HealthMemory> {
  const r = await timedGet(`${stack.app.url}/api/v1/health`);
  return (JSON.parse(r.body) as { memory: HealthMemory }).memory;
}

/** 1. RSS after start, after the pinned reads, histories and diffs, and through the quiet minute. */
async function memoryAtProduction(stack: BenchStack, revisions: number[]) {
  const afterStart = rssMib(stack);
  for (const r of revisions.slice(0, PINS)) await ok(stack, `/api/v1/scheduler/demand?limit=2000&revision=${r}`);
  const afterPins = rssMib(stack);
  for (let k = 0; k < HISTORIES; k++)
    await ok(
      stack,
      `/api/v1/scheduler/demand/history?target=${encodeURIComponent(productionTarget((k * 677) % stack.tables))}`,
    );
  for (let k = 0; k < DIFFS; k++)
    await ok(stack, `/api/v1/scheduler/diff?from=${revisions[2 * k]}&to=${revisions[2 * k + 1]}`);
  const afterWork = rssMib(stack);
  const quiet: number[] = [];
  for (let t = 0; t < QUIET_MS; t += 5000) {
    await sleep(5000);
    quiet.push(rssMib(stack));
  }
  const afterQuiet = quiet.at(-1)!;
  return {
    after_start_mib: afterStart,
    after_pins_mib: afterPins,
    after_work_mib: afterWork,
    quiet_samples_mib: quiet,
    after_quiet_mib: afterQuiet,
    quiet_growth_mib: round(afterQuiet - afterWork),
    health: await healthMemory(stack),
  };
}

/** A light client's live one-table reads and health answers, in turn, for `ms`: their latencies. */
async function lightClient(stack: BenchStack, ms: number): Promise<number[]> {
  const out: number[] = [];
  const end = performance.now() + ms;
  for (let n = 0; performance.now() < end; n++) {
    const path =
      n % 2 === 0
        ? `/api/v1/scheduler/demand?target=${encodeURIComponent(productionTarget((n * 7919) % stack.tables))}`
        : "/api/v1/health";
    out.push(await ok(stack, path));
  }
  return out;
}

/** the longest a put may take to reach the stream before the bench fails */
const STREAM_DEADLINE_MS = 15_000;

/**
 * A /tables tab's stream for `ms`: a demand event put every quarter second, each timed from
 * the put to the first stream event at or past its revision (every event carries the
 * revision it shows); `bump` keeps each run's puts new values.
 */
async function streamingTab(stack: BenchStack, ms: number, bump: number): Promise<number[]> {
  const abort = new AbortController();
  const res = await fetch(`${stack.app.url}/api/v1/scheduler/demand/stream`, { signal: abort.signal });
  if (res.status !== 200 || res.body === null) fail(`the stream answered ${res.status}`, stack.app);
  let seen = 0;
  let waiters: { revision: number; wake: () => void }[] = [];
  const reading = (async () => {
    const decoder = new TextDecoder();
    let buffered = "";
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      buffered += decoder.decode(chunk, { stream: true });
      for (let end = buffered.indexOf("\n\n"); end >= 0; end = buffered.indexOf("\n\n")) {
        const data = buffered
          .slice(0, end)
          .split("\n")
          .find((line) => line.startsWith("data: "));
        buffered = buffered.slice(end + 2);
        const revision = data ? (JSON.parse(data.slice(6)) as { revision?: unknown }).revision : undefined;
        if (typeof revision !== "number" || revision <= seen) continue;
        seen = revision;
        for (const w of waiters) if (w.revision <= seen) w.wake();
        waiters = waiters.filter((w) => w.revision > seen);
      }
    }
  })().catch(() => undefined); // ended by the abort below
  const out: number[] = [];
  const end = performance.now() + ms;
  for (let k = 0; performance.now() < end; k++) {
    const put = productionEvent(PREFIX, ((2 * k + 1) * 1013) % stack.tables, PRODUCTION_SHARDS[0], bump + k + 1);
    const started = performance.now();
    const revision = await stack.etcd.put(put.key, put.value);
    if (seen < revision) {
      const shown = new Promise<boolean>((resolve) => {
        waiters.push({ revision, wake: () => resolve(true) });
        setTimeout(() => resolve(false), STREAM_DEADLINE_MS).unref();
      });
      if (!(await shown)) fail(`revision ${revision} did not reach the stream in ${STREAM_DEADLINE_MS} ms`, stack.app);
    }
    out.push(performance.now() - started);
    await sleep(250); // the next put a little later, as a fleet's changes come
  }
  abort.abort();
  await reading;
  return out;
}

const p95Of = (ms: number[]) => ({ requests: ms.length, p95_ms: round(pct(ms, 95)), p50_ms: round(pct(ms, 50)) });

/** 3. The light client and a streaming tab alone, then beside a client looping far pinned reads and diffs. */
async function isolation(stack: BenchStack, revisions: number[]) {
  const [alone, streamAlone] = await Promise.all([
    lightClient(stack, ISOLATION_MS),
    streamingTab(stack, ISOLATION_MS, 10_000),
  ]);
  let stop = false;
  const heavy = { requests: 0, refused: 0, other: 0 };
  const heavyLoop = (async () => {
    for (let n = 0; !stop; n++) {
      const a = revisions[n % revisions.length];
      const b = revisions[(n + 7) % revisions.length];
      const path =
        n % 4 === 3
          ? `/api/v1/scheduler/diff?from=${Math.min(a, b)}&to=${Math.max(a, b)}`
          : `/api/v1/scheduler/demand?limit=2000&revision=${a}`;
      const r = await timedGet(`${stack.app.url}${path}`);
      heavy.requests++;
      if (r.status === 503) heavy.refused++;
      else if (r.status !== 200) heavy.other++;
    }
  })();
  await sleep(1000); // the heavy loop is under way
  const [beside, streamBeside] = await Promise.all([
    lightClient(stack, ISOLATION_MS),
    streamingTab(stack, ISOLATION_MS, 20_000),
  ]);
  stop = true;
  await heavyLoop;
  const p95Alone = round(pct(alone, 95));
  const p95Beside = round(pct(beside, 95));
  return {
    alone: { requests: alone.length, p95_ms: p95Alone, p50_ms: round(pct(alone, 50)) },
    beside_heavy: { requests: beside.length, p95_ms: p95Beside, p50_ms: round(pct(beside, 50)) },
    ratio: round(p95Beside / p95Alone, 2),
    stream_alone: p95Of(streamAlone),
    stream_beside_heavy: p95Of(streamBeside),
    heavy,
  };
}

/** 5. The fleet grown to 8×, a console started on it, pinned reads of revisions before it started. */
async function memoryAtScale(stack: BenchStack) {
  const tables = stack.tables * SCALE;
  await seedTables(stack.etcd, PREFIX, stack.tables, tables);
  const past = await pastRevisions(stack.etcd, PREFIX, PINS_AT_SCALE, tables);
  await stack.app.stop();
  stack.app = await startConsole(stack.cluster);
  stack.tables = tables;
  const afterStart = rssMib(stack);
  const after: number[] = [];
  const during: number[] = [];
  const readMs: number[] = [];
  for (const r of past) {
    // the resident set every 50 ms while the read runs: its peak, not only what is left after it
    let peak = 0;
    let reading = true;
    const sampler = (async () => {
      while (reading) {
        peak = Math.max(peak, rssMib(stack));
        await sleep(50);
      }
    })();
    readMs.push(round(await ok(stack, `/api/v1/scheduler/demand?limit=2000&revision=${r}`)));
    reading = false;
    await sampler;
    after.push(rssMib(stack));
    during.push(Math.max(peak, after.at(-1)!));
  }
  return {
    tables,
    after_start_mib: afterStart,
    after_pins_mib: after,
    peak_during_pins_mib: during,
    read_ms: readMs,
    health: await healthMemory(stack),
  };
}

async function main(): Promise<void> {
  const started = performance.now();
  const loadBefore = loadAverage();
  const out = await withProductionStack({ name: "isolation", pastCount: PINS + PINNED_RUNS }, async (stack) => {
    const memory = await memoryAtProduction(stack, stack.past.slice(0, PINS));
    stack.log(
      `RSS ${memory.after_start_mib} MiB after start, ${memory.after_pins_mib} after ${PINS} pinned reads, ${memory.after_work_mib} after ${HISTORIES} histories and ${DIFFS} diffs, ${memory.after_quiet_mib} after ${QUIET_MS / 1000} s quiet (${memory.quiet_samples_mib.join(", ")}); health ${JSON.stringify(memory.health)}`,
    );
    const far = await measurePinned(stack, stack.past.slice(PINS));
    stack.log(pinnedLine(far));
    const iso = await isolation(stack, stack.past.slice(0, PINS));
    stack.log(`isolation ${JSON.stringify(iso)}`);
    const loop = await closedLoop(stack, "bytes");
    stack.log(
      `closed loop p95 ${loop.all.p95_ms} ms, ${loop.all.requests_per_s} requests/s, ${loop.all.errors} errors`,
    );
    const scale = await memoryAtScale(stack);
    stack.log(`8×: ${JSON.stringify(scale)}`);
    return { memory, far, iso, loop, scale };
  });
  const { memory, far, iso, loop, scale } = out;
  const scalePeak = Math.max(...scale.peak_during_pins_mib);
  const table: FigureRow[] = [
    {
      figure: `RSS at 13,405 tables after ${PINS} pinned reads, ${HISTORIES} histories and ${DIFFS} diffs`,
      value: `${memory.after_work_mib} MiB (${memory.after_start_mib} after start, ${memory.after_pins_mib} after the pinned reads)`,
      before: "684 MiB (378 after start, 747 after the pinned reads)",
      target: "≤ 600 MiB",
      met: memory.after_work_mib <= 600,
    },
    {
      figure: `… after the quiet ${QUIET_MS / 1000} s that follow`,
      value: `${memory.after_quiet_mib} MiB (${memory.quiet_growth_mib >= 0 ? "+" : ""}${memory.quiet_growth_mib} MiB)`,
      before: "837 MiB (+153 MiB)",
      target: "≤ 600 MiB, no growth",
      met: memory.after_quiet_mib <= 600 && memory.quiet_growth_mib <= 0,
    },
    {
      figure: `RSS at 8× (${scale.tables.toLocaleString("en-US")} tables) after ${PINS_AT_SCALE} pinned reads, CONSOLE_MEMORY_MIB=${BUDGET_MIB}`,
      value: `${scalePeak} MiB at most while a read runs (${Math.max(...scale.after_pins_mib)} after one; ${scale.after_start_mib} after start; reads ${Math.min(...scale.read_ms)}–${Math.max(...scale.read_ms)} ms; ${scale.health.pinned_views} pinned views kept, ${scale.health.over_budget ? "over" : "within"} the budget at the end)`,
      before: "2.4 GB",
      target: "≤ 1,536 MiB",
      met: scalePeak <= 1536,
    },
    {
      figure:
        "a second client's live one-table reads and health while one client loops far pinned reads and diffs: p95",
      value: `${iso.beside_heavy.p95_ms} ms (alone ${iso.alone.p95_ms} ms: ${iso.ratio}×; the heavy client ${iso.heavy.requests} requests, ${iso.heavy.refused} refused 503)`,
      before: "366 ms",
      target: "≤ 50 ms",
      met: iso.beside_heavy.p95_ms <= 50,
    },
    {
      figure:
        "a streaming tab's change → visible (a put to the first /tables stream event at its revision) beside the same heavy client: p95",
      value: `${iso.stream_beside_heavy.p95_ms} ms (alone ${iso.stream_alone.p95_ms} ms; ${iso.stream_beside_heavy.requests} changes)`,
      before: "not measured",
      target: "≤ 100 ms",
      met: iso.stream_beside_heavy.p95_ms <= 100,
    },
    {
      figure: `${CLIENTS} clients in a closed loop over list, detail, executors and shadow, with a writer at 10 events/s: p95`,
      value: `${loop.all.p95_ms} ms at ${loop.all.requests_per_s} requests/s (${loop.all.errors} errors)`,
      before: "259 ms",
      target: "≤ 100 ms",
      met: loop.all.p95_ms <= 100 && loop.all.errors === 0,
    },
    {
      figure: "far pinned read `demand?limit=2000&revision=R` ÷ `etcdctl get --prefix --rev=R`",
      value: `${far.ratio}× (${far.api_ms.median} ms vs ${far.floor_ms.median} ms)`,
      before: "1.94×",
      target: "≤ 1.5×",
      met: far.ratio <= 1.5,
    },
  ];
  const result = {
    at: new Date().toISOString(),
    seconds: round((performance.now() - started) / 1000),
    load_average: { before: loadBefore, after: loadAverage() },
    table,
    memory,
    far_pinned: far,
    isolation: iso,
    closed_loop: { config: loop.config, all: loop.all, by_endpoint: loop.by_endpoint, rss: loop.rss },
    scale,
  };
  writeResult("isolation", result);
  console.log(
    `\n${renderFigures(table)}\nload average ${loadBefore.join(" ")} → ${result.load_average.after.join(" ")}; ${result.seconds} s`,
  );
}

if (require.main === module) runBench(main);
