// The server's byte caches (./byte-cache.mjs): bounded by what they really keep.
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain ES module of the server (no types)
import { ENTRY_OVERHEAD_BYTES, byteCache, byteCacheShare, keepBytes, ownBytes } from "./byte-cache.mjs";

/** the lru-cache the server keeps bytes in (./byte-cache.mjs) */
interface Cache {
  size: number;
  calculatedSize: number;
  get(key: string): Buffer | undefined;
  values(): IterableIterator<Buffer>;
  rkeys(): IterableIterator<string>;
}

/** what the kept values hold alive: each one's whole ArrayBuffer, once */
const heldBytes = (cache: Cache) => {
  const buffers = new Set<ArrayBufferLike>();
  for (const b of cache.values()) buffers.add(b.buffer);
  return [...buffers].reduce((n, b) => n + b.byteLength, 0);
};

const deflated = (i: number) =>
  zlib.deflateRawSync(Buffer.from(`data: {"event":${i}}\n\n`), { finishFlush: zlib.constants.Z_SYNC_FLUSH });

describe("byteCache", () => {
  it("keeps small zlib outputs in buffers of their own size: what it holds stays within its bound", () => {
    const segment = deflated(0);
    // zlib's small output is a view of its whole output buffer (what the bound was blind to)
    expect(segment.buffer.byteLength).toBeGreaterThan(8 * segment.length);
    const maxBytes = 1024 * 1024;
    const cache: Cache = byteCache(maxBytes);
    for (let i = 0; i < 20_000; i++) keepBytes(cache, `k${i}`, deflated(i));
    expect(cache.calculatedSize).toBeLessThanOrEqual(maxBytes);
    expect(heldBytes(cache)).toBeLessThanOrEqual(maxBytes);
    // and it keeps as many as fit: each weighs its bytes, its key and the entry's overhead
    const one = [...cache.values()][0];
    expect(cache.size).toBeGreaterThan(maxBytes / (one.length + 12 + ENTRY_OVERHEAD_BYTES) - 2);
  });

  it("drops the least recently used first, a get counting as a use", () => {
    const cache: Cache = byteCache(4 * (ENTRY_OVERHEAD_BYTES + 100 + 2));
    const b = () => Buffer.alloc(100);
    for (const k of ["a", "b", "c", "d"]) keepBytes(cache, k, b());
    expect(cache.get("a")).toBeDefined();
    keepBytes(cache, "e", b());
    expect([...cache.rkeys()]).toEqual(["c", "d", "a", "e"]);
  });

  it("does not keep a value over a quarter of the whole, and hands back its own copy", () => {
    const cache: Cache = byteCache(4096);
    const big = Buffer.alloc(2048, 1);
    const kept = keepBytes(cache, "big", big);
    expect(cache.size).toBe(0);
    expect(kept.equals(big)).toBe(true);
  });

  it("copies a view of a larger buffer, and keeps a buffer of its own size as it is", () => {
    const whole = Buffer.allocUnsafeSlow(64);
    expect(ownBytes(whole)).toBe(whole);
    const view = whole.subarray(8, 24);
    const own: Buffer = ownBytes(view);
    expect(own.buffer.byteLength).toBe(16);
    expect(own.equals(view)).toBe(true);
  });

  it("takes a 64th of CONSOLE_MEMORY_MIB (16 MiB at the default)", () => {
    expect(byteCacheShare({})).toBe(16 * 1024 * 1024);
    expect(byteCacheShare({ CONSOLE_MEMORY_MIB: "256" })).toBe(4 * 1024 * 1024);
  });
});
