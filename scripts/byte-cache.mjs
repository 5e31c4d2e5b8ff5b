// The console server's byte caches (scripts/serve.mjs: answers' gzip; scripts/stream-gzip.mjs:
// the /tables stream's deflated segments): lru-cache, bounded by what they really keep. zlib
// hands back a small output as a view of its 8–16 KiB output buffer (node:zlib returns the one
// chunk it wrote without copying it), so a 30-byte segment kept as it came held 16 KiB:
// counted by their lengths, 16 MiB of segments kept up to ~500× that outside the V8 heap, and
// the resident set grew for hours while they filled (the soak, docs/operations.md "Memory over
// hours"). Each value is kept in a buffer of its own size and weighed with its key and the
// entry's own cost.
import { LRUCache } from "lru-cache";

/** what one entry costs besides its bytes: the Buffer and ArrayBuffer objects, the map slot, the key's header */
export const ENTRY_OVERHEAD_BYTES = 256;

/** `bytes` in a buffer of exactly its size (a view of a larger buffer would keep all of it) */
export function ownBytes(bytes) {
  if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength) return bytes;
  const copy = Buffer.allocUnsafeSlow(bytes.length);
  copy.set(bytes);
  return copy;
}

/** The share of CONSOLE_MEMORY_MIB (lib/live/memory-budget.ts) each byte cache of the server keeps: a 64th, 16 MiB at the default. */
export function byteCacheShare(env = process.env) {
  const mib = Number(env.CONSOLE_MEMORY_MIB);
  return Math.floor(((Number.isFinite(mib) && mib > 0 ? mib : 1024) * 1024 * 1024) / 64);
}

/** A byte cache weighing at most `maxBytes` in all (bytes, keys and overhead); no value over a quarter of it is kept. */
export function byteCache(maxBytes) {
  return new LRUCache({
    maxSize: maxBytes,
    maxEntrySize: maxBytes / 4,
    sizeCalculation: (bytes, key) => bytes.buffer.byteLength + key.length * 2 + ENTRY_OVERHEAD_BYTES,
  });
}

/** Keeps `bytes` for `key` in a buffer of its own (unless too large to keep); returns that buffer. */
export function keepBytes(cache, key, bytes) {
  const own = ownBytes(bytes);
  cache.set(key, own);
  return own;
}
