// One table's history read from the decision journal at 1×, 2×, 4× and 8× the production
// tables (13,405 at 1×), side by side in one run against a real etcd (issue 23: "at 8× the
// tables the figures grow by no more than 2×"). For each scale, 6 h 30 min of journal are
// written in its stored form (lib/journal/codec.ts) under a prefix of their own: a
// checkpoint of every table each 30 min (the writer's default), and a delta chunk each 5 s
// flush holding a writer at 10 events/s (each event changes one busy table's entry; busy
// tables are 354 × the scale) plus the measured table, which changes every 12 s (≈ 1,800
// changes in 6 h, as bench/history.ts writes). Then `journalWindow` — the journal part of
// GET /scheduler/demand/history, the only part whose work grows with the fleet — reads a
// 6 h window of that table: its chunk keys, the checkpoint before the window and every
// chunk in it but the periodic checkpoints (the fold already holds their state), decoded
// and folded, cold (nothing the process keeps of the chunks). Median of RUNS. The chunks are built directly (not
// through JournalLog, whose per-evaluation diff of every table the sampler pays, not the
// reader: bench/journal.ts measures that).
// Side by side in one run, on the same journal: `before` — the chunks as flushed in the
// stored form of version 1 (one gzip of a JSON), every row of every chunk decoded (the read
// before rollups); `whole` — rolled up as the writer does (lib/journal/rollup.ts, one chunk
// per closed ROLLUP_MS) in version 1, only the table's rows built (the read before the
// sectioned form); `rolled` — rolled up in today's form, version 2 (lib/journal/sections.ts:
// placements and hashed buckets compressed each on its own), opening only the placements
// and the table's bucket: today's read. The two rolled answers must be equal byte for byte,
// or the bench fails.
import "../lib/sim/node-entry";
import { createRawEtcdClient } from "../lib/etcd/raw";
import { resetConsoleEnv } from "../lib/config/env";
import { chunkKey, decodeChunk, encodeChunk, type JournalChunk } from "../lib/journal/codec";
import { journalPrefix } from "../lib/schema/keys";
import { nextRollup, rollUp } from "../lib/journal/rollup";
import { chunkRuns, targetTimeline } from "../lib/journal/window";
import { ROLLUP_MS } from "../lib/live/journal";
import type { TableState } from "../lib/journal/entry";
import type { InputsAt } from "../lib/time/history-moved-by";
import { startEtcd } from "../test/support/etcd";
import { encodeVersion1 } from "../test/support/journal-v1";
import { BUSY, busyState, CHECKPOINT_MS, FLUSH_MS, idle, rng, TABLES } from "./journal-shape";

const EVENTS_PER_S = 10;
const TARGET_EVERY_MS = 12_000;
const WINDOW_MS = 6 * 3_600_000;
const WRITTEN_MS = WINDOW_MS + CHECKPOINT_MS;
const RUNS = 5;
const TARGET = "db0/table-0";

export interface JournalHistoryRun {
  scale: number;
  tables: number;
  chunks: number;
  rolled_chunks: number;
  stored_bytes: number;
  rolled_bytes: number;
  /** the rolled-up chunks in the stored form of version 1 */
  whole_bytes: number;
  checkpoint_bytes: number;
  points: number;
  /** today's read: rolled-up chunks (version 2), the placements and the table's bucket opened */
  read_ms: { median: number; all: number[] };
  /** rolled-up chunks in version 1, every chunk inflated and parsed, the table's rows built */
  whole_ms: { median: number; all: number[] };
  /** the read before rollups and one-table decoding: the chunks as flushed (version 1), every row decoded */
  before_ms: { median: number; all: number[] };
}

