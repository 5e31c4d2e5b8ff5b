// `npm run bench:visible`: change-to-visible through the HTTP API. One demand event is put
// (a table's shard advances a generation) and `GET /api/v1/scheduler/demand?target=T` is
// polled back to back until an answer shows the new `sealed` value; the time from the put
// to that answer is compared with the cold pinned read of the same fleet (./pinned.ts):
// target ≤ 5 %, idle and with a writer changing 10 events a second (one put every 100 ms,
// other tables). `BENCH_MERGES=N`: N running merges hold write turns (tables never measured),
// and each of the writer's puts comes with one of their progress sequences increasing (a
// console dates each from etcd's history, lib/live/progress-history.ts).
import "../lib/sim/node-entry";
import { PRODUCTION_SHARDS, productionTarget } from "../lib/sim/scenarios/production";
import { keys } from "../lib/schema/keys";
import type { Put } from "../test/support/etcd-http";
import { executionRecord } from "../test/support/fleet-records";
import { burstWriter, type LoadWriter } from "../test/support/load-driver";
import { runBench, writeResult } from "./harness";
import { measurePinned, pinnedLine, PINNED_RUNS } from "./pinned";
import {
  fail,
  loadAverage,
  median,
  PREFIX,
  productionEvent,
  round,
  sleep,
  treeCpuMs,
  withProductionStack,
  type BenchStack,
  type EtcdHttp,
} from "./stack";

export const VISIBLE_RUNS = 9;
const MERGES = Number(process.env.BENCH_MERGES ?? 0);

/** The running merge `k`: an execution holding the write turn of production table `k × 37 + 11`. */
function mergeRecords(k: number, sequence: number): Put[] {
  const target = productionTarget(k * 37 + 11);
  const id = `bench-merge-${k}`;
  const where = { endpoint: "http://bench-worker:8080", instance: "bench-worker" };
  return [
    { key: keys.mergeExecution(PREFIX, target), value: executionRecord(id, target, where) },
    { key: keys.targetLock(PREFIX, target), value: `merge-execution:${id}` },
    { key: keys.mergeProgress(PREFIX, id), value: JSON.stringify({ sequence }) },
  ];
}

/** `BENCH_MERGES` running merges, seeded before the console starts (withProductionStack's `beforeStart`). */
export async function seedMerges(etcd: EtcdHttp): Promise<void> {
  if (MERGES > 0) await etcd.putMany(Array.from({ length: MERGES }, (_, k) => mergeRecords(k, 1)).flat());
}
const POLL_DEADLINE_MS = 30_000;
const WRITER_EVERY_MS = 100;

/** One demand event put every `everyMs` (tables `k * 31 + 5`, never the measured ones). */
export function eventWriter(etcd: EtcdHttp, tables: number, everyMs = WRITER_EVERY_MS): LoadWriter {
  return burstWriter(etcd, everyMs, (n) => [
    productionEvent(PREFIX, (n * 31 + 5) % tables, PRODUCTION_SHARDS[1], 100 + n),
    // one running merge's sequence increases (its progress record only)
    ...(MERGES > 0 ? mergeRecords(n % MERGES, 2 + n).slice(2) : []),
  ]);
}

interface DetailBody {
  table?: { shards?: { shard: string; sealed: { value: number } }[] };
}

/** Put → the first `?target=` answer that shows it, `runs` times; the measured tables are odd multiples of 1,009. */
export async function changeToVisible(
  stack: BenchStack,
  runs: number,
  bumpBase: number,
): Promise<{ ms: number[]; polls: number[] }> {
  const ms: number[] = [];
  const polls: number[] = [];
  for (let k = 0; k < runs; k++) {
    const i = ((2 * k + 1) * 1009 + bumpBase) % stack.tables;
    const shard = PRODUCTION_SHARDS[0];
    const bump = bumpBase + k + 1;
    const put = productionEvent(PREFIX, i, shard, bump);
    const want = 1000 + (i % 50) + bump;
    const url = `${stack.app.url}/api/v1/scheduler/demand?target=${encodeURIComponent(productionTarget(i))}`;
    const started = performance.now();
    await stack.etcd.put(put.key, put.value);
    let n = 0;
    for (;;) {
      n += 1;
      const res = await fetch(url);
      const body = (await res.json()) as DetailBody;
      if (res.status === 200 && body.table?.shards?.find((s) => s.shard === shard)?.sealed.value === want) break;
      if (performance.now() - started > POLL_DEADLINE_MS)
        fail(
          `a put to ${productionTarget(i)} was not visible after ${POLL_DEADLINE_MS} ms (last answer ${res.status})`,
          stack.app,
        );
    }
    ms.push(performance.now() - started);
    polls.push(n);
    await sleep(300); // apart, so one change's refresh does not carry the next
  }
  return { ms, polls };
}

