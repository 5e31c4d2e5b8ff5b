// `npm run bench:reasons`: what held the fleet back overnight (issue 23 "What held the fleet
// back": an overnight window reads in under 1 s). GET /scheduler/reasons's work
// (lib/time/journal-reasons.ts `schedulerReasons`: the chunk keys, the checkpoint before the
// window and every chunk in it but the restatements, each row read for its code alone,
// each step's due tables counted by verdict code) over the last 8 h of the production
// fleet's journal (./journal-history.ts `journalChunks`: a checkpoint every 30 min, a writer
// at 10 events/s, rolled up as the writer does), at 1× and 8× the tables, on an etcd of its
// own. Side by side in the same run, `before`: the read as it was — every chunk from the
// checkpoint before the window fetched and fully decoded (every entry built), then counted;
// the two answers must be equal byte for byte, or the bench fails. The default step
// (8 h ÷ 60), median of RUNS; nothing is kept between requests, so each is as cold as the
// first.
import "../lib/sim/node-entry";
import { resetConsoleEnv } from "../lib/config/env";
import { reasonsQuerySchema } from "../lib/schema/api/reasons";
import { startEtcd } from "../test/support/etcd";
import { runBench, writeResult } from "./harness";
import { decodeChunk } from "../lib/journal/codec";
import { reasonPoints, stepsOf } from "../lib/journal/reasons";
import { codesOf } from "../lib/journal/verdict-codes";
import { chunkRange } from "../lib/journal/window";
import { journalPrefix } from "../lib/schema/keys";
import { journalChunks, rolledUp, writeJournal } from "./journal-history";
import { CHECKPOINT_MS, FLUSH_MS } from "./journal-shape";
import { loadAverage, median, round } from "./stack";

const OVERNIGHT_MS = 8 * 3_600_000;
const RUNS = 5;
const TARGET_MS = 1000;

interface ReasonsRun {
  scale: number;
  chunks: number;
  stored_bytes: number;
  points: number;
  read_ms: { median: number; all: number[] };
  /** the read before: every chunk in the range fetched and fully decoded */
  before_ms: { median: number; all: number[] };
  /** read_ms ÷ before_ms, medians */
  ratio: number;
}

/** The read as it was before: every chunk from the checkpoint before the window, each fully decoded, then counted. */
async function readBefore(fromMs: number, toMs: number, stepMs: number) {
  const { etcdClient, etcdPrefix } = await import("../lib/etcd/client");
  const { readJournalValues } = await import("../lib/etcd/journal-store");
  const { journalMetas } = await import("../lib/journal/reader");
  const range = chunkRange(await journalMetas(), fromMs, toMs);
  if (range === null) throw new Error("the bench's journal does not cover the window");
  const kvs = await readJournalValues(etcdClient(), journalPrefix(etcdPrefix()), range.fromKey, range.toKey);
  return reasonPoints(
    kvs.map((kv) => codesOf(decodeChunk(kv.value))),
    stepsOf(fromMs, toMs, stepMs),
  );
}

runBench(async () => {
  const etcd = await startEtcd({ extraArgs: ["--quota-backend-bytes", String(8 * 1024 ** 3)] });
  const runs: ReasonsRun[] = [];
  const loadBefore = loadAverage();
  try {
    process.env.ETCD_ENDPOINTS = etcd.endpoints;
    process.env.CONSOLE_SHADOW_SAMPLER = "off";
    const { schedulerReasons } = await import("../lib/time/journal-reasons");
    const endMs = Math.floor(Date.now() / FLUSH_MS) * FLUSH_MS;
    for (const scale of [1, 8]) {
      const prefix = `/bench-reasons-${scale}x`;
      const chunks = rolledUp(
        [...journalChunks(scale, endMs, { target: "db0/table-0", writtenMs: OVERNIGHT_MS + CHECKPOINT_MS })],
        prefix,
      );
      const written = await writeJournal(etcd.endpoints, prefix, chunks);
      process.env.ETCD_PREFIX = prefix;
      resetConsoleEnv();
      const q = reasonsQuerySchema.parse({ from_ms: String(endMs - OVERNIGHT_MS), to_ms: String(endMs) });
      const times: number[] = [];
      const before: number[] = [];
      let points = 0;
      for (let i = 0; i < RUNS; i++) {
        let started = performance.now();
        const answer = await schedulerReasons(q, endMs + 1000);
        times.push(performance.now() - started);
        points = answer.points.length;
        started = performance.now();
        const was = await readBefore(answer.from_ms, answer.to_ms, answer.step_ms);
        before.push(performance.now() - started);
        if (JSON.stringify(was) !== JSON.stringify(answer.points))
          throw new Error(`${scale}×: the reasons read differs from the full read`);
      }
      const run: ReasonsRun = {
        scale,
        chunks: written.chunks,
        stored_bytes: written.bytes,
        points,
        read_ms: { median: round(median(times)), all: times.map((t) => round(t)) },
        before_ms: { median: round(median(before)), all: before.map((t) => round(t)) },
        ratio: round(median(times) / median(before), 2),
      };
      runs.push(run);
      console.log(
        `${scale}×: 8 h of what held the fleet back (${points} steps, ${written.chunks} chunks, ${round(written.bytes / 1_048_576)} MiB): median ${run.read_ms.median} ms (${run.read_ms.all.join(", ")}; target < ${TARGET_MS} ms); before: ${run.before_ms.median} ms (${run.before_ms.all.join(", ")}); ${run.ratio}× the time, the same answer`,
      );
    }
  } finally {
    await etcd.stop();
  }
  writeResult("reasons", {
    at: new Date().toISOString(),
    window_ms: OVERNIGHT_MS,
    target_ms: TARGET_MS,
    runs,
    load_average: { before: loadBefore, after: loadAverage() },
  });
});
