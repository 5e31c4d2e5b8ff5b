// The console server's byte caches (scripts/serve.mjs: answers' gzip; scripts/stream-gzip.mjs:
// the /tables stream's deflated segments), least recently used first out, bounded by what
// they really keep. zlib hands back a small output as a view of its 8–16 KiB output buffer
// (node:zlib returns the one chunk it wrote without copying it), so a 30-byte segment kept
// as it came held 16 KiB: counted by their lengths, 16 MiB of segments kept up to ~500×
// that outside the V8 heap, and the resident set grew for hours while they filled (the
// soak, docs/operations.md "Memory over hours"). Each value is kept in a buffer of its own
// size and weighed with its key and the entry's own cost.

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

export class ByteCache {
  /** @param {number} maxBytes what the entries may weigh in all (bytes, keys and overhead) */
  constructor(maxBytes) {
    this.maxBytes = maxBytes;
    /** key → bytes, least recently used first */
    this.entries = new Map();
    /** what the entries weigh now */
    this.bytes = 0;
  }

  static weigh(key, bytes) {
    return bytes.buffer.byteLength + key.length * 2 + ENTRY_OVERHEAD_BYTES;
  }

  /** The bytes kept for `key`, made the most recently used. */
  get(key) {
    const hit = this.entries.get(key);
    if (hit === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, hit);
    return hit;
  }

  /** Keeps `bytes` (in a buffer of its own) for `key` unless it weighs more than a quarter of the whole; returns what it keeps. */
  set(key, bytes) {
    const own = ownBytes(bytes);
    if (ByteCache.weigh(key, own) > this.maxBytes / 4) return own;
    this.delete(key);
    this.entries.set(key, own);
    this.bytes += ByteCache.weigh(key, own);
    while (this.bytes > this.maxBytes) this.delete(this.entries.keys().next().value);
    return own;
  }

  delete(key) {
    const old = this.entries.get(key);
    if (old === undefined) return;
    this.entries.delete(key);
    this.bytes -= ByteCache.weigh(key, old);
  }

  clear() {
    this.entries.clear();
    this.bytes = 0;
  }
}