export interface VisibleResult {
  idle_ms: { median: number; all: number[]; polls_median: number };
  writer_ms: {
    median: number;
    all: number[];
    polls_median: number;
    writer_puts: number;
    writer_events_per_s: number;
    /** the console's CPU (process tree) over the writer's window, ms per second */
    console_cpu_ms_per_s: number;
  };
  /** idle change-to-visible ÷ the cold pinned read (`pinned_ms`) */
  idle_share: number;
  writer_share: number;
  pinned_ms: number;
  target_share: number;
  load_average: number[];
}

export async function measureVisible(stack: BenchStack, pinnedMs: number): Promise<VisibleResult> {
  const idle = await changeToVisible(stack, VISIBLE_RUNS, 0);
  const writer = eventWriter(stack.etcd, stack.tables);
  const writerStarted = performance.now();
  const cpuBefore = treeCpuMs(stack.app.process.pid!);
  writer.start();
  let loaded: Awaited<ReturnType<typeof changeToVisible>>;
  let puts: number;
  try {
    await sleep(2000); // the writer's changes flowing before the first measured put
    loaded = await changeToVisible(stack, VISIBLE_RUNS, 1000);
  } finally {
    puts = await writer.stop();
  }
  const cpuMs = treeCpuMs(stack.app.process.pid!) - cpuBefore;
  const seconds = (performance.now() - writerStarted) / 1000;
  const idleMs = median(idle.ms);
  const writerMs = median(loaded.ms);
  return {
    idle_ms: { median: round(idleMs), all: idle.ms.map((x) => round(x)), polls_median: median(idle.polls) },
    writer_ms: {
      median: round(writerMs),
      all: loaded.ms.map((x) => round(x)),
      polls_median: median(loaded.polls),
      writer_puts: puts,
      writer_events_per_s: round(puts / seconds),
      console_cpu_ms_per_s: round(cpuMs / seconds),
    },
    idle_share: round(idleMs / pinnedMs, 4),
    writer_share: round(writerMs / pinnedMs, 4),
    pinned_ms: pinnedMs,
    target_share: 0.05,
    load_average: loadAverage(),
  };
}

export const visibleLine = (r: VisibleResult) =>
  `change → visible: idle ${r.idle_ms.median} ms = ${round(r.idle_share * 100, 1)} % of the cold pinned read (${r.pinned_ms} ms); ` +
  `with a writer at ${r.writer_ms.writer_events_per_s} events/s ${r.writer_ms.median} ms = ${round(r.writer_share * 100, 1)} % (target ≤ 5 %); ` +
  `the console's CPU meanwhile ${r.writer_ms.console_cpu_ms_per_s} ms/s`;

if (require.main === module) {
  runBench(async () => {
    const result = await withProductionStack(
      { name: "visible", pastCount: PINNED_RUNS, beforeStart: (etcd) => seedMerges(etcd) },
      async (stack) => {
        const pinned = await measurePinned(stack);
        console.log(pinnedLine(pinned));
        return measureVisible(stack, pinned.api_ms.median);
      },
    );
    console.log(`${visibleLine(result)}${MERGES > 0 ? ` (${MERGES} running merges)` : ""}`);
    writeResult(MERGES > 0 ? `visible-merges-${MERGES}` : "visible", {
      at: new Date().toISOString(),
      merges: MERGES,
      ...result,
    });
  });
}
