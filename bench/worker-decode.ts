// `npx tsx bench/worker-decode.ts`: would decoding the fleet read's demand events in a worker
// thread take work off the main thread (issue 24, "Pinned reads near the floor")? The
// production fleet's 26,810 event values (./stack.ts productionEvent), decoded three ways;
// main-thread time per round (event-loop utilisation while the round runs), median of 7:
//   A. scanDemandEvent on the main thread (what the read does);
//   B. a worker parses and posts the events back (structured clone; SealedTimes rebuilt);
//   C. a worker parses into columns (Float64Array, transferred), the main thread builds the
//      events from them (no byte scanning on the main thread).
import { Worker, isMainThread, parentPort } from "node:worker_threads";
import { performance } from "node:perf_hooks";
import { scanDemandEvent } from "../lib/schema/demand-scan";
import { SealedTimes } from "../lib/schema/sealed-times";
import { PRODUCTION_SHARDS, PRODUCTION_TABLES } from "../lib/sim/scenarios/production";
import { PREFIX, productionEvent } from "./stack";

/** the pairs a SealedTimes holds (a private field; this bench reads it to copy it out) */
const pairsOf = (t: SealedTimes | undefined): number[] =>
  (t as unknown as { pairs: number[] } | undefined)?.pairs ?? [];

type Cols = { nums: Float64Array; pairs: Float64Array; pairEnds: Uint32Array };
function toColumns(bufs: Uint8Array[]): Cols {
  const nums = new Float64Array(bufs.length * 6);
  const pairsAll: number[] = [];
  const pairEnds = new Uint32Array(bufs.length);
  bufs.forEach((b, k) => {
    const e = scanDemandEvent(b)!;
    nums.set(
      [e.sealed_through, e.sealed_bytes_through, e.merged_through ?? NaN, e.flushed_at_ms, e.writer_epoch, 0],
      k * 6,
    );
    for (const x of pairsOf(e.sealed_times)) pairsAll.push(x);
    pairEnds[k] = pairsAll.length;
  });
  return { nums, pairs: Float64Array.from(pairsAll), pairEnds };
}

if (!isMainThread) {
  parentPort!.on("message", (m: { kind: string; all: ArrayBuffer; ends: Uint32Array }) => {
    const bytes = new Uint8Array(m.all);
    const bufs: Uint8Array[] = [];
    let start = 0;
    for (const end of m.ends) {
      bufs.push(bytes.subarray(start, end));
      start = end;
    }
    if (m.kind === "objects")
      parentPort!.postMessage(
        bufs.map((b) => {
          const e = scanDemandEvent(b)!;
          return { ...e, sealed_times: pairsOf(e.sealed_times) };
        }),
      );
    else {
      const c = toColumns(bufs);
      parentPort!.postMessage(c, [c.nums.buffer, c.pairs.buffer, c.pairEnds.buffer] as ArrayBuffer[]);
    }
  });
} else void main();

async function main() {
  const values: Buffer[] = [];
  for (let i = 0; i < PRODUCTION_TABLES; i++)
    for (const s of PRODUCTION_SHARDS) values.push(Buffer.from(productionEvent(PREFIX, i, s).value));
  const ends = new Uint32Array(values.length);
  let n = 0;
  values.forEach((v, k) => (ends[k] = n += v.length));
  const all = Buffer.concat(values);
  console.log(`${values.length} events, ${(all.length / 1048576).toFixed(1)} MiB`);
  const worker = new Worker(__filename, { execArgv: ["--require", "tsx/cjs"] });
  const ask = (kind: string) =>
    new Promise<unknown>((resolve) => {
      worker.once("message", resolve);
      const copy = all.buffer.slice(all.byteOffset, all.byteOffset + all.length);
      worker.postMessage({ kind, all: copy, ends }, [copy]);
    });
  const timed = async (f: () => Promise<unknown> | unknown) => {
    const e0 = performance.eventLoopUtilization();
    const t0 = performance.now();
    const out = await f();
    const e = performance.eventLoopUtilization(e0);
    return { main: e.active, wall: performance.now() - t0, out };
  };
  const rounds: Record<string, { main: number[]; wall: number[] }> = {
    A: { main: [], wall: [] },
    B: { main: [], wall: [] },
    C: { main: [], wall: [] },
  };
  for (let r = 0; r < 8; r++) {
    const a = await timed(() => values.map((v) => scanDemandEvent(v)));
    const b = await timed(async () =>
      ((await ask("objects")) as Array<Record<string, unknown>>).map((e) => ({
        ...e,
        sealed_times: SealedTimes.fromSortedPairs(e.sealed_times as number[]),
      })),
    );
    const c = await timed(async () => {
      const { nums, pairs, pairEnds } = (await ask("columns")) as Cols;
      const out = new Array(pairEnds.length);
      let start = 0;
      for (let k = 0; k < pairEnds.length; k++) {
        const end = pairEnds[k];
        const p = new Array(end - start);
        for (let i = start; i < end; i++) p[i - start] = pairs[i];
        start = end;
        const m = nums[k * 6 + 2];
        out[k] = {
          v: 1,
          shard: PRODUCTION_SHARDS[k % 2],
          sealed_through: nums[k * 6],
          sealed_bytes_through: nums[k * 6 + 1],
          merged_through: Number.isNaN(m) ? null : m,
          flushed_at_ms: nums[k * 6 + 3],
          writer_epoch: nums[k * 6 + 4],
          source: "scan",
          sealed_times: SealedTimes.fromSortedPairs(p),
        };
      }
      return out;
    });
    if (r === 0) continue; // warm-up
    for (const [k, x] of Object.entries({ A: a, B: b, C: c })) {
      rounds[k].main.push(x.main);
      rounds[k].wall.push(x.wall);
    }
  }
  const med = (xs: number[]) => [...xs].sort((p, q) => p - q)[xs.length >> 1].toFixed(1);
  for (const [k, x] of Object.entries(rounds))
    console.log(
      `${k}: main thread ${med(x.main)} ms (${(Number(med(x.main)) / Number(med(rounds.A.main))).toFixed(2)}× A), wall ${med(x.wall)} ms (median of ${x.main.length})`,
    );
  await worker.terminate();
}
