// The journal's stored form (console-api.md "The decision journal": chunked and compressed,
// the layout is the console's own). One chunk = one etcd key under `P/console/journal/`
// (its key codec is lib/schema/keys.ts):
// * the value: written as version 2, sections compressed each on its own so a one-table
//   read opens a fraction of it (./sections.ts); version 1, one gzip of a compact JSON,
//   is still read (chunks written before). Strings are interned once per chunk, and an
//   entry is a row of indexes (./rows.ts);
// * the key: the chunk's span, kind, entry count and size, so coverage, gaps and trimming
//   are answered from a keys-only read, never by fetching values.
// A checkpoint's first evaluation carries every table's entry (any moment = one checkpoint
// plus the deltas after it); a delta's evaluations carry only the tables that changed.
import { gunzipSync } from "node:zlib";
import { CHUNK_LETTER_KIND as LETTER_KIND, journalChunkKey, type ChunkKind } from "@/lib/schema/keys";
import type { ChunkEvaluation, JournalChunk } from "./chunk";
import type { TableState } from "./entry";
import { JournalDecodeError, stateReader, type StoredState } from "./rows";
import { decodeSectioned, encodeSectioned, isSectioned } from "./sections";

export { JournalDecodeError } from "./rows";
export type { JournalChunk } from "./chunk";
export type { ChunkKind, ChunkMeta } from "@/lib/schema/keys";

export type GapReason = "no_sampler" | "etcd_unavailable" | "trimmed";

export const isCheckpoint = (kind: ChunkKind) => kind !== "delta";

/** The gap reason a chunk of this kind closes (null: it continues the journal). */
export function gapReasonOf(kind: ChunkKind): GapReason | null {
  return kind === "after_no_sampler" ? "no_sampler" : kind === "after_etcd_unavailable" ? "etcd_unavailable" : null;
}

const entryCount = (chunk: JournalChunk) =>
  chunk.evaluations.reduce((n, e) => n + e.changed.size + e.removed.length, 0);

/** The chunk's key (lib/schema/keys.ts `journalChunkKey`) once it is `bytes` long. */
export function chunkKey(prefix: string, chunk: JournalChunk, bytes: number, writer: string): string {
  const { kind, from_ms, to_ms } = chunk;
  const first = chunk.evaluations[0]?.revision ?? 0;
  return journalChunkKey(prefix, { kind, from_ms, to_ms, entries: entryCount(chunk), bytes }, writer, first);
}

interface Stored {
  v: 1;
  k: string;
  f: number;
  t: number;
  s: string[];
  e: [revision: number, now: number, rows: [number, ...StoredState][], removed: number[]][];
}

/** The chunk's stored form: version 2, sectioned (./sections.ts). */
export const encodeChunk = (chunk: JournalChunk): Buffer => encodeSectioned(chunk);

/**
 * `only`: one table's read (lib/journal/window.ts `targetTimeline`) — keep that table's
 * rows and removals, and each evaluation's `placed` (the tables it placed: the read table's
 * `placed_with`), and build nothing for the rest; what that read answers is the same, at a
 * fraction of the cost.
 * Both stored forms are read: version 2 (sectioned) and version 1 (one gzip of a JSON).
 */
export function decodeChunk(bytes: Buffer, only?: string): JournalChunk {
  return isSectioned(bytes) ? decodeSectioned(bytes, only) : decodeWhole(bytes, only);
}

/** Version 1: gzip of {v: 1, k, f, t, s: strings, e: [[revision, now_ms, rows ([target, …entry], ./rows.ts), removed]]}. */
function decodeWhole(bytes: Buffer, only?: string): JournalChunk {
  let stored: Stored;
  try {
    stored = JSON.parse(gunzipSync(bytes).toString("utf8")) as Stored;
  } catch (e) {
    throw new JournalDecodeError(`not a journal chunk: ${(e as Error).message}`);
  }
  const kind = LETTER_KIND.get(stored?.k);
  if (stored?.v !== 1 || !kind || !Array.isArray(stored.s) || !Array.isArray(stored.e))
    throw new JournalDecodeError("not a journal chunk (version 1)");
  const s = stored.s;
  const read = stateReader(s);
  const mine = only === undefined ? -2 : s.indexOf(only); // -2: every row; -1: the table is not in this chunk
  const evaluations = stored.e.map(([revision, now_ms, rows, removed]): ChunkEvaluation => {
    const changed = new Map<string, TableState>();
    if (mine === -2) {
      for (const row of rows) changed.set(s[row[0]], read(row, 1));
      return { revision, now_ms, changed, removed: removed.map((i) => s[i]) };
    }
    const placed: string[] = [];
    for (const row of rows) {
      if (row[0] === mine) changed.set(s[row[0]], read(row, 1));
      else if (row[2] === 1) read(row, 1, true); // checked as a full read checks it
      if (row[2] === 1) placed.push(s[row[0]]);
    }
    const gone = removed.filter((i) => i === mine).map((i) => s[i]);
    return { revision, now_ms, changed, removed: gone, placed };
  });
  return { kind, from_ms: stored.f, to_ms: stored.t, evaluations };
}
