// The console's HTTP server: Next's request handler (the production build) behind one
// compression layer. `next.config.mjs` turns Next's own on-the-fly gzip off, and this
// server puts the same middleware (Next's compiled `compression`, default options) in
// front of every response, with one exception: a cacheable read (lib/http/encoded-response.ts)
// is gzipped ONCE per content and every repeat is served from those gzip bytes. Such an
// answer tells its bytes' sha-256 in a private header (DIGEST_HEADER there), computed once
// with its ETag; the cache keys on it (never on an ETag, which on other routes may name a
// revision, not bytes: the policy routes' CAS tokens) and the header never leaves the
// process. Without this, every 200 of a cached answer paid a fresh gzip (a 320 KB shadow
// answer is ~3.4 ms of zlib per request) on the server's one thread.
//
// `node scripts/serve.mjs -p PORT [-H HOST]`; `npm start` (scripts/start.mjs) runs it after
// validating the environment, and the tests start it the same way (test/support/app.ts).
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import zlib from "node:zlib";
import { gzipSharedEvents } from "./stream-gzip.mjs";
import { keepBytes } from "./byte-cache.mjs";
import { gzipCounters, gzipped } from "./gzip-cache.mjs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
// as `next start` does (next/dist/bin/next): a production server unless told otherwise,
// set before Next and React load (they pick their production builds from it)
process.env.NODE_ENV ||= "production";
const require = createRequire(import.meta.url);
const next = require("next");
const compression = require("next/dist/compiled/compression");
const { releaseCompressionStream } = require("next/dist/server/lib/release-compression-stream");

function argument(names, fallback) {
  const args = process.argv.slice(2);
  for (let i = 0; i < args.length; i++) {
    const [flag, inline] = args[i].split("=", 2);
    if (names.includes(flag)) return inline ?? args[i + 1];
  }
  return fallback;
}
const port = Number(argument(["-p", "--port"], process.env.PORT ?? "3000"));
const hostname = argument(["-H", "--hostname"], process.env.HOSTNAME ?? "0.0.0.0");

/** lib/http/encoded-response.ts DIGEST_HEADER: the identity bytes' sha-256, told by the answer */
const DIGEST_HEADER = "x-console-sha256";

/** gzips in flight by content: concurrent first requests share one */
const inflight = new Map();

/** The gzip kept for `key`, counted as a hit; null when none is kept. */
function keptGzip(key) {
  const hit = gzipped.get(key);
  if (hit) gzipCounters.hits++;
  return hit ?? null;
}

function gzipOnce(key, identity) {
  const hit = keptGzip(key);
  if (hit) return Promise.resolve(hit);
  let p = inflight.get(key);
  if (p) gzipCounters.hits++;
  else {
    gzipCounters.misses++;
    // zlib's thread pool, off the request thread; the level is zlib's default, as Next's
    p = new Promise((resolve, reject) => zlib.gzip(identity, (e, out) => (e ? reject(e) : resolve(out))))
      .then((out) => keepBytes(gzipped, key, out))
      .finally(() => inflight.delete(key));
    inflight.set(key, p);
  }
  return p;
}

