import "server-only";
// The decision journal's one reader: every answer that reads the journal (a table's history,
// the diff's sides, the reasons view, the takeover gate's observed days, the coverage) reads
// it here, and the rest of lib/journal stays pure (the codec, the fold, the windows). Three
// reads: the chunk keys and the coverage they give (`journalMetas`, `journalCoverageAt`), the
// chunks of a window (`readChunks`) or one table's (`tableChunks`), and the verdict codes alone
// (`readCodes`).
//
// Chunk values are decoded under the decode-time rule (./codec.ts): a chunk this
// console cannot read — damaged, or naming a class, verdict code or shadow outcome it does not
// know — is counted (`console_journal_chunks_unreadable_total`), and the question it was read
// for is answered as if the journal did not cover it: history and the diff re-plan, as in a gap;
// the reasons view says the journal does not cover the window. Never a wrong entry, never a crash.
//
// One table's decode of a chunk (`only`: a table's history) is kept per process: a key at one
// mod_revision holds one value in etcd, so its decode for one table never changes. A busy
// table's 6 h is ~50 chunks, and decoding them was most of a warm history request (120–590 ms
// of it on the 2-CPU bench machine, the more the busier the machine). A chunk rewritten
// under the same key has another mod_revision, and is decoded afresh. Nor is a kept chunk
// fetched again (`tableChunks`): the keys are listed with their mod_revisions first, and only
// the values not kept are read (at 8× the tables, 6 h of chunks is ~40 MB). What every
// table's read of a chunk shares — its header, its placements, where each bucket's rows
// belong (./sections.ts `chunkSkeleton`) — is kept per chunk too, so the first
// read of another table opens its own bucket alone.
import { decodeChunk, JournalDecodeError, type ChunkMeta, type JournalChunk } from "./codec";
import { chunkSkeleton, decodeOneTable, isSectioned, type ChunkSkeleton } from "./sections";
import { decodeCodes, type CodeChunk } from "./verdict-codes";
import { coverageOf } from "./coverage";
import { consoleEnv, journalEnv } from "@/lib/config/env";
import { etcdClient, etcdPrefix } from "@/lib/etcd/client";
import {
  journalKeysVersion,
  readJournalKeys,
  readJournalKeysAfter,
  readJournalMarker,
  readJournalValues,
  readJournalValuesWhere,
} from "@/lib/etcd/journal-store";
import { journalPrefix, parseChunkKey, trimmedKey } from "@/lib/schema/keys";
import type { JournalCoverageResponse } from "@/lib/schema/api/journal";
import { metrics } from "@/lib/metrics";
import { BoundedMap } from "@/lib/util/bounded-map";

/** Rows kept (a one-table decode weighs its evaluations and the rows it built): ~50 MB at most. */
const KEPT_ROWS = 400_000;

const weigh = (c: JournalChunk) => c.evaluations.reduce((n, e) => n + 1 + e.changed.size + e.removed.length, 0);

const ONE_TABLE = new BoundedMap<string, JournalChunk>({ evict: "least-recently-used", weigh, maxWeight: KEPT_ROWS });

/** The one-table decodes kept, to count and to forget (tests, benchmarks of cold reads). */
export const keptTableDecodes: { readonly size: number; clear(): void } = ONE_TABLE;

/** A stored chunk; with its key and mod_revision, a one-table decode is kept. */
interface StoredChunk {
  value: Buffer;
  key?: string;
  modRevision?: number;
}

/**
 * Heap bytes a chunk skeleton takes per placement row or evaluation it holds (its `weight`).
 * Measured: the 104 rolled-up chunks of 6 h 30 min at the production fleet's shape
 * (bench/journal-history.ts `journalChunks`, 47,261 rows and evaluations) grew the heap by
 * 19.2 MB after a full collection: 405–423 bytes each; 432 is taken.
 */
const SKELETON_BYTES_PER_ROW = 432;