/** The chunks rolled up as the writer does: every closed ROLLUP_MS of deltas as one chunk. */
export function rolledUp(chunks: readonly JournalChunk[], prefix: string): JournalChunk[] {
  const keyed = chunks.map((chunk, i) => ({
    chunk,
    meta: {
      key: chunkKey(prefix, chunk, i, "bench"),
      kind: chunk.kind,
      from_ms: chunk.from_ms,
      to_ms: chunk.to_ms,
      entries: 0,
      bytes: 1,
    },
  }));
  let out = keyed;
  for (;;) {
    const run = nextRollup(
      out.map((k) => k.meta),
      Number.MAX_SAFE_INTEGER,
      { periodMs: ROLLUP_MS, maxBytes: Number.MAX_SAFE_INTEGER, maxParts: Number.MAX_SAFE_INTEGER },
    );
    if (run === null) return out.map((k) => k.chunk);
    const keys = new Set(run.map((m) => m.key));
    const at = out.findIndex((k) => keys.has(k.meta.key));
    const chunk = rollUp(out.filter((k) => keys.has(k.meta.key)).map((k) => k.chunk));
    out = [
      ...out.slice(0, at),
      { chunk, meta: { ...run[0], to_ms: chunk.to_ms } },
      ...out.filter((k, i) => i > at && !keys.has(k.meta.key)),
    ];
  }
}

/** What a written journal is about: one table whose changes are dated, and the fleet around it. */
export interface JournalShape {
  /** the table whose history is read */
  target: string;
  /** the table's changes (ms, ascending); by default one every TARGET_EVERY_MS */
  targetChangesAt?: readonly number[];
  /** the etcd revision an evaluation at `ms` read; by default EVENTS_PER_S revisions a second from 1,000 */
  revisionAt?: (ms: number) => number;
  /** table `i`'s name; by default `db${i % 97}/table-${i}` */
  nameOf?: (i: number) => string;
  /** how long a span is written, ending at `endMs` (default 6 h 30 min) */
  writtenMs?: number;
  /** the target's input marks and the executors' capacities at a revision, as the sampler marks them (default: not marked) */
  inputsAt?: (revision: number) => InputsAt | undefined;
}

/**
 * The journal's chunks for 6 h 30 min ending at `endMs`, at `scale` × the tables (see the
 * top), in the order written: one evaluation a second, EVENTS_PER_S busy tables changed in
 * each, and the shape's target at its changes.
 */
export function* journalChunks(
  scale: number,
  endMs: number,
  shape: JournalShape = { target: TARGET },
): Generator<JournalChunk> {
  const r = rng(scale);
  const n = TABLES * scale;
  const busy = BUSY * scale;
  const nameOf = shape.nameOf ?? ((i: number) => `db${i % 97}/table-${i}`);
  const names = Array.from({ length: n }, (_, i) => nameOf(i));
  const target = shape.target;
  if (!names.includes(target)) names[0] = target;
  const others = names.filter((t) => t !== target);
  const state = new Map<string, TableState>(names.map((t, i) => [t, i < busy ? busyState(r) : idle]));
  const start = endMs - (shape.writtenMs ?? WRITTEN_MS);
  let counted = 1_000;
  const revisionAt = shape.revisionAt ?? (() => (counted += EVENTS_PER_S));
  const changesAt = shape.targetChangesAt;
  let nextChange = 0;
  let previousTo = start;
  for (let from = start; from < endMs; from += FLUSH_MS) {
    const evaluations: JournalChunk["evaluations"] = [];
    for (let now = from + 1000; now <= from + FLUSH_MS; now += 1000) {
      const changed = new Map<string, TableState>();
      for (let e = 0; e < EVENTS_PER_S; e++) changed.set(others[Math.floor(r() * (busy - 1))], busyState(r));
      let mine = false;
      if (changesAt === undefined) mine = now % TARGET_EVERY_MS < 1000;
      else for (; nextChange < changesAt.length && changesAt[nextChange] <= now; nextChange++) mine = true;
      const revision = revisionAt(now);
      const inputs = shape.inputsAt?.(revision);
      if (mine) changed.set(target, inputs ? { ...busyState(r), inputs: inputs.marks } : busyState(r));
      for (const [t, s] of changed) state.set(t, s);
      evaluations.push({
        revision,
        now_ms: now,
        changed,
        removed: [],
        ...(inputs ? { capacities: inputs.capacities } : {}),
      });
    }
    const to = from + FLUSH_MS;
    if ((from - start) % CHECKPOINT_MS === 0) {
      // a checkpoint restates every table at its first evaluation; the writer's first carries the
      // rest as deltas; a periodic one's evaluation ends a delta, it stands alone restating it,
      // and the rest follow in a delta (lib/journal/log.ts)
      const [first, ...rest] = evaluations;
      // a checkpoint's rows are not marked (lib/journal/log.ts)
      const restated = {
        ...first,
        changed: new Map([...state].map(([t, s]): [string, TableState] => [t, s.inputs ? unmarked(s) : s])),
      };
      if (from === start)
        yield { kind: "after_no_sampler", from_ms: first.now_ms, to_ms: to, evaluations: [restated, ...rest] };
      else {
        yield { kind: "delta", from_ms: previousTo, to_ms: first.now_ms, evaluations: [first] };
        yield { kind: "restated", from_ms: first.now_ms, to_ms: first.now_ms, evaluations: [restated] };
        yield { kind: "delta", from_ms: first.now_ms, to_ms: to, evaluations: rest };
      }
    } else yield { kind: "delta", from_ms: previousTo, to_ms: to, evaluations };
    previousTo = to;
  }
}