/** gzip acceptable (not refused with q=0), the way `compression`'s negotiator reads it for one coding */
function acceptsGzip(req) {
  const header = req.headers["accept-encoding"];
  if (typeof header !== "string") return false;
  return header.split(",").some((part) => {
    const [coding, ...params] = part.trim().split(";");
    if (coding.trim().toLowerCase() !== "gzip" && coding.trim() !== "*") return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

/** A cacheable read: GET, 200, with the digest of its bytes, not already encoded, transform allowed. */
function isCacheableAnswer(req, res) {
  if (req.method !== "GET" || res.statusCode !== 200 || typeof res.getHeader(DIGEST_HEADER) !== "string") return false;
  if (res.getHeader("content-encoding") !== undefined) return false;
  return !/(?:^|,)\s*no-transform\s*(?:,|$)/.test(String(res.getHeader("cache-control") ?? ""));
}

/** A chunk written to a held answer, as bytes (a view of them: `Buffer.concat` copies at the end). */
function heldChunk(chunk, encoding) {
  if (typeof chunk === "string") return Buffer.from(chunk, typeof encoding === "string" ? encoding : "utf8");
  return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}

/**
 * Serves a cacheable read's body from its gzip bytes. Installed over `compression`'s own
 * patches, so it sees the headers first: it marks the response `Content-Encoding: gzip`
 * (the middleware then leaves it alone), holds the identity chunks, and at the end writes
 * the gzip of them, from the cache when the same bytes were gzipped before (known by the
 * digest the headers carry: then nothing is held). Every response loses the digest header on
 * its way out.
 */
function serveCachedGzip(req, res) {
  const gzip = acceptsGzip(req);
  const writeHead = res.writeHead;
  const write = res.write;
  const end = res.end;
  let held = null;
  let digest = null;
  /** the gzip already kept for the digest: the identity chunks are not needed */
  let kept = null;
  res.writeHead = function (...args) {
    if (held === null && !res.headersSent) {
      if (gzip && isCacheableAnswer(req, res)) {
        held = [];
        digest = res.getHeader(DIGEST_HEADER);
        kept = keptGzip(digest);
        res.setHeader("content-encoding", "gzip");
        res.removeHeader("content-length");
      }
      res.removeHeader(DIGEST_HEADER);
    }
    return writeHead.apply(this, args);
  };
  // headers go out with the first write or end: decide there, before `compression` does
  const decide = () => {
    if (gzip && held === null && !res.headersSent && isCacheableAnswer(req, res)) res.writeHead(res.statusCode);
  };
  res.write = function (chunk, encoding, callback) {
    decide();
    if (held === null) return write.call(this, chunk, encoding, callback);
    if (chunk != null && kept === null) held.push(heldChunk(chunk, encoding));
    if (typeof encoding === "function") encoding();
    else if (typeof callback === "function") callback();
    return true;
  };
  res.end = function (chunk, encoding, callback) {
    decide();
    if (held === null) return end.call(this, chunk, encoding, callback);
    if (typeof chunk === "function") [callback, chunk] = [chunk, null];
    else if (typeof encoding === "function") [callback, encoding] = [encoding, undefined];
    if (kept !== null) {
      write.call(res, kept);
      return end.call(res, callback);
    }
    if (chunk != null) held.push(heldChunk(chunk, encoding));
    // one chunk (a direct read writes its bytes at once) is gzipped as it is: held chunks are views
    // of bytes nobody changes, and zlib only reads them
    const identity = held.length === 1 ? held[0] : Buffer.concat(held);
    held = [];
    gzipOnce(digest, identity).then(
      (gz) => {
        if (res.destroyed) return;
        write.call(res, gz);
        end.call(res, callback);
      },
      () => res.destroy(),
    );
    return res;
  };
}

// The engine (lib/engine/index.ts, loaded once per process through packages/engine) and the
// offload worker (lib/live/offload-pool.ts) are built beside Next's build, from the same
// sources (`npm run build`; scripts/bundle.mjs stamps both with Next's BUILD_ID)
const distDir = path.resolve(root, process.env.NEXT_DIST_DIR || ".next");
const offloadWorker = path.join(distDir, "offload-worker.cjs");
const stamp = (file) => (fs.existsSync(file) ? fs.readFileSync(file, "utf8").trim() : null);
const buildId = stamp(path.join(distDir, "BUILD_ID"));
for (const [what, file, stampFile] of [
  ["engine", `${distDir}-engine/engine.cjs`, `${distDir}-engine/engine.build-id`],
  ["offload worker", offloadWorker, path.join(distDir, "offload-worker.build-id")],
]) {
  if (!fs.existsSync(file)) {
    console.error(`no ${what} at ${file}: build the console with \`npm run build\``);
    process.exit(1);
  }
  if (stamp(stampFile) !== buildId) {
    console.error(`the ${what} at ${file} was built for another build: build the console with \`npm run build\``);
    process.exit(1);
  }
}
process.env.CONSOLE_OFFLOAD_WORKER_FILE = offloadWorker;
// the engine, the very module Next's routes load (packages/engine): the reads asked most are
// answered from it without Next's routing (lib/engine/direct.ts). Loaded at the first request,
// after Next's start-up hook checked the environment and started the engine's work.
let engine = null;
const answerDirectly = (req, res) => (engine ??= require("@scheduler-console/engine")).answerDirectly(req, res);
const app = next({ dev: false, dir: root, hostname, port });
await app.prepare();
const handle = app.getRequestHandler();
const compress = compression();
/**
 * The pushed /tables stream: its events deflated once for every tab (gzipSharedEvents), at
 * zlib's fastest level (on 12 s of the production fleet's frames, 2.6 MB with a clock frame
 * among them, 38 % of the default level's CPU for 4 % more bytes).
 */
const STREAM_PATH = "/api/v1/scheduler/demand/stream";

const server = http.createServer((req, res) => {
  // whose line a heavy request waits in (lib/http/heavy.ts): the connection's address, never what the client says
  req.headers["x-console-client"] = req.socket.remoteAddress ?? "";
  if ((req.url ?? "").startsWith(STREAM_PATH)) {
    gzipSharedEvents(req, res, acceptsGzip(req));
    handle(req, res);
  } else
    compress(req, res, () => {
      serveCachedGzip(req, res);
      if (!answerDirectly(req, res)) handle(req, res);
    });
  // a client that disconnects leaves the middleware's zlib stream open (Next's own fix)
  res.once("close", () => {
    if (!res.writableFinished) releaseCompressionStream(res);
  });
});
server.listen(port, hostname, () => {
  // where a server-rendered page asks this server's own API (app/self-reads.ts): loopback
  // when it listens on every address
  const host = ["0.0.0.0", "::"].includes(hostname) ? "127.0.0.1" : hostname.includes(":") ? `[${hostname}]` : hostname;
  process.env.CONSOLE_SELF_ORIGIN = `http://${host}:${server.address().port}`;
  console.log(`console listening on http://${hostname}:${port}`);
});
for (const signal of ["SIGINT", "SIGTERM"])
  process.on(signal, () => server.close(() => process.exit(0)).closeAllConnections());
