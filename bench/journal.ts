// `npm run bench:journal`: the decision journal's write and read cost at the production
// shape (13,405 tables; 354 with backlog) and at 8× the tables, with a writer at 10 and at
// 100 events/s. Pure and in memory (lib/journal): the sampler's own work per evaluation
// (diff of every table's entry, chunk encoding), the puts per second and bytes per day it
// would send to etcd, the 7-day size, and the read side — decoding 6 h of chunks and
// folding one busy table's entries (what a journal-backed history would decode).
//
// Pessimistic by construction: every writer event changes one busy table's entry (in the
// fleet most flushes move only the wait and the score, which the journal does not keep),
// plus one time-driven change a minute. Every entry carries its table's input marks and
// every chunk the executors' capacity (lib/journal/inputs.ts), as the sampler writes them. The live plan itself is not counted: the console
// makes it anyway (lib/live/plan.ts); the sampler only reads it. Short: a simulated 10 min
// (1×) or 2 min (8×) at one evaluation per second, extrapolated per day.
import "../lib/sim/node-entry";
import { chunkKey, decodeChunk, encodeChunk, type JournalChunk } from "@/lib/journal/codec";
import type { TableState } from "@/lib/journal/entry";
import { targetEntries } from "@/lib/journal/fold";
import { JournalLog } from "@/lib/journal/log";
import { runBench, writeResult } from "./harness";
import { measureJournalHistory } from "./journal-history";
import { BUSY, busyState, CHECKPOINT_MS, FLUSH_MS, idle, rng, TABLES } from "./journal-shape";

const DAY_MS = 86_400_000;
/** executors heartbeating at 1× (their capacity is written once per chunk, and again when it changes) */
const EXECUTORS = 24;

interface Run {
  scale: number;
  events_per_s: number;
  simulated_s: number;
  sampler_cpu_ms_per_s: number;
  puts_per_s: number;
  bytes_per_day: number;
  checkpoint_bytes: number;
  seven_day_bytes: number;
  read_6h_ms: number;
}

function simulate(scale: number, eventsPerS: number, seconds: number): Run {
  const r = rng(scale * 1000 + eventsPerS);
  const n = TABLES * scale;
  const busy = BUSY * scale;
  const names = Array.from({ length: n }, (_, i) => `db${i % 97}/table-${i}`);
  let tables = new Map<string, TableState>(names.map((t, i) => [t, i < busy ? busyState(r) : idle]));
  const log = new JournalLog({ checkpointEveryMs: CHECKPOINT_MS, idleExtendMs: 60_000, maxChunkEntries: 20_000 });
  const stored: { key: string; value: Buffer }[] = [];
  const t0 = 1_767_225_600_000;
  let revision = 1;
  const policyRevision = 7;
  const capacities = new Map(
    Array.from({ length: EXECUTORS * scale }, (_, i) => [
      `executor-${i}`,
      JSON.stringify([
        { merge_wal: 4, compact: 2, index_build: 1 },
        1_099_511_627_776,
        false,
        ["merge_wal", "compact", "index_build"],
      ]),
    ]),
  );
  let cpuUs = 0;
  let deltaBytes = 0;
  let checkpointBytes = 0;
  for (let s = 0; s < seconds; s++) {
    // the writer's events this second (each changes one busy table's entry), and once a minute the clock
    tables = new Map(tables);
    const changes = eventsPerS + (s % 60 === 0 ? 1 : 0);
    for (let e = 0; e < changes; e++) tables.set(names[Math.floor(r() * busy)], busyState(r));
    revision += eventsPerS;
    const now = t0 + s * 1000;
    const started = process.cpuUsage();
    // each entry marked with its table's inputs (lib/journal/inputs.ts: its demand keys moved at the
    // revision, its policies long ago, no write turn), each evaluation with the executors' capacity
    log.observe({ revision, now_ms: now, capacities }, tables, (target) => [
      revision - Math.floor(r() * eventsPerS),
      2,
      policyRevision,
      1,
      target.length % 3 === 0 ? revision - eventsPerS : 0,
      target.length % 3 === 0 ? 1 : 0,
    ]);
    if (now % FLUSH_MS === 0) {
      for (const chunk of log.drain(now)) {
        const value = encodeChunk(chunk);
        stored.push({ key: chunkKey("/p", chunk, value.length, "bench"), value });
        if (chunk.kind === "delta") deltaBytes += value.length;
        else checkpointBytes = value.length;
      }
    }
    const used = process.cpuUsage(started);
    cpuUs += used.user + used.system;
  }
  const puts = stored.length;
  const bytesPerDay = (deltaBytes / seconds) * (DAY_MS / 1000) + checkpointBytes * (DAY_MS / CHECKPOINT_MS);
  // the read side: one checkpoint decoded, and the deltas of the span (scaled to 6 h), folded for one table
  const target = names[0];
  let started = performance.now();
  const checkpoint = decodeChunk(stored[0].value);
  const checkpointMs = performance.now() - started;
  started = performance.now();
  const chunks: JournalChunk[] = [checkpoint, ...stored.slice(1).map((kv) => decodeChunk(kv.value))];
  targetEntries(chunks, target);
  const deltasMs = performance.now() - started;
  return {
    scale,
    events_per_s: eventsPerS,
    simulated_s: seconds,
    sampler_cpu_ms_per_s: Math.round((cpuUs / 1000 / seconds) * 100) / 100,
    puts_per_s: Math.round((puts / seconds) * 1000) / 1000,
    bytes_per_day: Math.round(bytesPerDay),
    checkpoint_bytes: checkpointBytes,
    seven_day_bytes: Math.round(bytesPerDay * 7),
    // one checkpoint + 6 h of deltas (the span's decode and fold scaled by 6 h / span): an estimate, not a served request
    read_6h_ms: Math.round((checkpointMs + deltasMs * ((6 * 3600) / seconds)) * 10) / 10,
  };
}

runBench(async () => {
  const runs: Run[] = [];
  for (const [scale, seconds] of [
    [1, 600],
    [8, 120],
  ] as const) {
    for (const eventsPerS of [10, 100]) {
      const run = simulate(scale, eventsPerS, seconds);
      runs.push(run);
      console.log(JSON.stringify(run));
    }
  }
  // the read side against a real etcd: one table's 6 h history from the journal at 1×–8× (./journal-history.ts)
  const history = await measureJournalHistory((line) => console.log(line));
  const base = history[0].read_ms.median;
  for (const h of history)
    console.log(
      `history from the journal, ${h.scale}× (${h.tables.toLocaleString("en-US")} tables, ${h.points} points): median ${h.read_ms.median} ms rolled up and sectioned (${Math.round((h.read_ms.median / base) * 100) / 100}× the 1× figure); ${h.whole_ms.median} ms rolled up in version 1 (whole chunks inflated); ${h.before_ms.median} ms as read before (every row decoded)`,
    );
  console.log(
    `wrote ${writeResult("journal", { at: new Date().toISOString(), tables: TABLES, busy: BUSY, flush_ms: FLUSH_MS, checkpoint_ms: CHECKPOINT_MS, runs, history_from_journal: history })}`,
  );
});