/**
 * The skeletons kept take a 32nd of CONSOLE_MEMORY_MIB (32 MiB at the default: 6 h of the
 * production fleet's chunks is ~19 MiB), least recently used dropped first; a dropped one is
 * rebuilt from its chunk when next read. Bounded by rows, they had filled for as long as the
 * journal's window (6 h) and could have held ~800 MiB.
 */
const SKELETONS = new BoundedMap<string, ChunkSkeleton>({
  evict: "least-recently-used",
  weigh: (k) => k.weight * SKELETON_BYTES_PER_ROW,
  maxWeight: Math.floor(consoleEnv().memoryBudgetBytes / 32),
});

/** The chunk skeletons kept, to count and to forget (tests, benchmarks of cold reads). */
export const keptSkeletons: { readonly size: number; clear(): void } = SKELETONS;

const keptId = (key: string, modRevision: number, only: string) => `${key}\u0000${modRevision}\u0000${only}`;

function decoded(kv: StoredChunk, only?: string): JournalChunk {
  if (only === undefined || kv.key === undefined || kv.modRevision === undefined) return decodeChunk(kv.value, only);
  const id = keptId(kv.key, kv.modRevision, only);
  const kept = ONE_TABLE.get(id);
  if (kept) return kept;
  let chunk: JournalChunk;
  if (isSectioned(kv.value)) {
    const chunkId = `${kv.key}\u0000${kv.modRevision}`;
    let skeleton = SKELETONS.get(chunkId);
    if (skeleton === undefined) SKELETONS.set(chunkId, (skeleton = chunkSkeleton(kv.value)));
    chunk = decodeOneTable(kv.value, skeleton, only);
  } else chunk = decodeChunk(kv.value, only);
  ONE_TABLE.set(id, chunk);
  return chunk;
}

/** The chunks of `kvs` (in key order), or null when any of them is unreadable. `only`: one table's read. */
export function readableChunks(kvs: readonly StoredChunk[], only?: string): JournalChunk[] | null {
  return readableAs(kvs, (kv) => decoded(kv, only));
}

/** The chunks of `kvs` (in key order) as the reasons view reads them (./verdict-codes.ts), or null as `readableChunks`. */
const readableCodes = (kvs: readonly StoredChunk[]): CodeChunk[] | null =>
  readableAs(kvs, (kv) => decodeCodes(kv.value));

function readableAs<T>(kvs: readonly StoredChunk[], decode: (kv: StoredChunk) => T): T[] | null {
  const out: T[] = [];
  let unreadable = 0;
  for (const kv of kvs) {
    try {
      out.push(decode(kv));
    } catch (e) {
      if (!(e instanceof JournalDecodeError)) throw e;
      unreadable++;
    }
  }
  if (unreadable === 0) return out;
  metrics().journalChunksUnreadable.inc(unreadable);
  return null;
}

/**
 * One table's read of the chunks in the key runs `runs` ([fromKey, toKey), in key order):
 * the chunks this process keeps decoded for the table are not fetched. Null when any chunk
 * is unreadable (as `readableChunks`).
 */
export async function tableChunks(base: string, runs: KeyRuns, only: string): Promise<JournalChunk[] | null> {
  const kept = new Map<string, JournalChunk>(); // held from the moment the listing said it is not needed
  const listed = await Promise.all(
    runs.map((r) =>
      readJournalValuesWhere(etcdClient(), base, r.fromKey, r.toKey, (key, modRevision) => {
        const chunk = ONE_TABLE.get(keptId(key, modRevision, only));
        if (chunk) kept.set(keptId(key, modRevision, only), chunk);
        return chunk === undefined;
      }),
    ),
  );
  const stored: StoredChunk[] = [];
  const out: (JournalChunk | number)[] = [];
  for (const kv of listed.flat()) {
    const chunk = kept.get(keptId(kv.key, kv.modRevision, only));
    if (chunk) out.push(chunk);
    else if (kv.value !== null)
      out.push(stored.push({ key: kv.key, modRevision: kv.modRevision, value: kv.value }) - 1);
    else return null; // listed, then gone before its value was read: not this moment's journal
  }
  const decodedNow = readableChunks(stored, only);
  if (decodedNow === null) return null;
  return out.map((c) => (typeof c === "number" ? decodedNow[c] : c));
}