function unmarked(s: TableState): TableState {
  const { inputs: _, ...rest } = s;
  return rest;
}

export async function writeJournal(
  endpoints: string,
  prefix: string,
  journal: Iterable<JournalChunk>,
  encode: (chunk: JournalChunk) => Buffer = encodeChunk,
) {
  const client = createRawEtcdClient({ endpoints: endpoints.split(","), callTimeoutMs: 60_000 });
  let chunks = 0;
  let bytes = 0;
  let checkpointBytes = 0;
  try {
    let batch: { key: string; value: Buffer }[] = [];
    let batchBytes = 0;
    const flush = async () => {
      if (batch.length === 0) return;
      const txn = client.if(`${prefix}/console/none`, "Version", "==", 0);
      await txn.then(...batch.map((kv) => client.put(kv.key).value(kv.value))).commit();
      batch = [];
      batchBytes = 0;
    };
    for (const chunk of journal) {
      const value = encode(chunk);
      chunks++;
      bytes += value.length;
      if (chunk.kind !== "delta") checkpointBytes = value.length;
      if (batchBytes + value.length > 1_048_576) await flush();
      batch.push({ key: chunkKey(prefix, chunk, value.length, "bench"), value });
      batchBytes += value.length;
      // one txn stays well under etcd's 1.5 MiB request limit and 128 ops
      if (batch.length >= 100 || chunk.kind !== "delta") await flush();
    }
    await flush();
  } finally {
    client.close();
  }
  return { chunks, bytes, checkpointBytes };
}

