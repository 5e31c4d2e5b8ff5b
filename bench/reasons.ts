// `npm run bench:reasons`: what held the fleet back overnight (issue 23 "What held the fleet
// back": an overnight window reads in under 1 s). GET /scheduler/reasons's work
// (lib/time/journal-reasons.ts `schedulerReasons`: the chunk keys, the checkpoint before the
// window and every chunk in it, every row decoded, each step's due tables counted by verdict
// code) over the last 8 h of the production fleet's journal (./journal-history.ts
// `journalChunks`: a checkpoint every 30 min, a writer at 10 events/s, rolled up as the writer
// does), at 1× and 8× the tables, on an etcd of its own. The default step (8 h ÷ 60), median
// of RUNS; nothing of a whole-chunk read is kept between requests, so each is as cold as the
// first.
import "../lib/sim/node-entry";
import { resetConsoleEnv } from "../lib/config/env";
import { reasonsQuerySchema } from "../lib/schema/api/reasons";
import { startEtcd } from "../test/support/etcd";
import { runBench, writeResult } from "./harness";
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
      let points = 0;
      for (let i = 0; i < RUNS; i++) {
        const started = performance.now();
        const answer = await schedulerReasons(q, endMs + 1000);
        times.push(performance.now() - started);
        points = answer.points.length;
      }
      const run: ReasonsRun = {
        scale,
        chunks: written.chunks,
        stored_bytes: written.bytes,
        points,
        read_ms: { median: round(median(times)), all: times.map((t) => round(t)) },
      };
      runs.push(run);
      console.log(
        `${scale}×: 8 h of what held the fleet back (${points} steps, ${written.chunks} chunks, ${round(written.bytes / 1_048_576)} MiB): median ${run.read_ms.median} ms (${run.read_ms.all.join(", ")}; target < ${TARGET_MS} ms)`,
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