// --- the chunk keys and the coverage -----------------------------------------------------
// The keys, parsed (./codec.ts names each chunk's span, kind, entries and bytes in its key):
// what coverage, history, the diff, the reasons view and the gate choose their chunks from.
// Held per process: a request first asks whether the keys changed (their count and newest
// mod_revision, two one-key reads), and reads only the keys a writer appended since (keys
// sort by time), or all of them again after a trim.

interface HeldKeys {
  prefix: string;
  version: string;
  keys: string[];
  metas: ChunkMeta[];
}

const held = { current: null as HeldKeys | null };

const parse = (prefix: string, keys: readonly string[]) =>
  keys.map((k) => parseChunkKey(prefix, k)).filter((m): m is ChunkMeta => m !== null);

export async function journalMetas(): Promise<ChunkMeta[]> {
  const client = etcdClient();
  const prefix = etcdPrefix();
  const base = journalPrefix(prefix);
  const version = await journalKeysVersion(client, base);
  const was = held.current?.prefix === prefix ? held.current : null;
  if (was?.version === version) return was.metas;
  const last = was?.keys.at(-1);
  if (was && last !== undefined) {
    // only appended since: the count says so (a trim or a rewrite reads them all again)
    const appended = await readJournalKeysAfter(client, base, last);
    if (was.keys.length + appended.length === Number(version.split(":")[0])) {
      held.current = {
        prefix,
        version,
        keys: [...was.keys, ...appended],
        metas: [...was.metas, ...parse(prefix, appended)],
      };
      return held.current.metas;
    }
  }
  const keys = await readJournalKeys(client, base);
  held.current = { prefix, version, keys, metas: parse(prefix, keys) };
  return held.current.metas;
}

/** The byte-cap trim marker's `to_ms` (null: never trimmed, or a value that is not one). */
function trimmedTo(value: string | null): number | null {
  if (value === null) return null;
  try {
    const to = (JSON.parse(value) as { to_ms?: unknown }).to_ms;
    return typeof to === "number" && Number.isSafeInteger(to) ? to : null;
  } catch {
    return null;
  }
}

/** The chunk keys and the coverage they give at `nowMs` (console-api.md "The decision journal"). */
export async function journalCoverageAt(
  nowMs: number,
): Promise<{ metas: ChunkMeta[]; coverage: JournalCoverageResponse }> {
  const [metas, marker] = await Promise.all([
    journalMetas(),
    readJournalMarker(etcdClient(), trimmedKey(etcdPrefix())),
  ]);
  return { metas, coverage: coverageOf(metas, trimmedTo(marker), nowMs, journalEnv().retentionMs) };
}

// --- the chunks of a window --------------------------------------------------------------

/** Key runs [fromKey, toKey) in key order; a null `toKey` reads to the journal's end. */
type KeyRuns = readonly { fromKey: string; toKey: string | null }[];

async function readValues(runs: KeyRuns) {
  const base = journalPrefix(etcdPrefix());
  return (await Promise.all(runs.map((r) => readJournalValues(etcdClient(), base, r.fromKey, r.toKey)))).flat();
}

/** Every chunk in `runs` with its key, or null when any of them is unreadable. */
export async function readChunks(runs: KeyRuns): Promise<{ key: string; chunk: JournalChunk }[] | null> {
  const kvs = await readValues(runs);
  const chunks = readableChunks(kvs);
  return chunks === null ? null : chunks.map((chunk, i) => ({ key: kvs[i].key, chunk }));
}

/** The chunks in `runs` as the reasons view reads them (each row for its code alone), or null when one is unreadable. */
export async function readCodes(runs: KeyRuns): Promise<CodeChunk[] | null> {
  return readableCodes(await readValues(runs));
}