/** The read as it was before rollups: the same key runs, every row of every chunk decoded, the table's timeline folded. */
async function readBefore(target: string, fromMs: number, toMs: number) {
  const { etcdClient, etcdPrefix } = await import("../lib/etcd/client");
  const { readJournalValues } = await import("../lib/etcd/journal-store");
  const { journalMetas } = await import("../lib/journal/reader");
  const base = journalPrefix(etcdPrefix());
  const runs = chunkRuns(await journalMetas(), fromMs, toMs) ?? [];
  const read = await Promise.all(runs.map((r) => readJournalValues(etcdClient(), base, r.fromKey, r.toKey)));
  return targetTimeline(
    read.flat().map((kv) => decodeChunk(kv.value)),
    target,
    fromMs,
    toMs,
  ).changes.length;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round = (x: number) => Math.round(x * 10) / 10;

/**
 * A cold read each time: what the process keeps of chunks it decoded (lib/journal/reader.ts:
 * one table's decodes, the chunks' shared skeletons) is dropped before it.
 */
async function forgetKept(): Promise<void> {
  const { keptSkeletons, keptTableDecodes } = await import("../lib/journal/reader");
  keptTableDecodes.clear();
  keptSkeletons.clear();
}

/** Writes and reads each scale in turn on one etcd of its own; `log` says what it does. */
export async function measureJournalHistory(
  log: (line: string) => void,
  scales: readonly number[] = [1, 2, 4, 8],
): Promise<JournalHistoryRun[]> {
  const etcd = await startEtcd({ extraArgs: ["--quota-backend-bytes", String(8 * 1024 ** 3)] });
  const runs: JournalHistoryRun[] = [];
  try {
    process.env.ETCD_ENDPOINTS = etcd.endpoints;
    process.env.CONSOLE_SHADOW_SAMPLER = "off";
    const { journalWindow } = await import("../lib/time/journal-history");
    const endMs = Math.floor(Date.now() / FLUSH_MS) * FLUSH_MS;
    for (const scale of scales) {
      const prefix = `/bench-journal-${scale}x`;
      const rolledPrefix = `/bench-journal-${scale}x-rolled`;
      const wholePrefix = `/bench-journal-${scale}x-whole`;
      const started = performance.now();
      const chunks = [...journalChunks(scale, endMs)];
      const written = await writeJournal(etcd.endpoints, prefix, chunks, encodeVersion1);
      const rolledChunks = rolledUp(chunks, rolledPrefix);
      const rolled = await writeJournal(etcd.endpoints, rolledPrefix, rolledChunks);
      const whole = await writeJournal(etcd.endpoints, wholePrefix, rolledChunks, encodeVersion1);
      log(
        `${scale}×: wrote ${written.chunks} chunks, ${round(written.bytes / 1_048_576)} MiB (rolled up: ${rolled.chunks} chunks, ${round(rolled.bytes / 1_048_576)} MiB; ${round(whole.bytes / 1_048_576)} MiB in version 1), in ${round((performance.now() - started) / 1000)} s`,
      );
      const times = { before: [] as number[], whole: [] as number[], rolled: [] as number[] };
      const answers = { whole: "", rolled: "" };
      let points = 0;
      const use = (p: string) => {
        process.env.ETCD_PREFIX = p;
        resetConsoleEnv();
      };
      // interleaved, so the three see the same machine
      for (let i = 0; i < RUNS; i++) {
        use(prefix);
        let t = performance.now();
        await readBefore(TARGET, endMs - WINDOW_MS, endMs);
        times.before.push(performance.now() - t);
        for (const [name, p] of [
          ["whole", wholePrefix],
          ["rolled", rolledPrefix],
        ] as const) {
          use(p);
          await forgetKept();
          t = performance.now();
          const w = await journalWindow(TARGET, endMs - WINDOW_MS, endMs);
          times[name].push(performance.now() - t);
          points = w.points.length;
          if (w.uncovered.length > 0) throw new Error(`${scale}×: the journal does not cover the window`);
          answers[name] = JSON.stringify(w, (_, v) => (v instanceof Map ? [...v] : v));
        }
        if (answers.whole !== answers.rolled) throw new Error(`${scale}×: the sectioned journal answers differently`);
      }
      const figures = (xs: number[]) => ({ median: round(median(xs)), all: xs.map((x) => round(x)) });
      const run: JournalHistoryRun = {
        scale,
        tables: TABLES * scale,
        chunks: written.chunks,
        rolled_chunks: rolled.chunks,
        stored_bytes: written.bytes,
        rolled_bytes: rolled.bytes,
        whole_bytes: whole.bytes,
        checkpoint_bytes: written.checkpointBytes,
        points,
        read_ms: figures(times.rolled),
        whole_ms: figures(times.whole),
        before_ms: figures(times.before),
      };
      log(JSON.stringify(run));
      runs.push(run);
    }
  } finally {
    await etcd.stop();
  }
  return runs;
}
