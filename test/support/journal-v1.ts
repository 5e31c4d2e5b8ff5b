// The journal chunk's version 1 stored form (lib/journal/codec.ts still reads it: chunks
// written before the sectioned form), written as that version's writer wrote it: gzip of
// {v: 1, k, f, t, s: strings interned once per chunk, e: [[revision, now_ms, rows, removed]]}.
import { gzipSync } from "node:zlib";
import type { JournalChunk } from "@/lib/journal/codec";
import { interner, storeState } from "@/lib/journal/rows";
import { CHUNK_KIND_LETTER } from "@/lib/schema/keys";

export function encodeVersion1(chunk: JournalChunk): Buffer {
  const { strings, id } = interner();
  const e = chunk.evaluations.map((ev) => [
    ev.revision,
    ev.now_ms,
    [...ev.changed].map(([target, st]) => [id(target), ...storeState(st, id)]),
    ev.removed.map(id),
  ]);
  const stored = { v: 1, k: CHUNK_KIND_LETTER[chunk.kind], f: chunk.from_ms, t: chunk.to_ms, s: strings, e };
  return gzipSync(JSON.stringify(stored), { level: 6 });
}
