// The pushed /tables stream's gzip (scripts/serve.mjs): lib/scheduler/demand-stream.ts
// writes the same event bytes to every open tab, and each is deflated ONCE, whatever the tabs.
import zlib from "node:zlib";
import { createHash } from "node:crypto";
import { byteCache, byteCacheShare, keepBytes } from "./byte-cache.mjs";

/**
 * The pushed /tables stream (lib/scheduler/demand-stream.ts) writes the same event bytes to
 * every open tab. Each is deflated ONCE, whatever the tabs: on its own (no back-reference to
 * what came before, ended by a sync flush, so it leaves at once), and every stream sends those
 * bytes inside its own gzip member (header once, each event's segment, and at the end an
 * empty last block with the CRC and length of what it sent). Before, each tab's connection
 * deflated every event again (a 650 KB clock frame every 5 s, ten times for ten tabs).
 */
/** segments by the digest of the event's bytes (a sha-1 costs a few percent of a deflate), least recently used first out, within a 64th of CONSOLE_MEMORY_MIB (./byte-cache.mjs) */
const segments = byteCache(byteCacheShare());
/** segments deflated and segments sent again from those bytes (test/integration/api/stream-gzip.test.ts imports them) */
export const streamCounters = { deflated: 0, shared: 0 };
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);

function segmentOf(bytes) {
  const key = createHash("sha1").update(bytes).digest("base64");
  const kept = segments.get(key);
  if (kept) {
    streamCounters.shared++;
    return kept;
  }
  streamCounters.deflated++;
  return keepBytes(
    segments,
    key,
    zlib.deflateRawSync(bytes, {
      level: zlib.constants.Z_BEST_SPEED,
      finishFlush: zlib.constants.Z_SYNC_FLUSH,
    }),
  );
}

/** A 200 event stream to a client that takes gzip (`gzip`) is sent in shared segments (segmentOf); anything else as it is. */
export function gzipSharedEvents(req, res, gzip) {
  res.setHeader("vary", "accept-encoding");
  const writeHead = res.writeHead;
  const write = res.write;
  const end = res.end;
  let on = null; // decided with the headers
  let crc = 0;
  let length = 0;
  let started = false; // the gzip header is out
  const start = () => {
    if (started) return;
    started = true;
    write.call(res, GZIP_HEADER);
  };
  const decide = () => {
    if (on !== null) return;
    on =
      gzip &&
      res.statusCode === 200 &&
      /^text\/event-stream/.test(String(res.getHeader("content-type") ?? "")) &&
      res.getHeader("content-encoding") === undefined;
    if (on) {
      res.setHeader("content-encoding", "gzip");
      res.removeHeader("content-length");
    }
  };
  res.writeHead = function (...args) {
    if (!res.headersSent) decide();
    return writeHead.apply(this, args);
  };
  const segment = (chunk, encoding) => {
    const bytes =
      typeof chunk === "string" ? Buffer.from(chunk, typeof encoding === "string" ? encoding : "utf8") : chunk;
    crc = zlib.crc32(bytes, crc);
    length += bytes.length;
    return segmentOf(bytes);
  };
  res.write = function (chunk, encoding, callback) {
    decide();
    if (!on) return write.call(this, chunk, encoding, callback);
    start();
    if (typeof encoding === "function") [callback, encoding] = [encoding, undefined];
    if (chunk == null || chunk.length === 0) {
      if (typeof callback === "function") callback();
      return true;
    }
    return write.call(this, segment(chunk, encoding), callback);
  };
  res.end = function (chunk, encoding, callback) {
    decide();
    if (!on) return end.call(this, chunk, encoding, callback);
    if (typeof chunk === "function") [callback, chunk] = [chunk, null];
    else if (typeof encoding === "function") [callback, encoding] = [encoding, undefined];
    start();
    if (chunk != null && chunk.length > 0) write.call(this, segment(chunk, encoding));
    // the last block (empty, fixed Huffman), then the member's CRC-32 and length
    const trailer = Buffer.alloc(10);
    trailer[0] = 0x03;
    trailer.writeUInt32LE(crc >>> 0, 2);
    trailer.writeUInt32LE(length >>> 0, 6);
    return end.call(this, trailer, callback);
  };
}
