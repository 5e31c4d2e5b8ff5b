// The gzip bytes of the cacheable answers (./serve.mjs), by the digest of their identity
// bytes, least recently used first out, within a 64th of CONSOLE_MEMORY_MIB
// (./byte-cache.mjs); with its hits and misses. A module of its own so that tests reach the
// server's one instance through the inspector, not through a slot on globalThis: Node loads an
// ES module once per URL, and `require` of it answers that instance
// (test/support/inspector.ts `inGzipCache`).
import { byteCache, byteCacheShare } from "./byte-cache.mjs";

export const gzipped = byteCache(byteCacheShare());

/** hits and misses (test/integration/api/encoded.test.ts), and a way to empty the cache (the load smoke test measures the live heap without it) */
export const gzipCounters = {
  hits: 0,
  misses: 0,
  clear() {
    gzipped.clear();
  },
};
