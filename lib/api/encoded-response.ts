import "server-only";
// One serialization per answer: a read whose bytes follow from (plan, view, query) is
// encoded once, and every repeat is served from those bytes, compressed once per coding.
// The bytes carry a strong ETag (a hash of them), so `If-None-Match` answers 304 without a
// body, and `Cache-Control: no-cache` (not no-store) lets a browser keep them and revalidate.
// Errors never reach here (the handler maps a throw to a no-store JSON error), so they are
// never cached. The cache is bounded by bytes, least recently used first out.
import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { brotliCompress, constants as zlib, gzip } from "node:zlib";
import { metrics } from "@/lib/metrics";

const MARK = Symbol.for("scheduler-console.cacheable");

/**
 * An answer the wrapper may serve from the byte cache: `key` names everything its bytes
 * depend on (see ./answer-key.ts), `body` builds it on a miss. Two answers with one key
 * must have the same bytes: the key is the cache's only correctness condition.
 */
export interface Cacheable {
  readonly [MARK]: true;
  readonly key: string;
  readonly body: () => unknown;
}

export function cacheable(key: string, body: () => unknown): Cacheable {
  return { [MARK]: true, key, body };
}

export function isCacheable(value: unknown): value is Cacheable {
  return typeof value === "object" && value !== null && (value as Partial<Cacheable>)[MARK] === true;
}

type Coding = "br" | "gzip";

interface Encoded {
  key: string;
  /** the quoted strong ETag of the identity bytes; a coded variant appends `.br` / `.gz` */
  etag: string;
  identity: Buffer;
  coded: Partial<Record<Coding, Promise<Buffer>>>;
  bytes: number;
}

/** Byte budget of the cache (identity + compressed variants). */
export const CACHE_BYTES = 64 * 1024 * 1024;
/** Bodies below this are sent as they are: compressing them saves less than it costs. */
export const COMPRESS_MIN_BYTES = 1024;

const SUFFIX: Record<Coding, string> = { br: ".br", gzip: ".gz" };

const compress: Record<Coding, (b: Buffer) => Promise<Buffer>> = {
  // quality 5: within a few % of the best ratio on JSON at a small fraction of quality 11's CPU
  br: (b) => promisify(brotliCompress)(b, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5, [zlib.BROTLI_PARAM_SIZE_HINT]: b.length, [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT } }),
  gzip: (b) => promisify(gzip)(b, { level: 6 }),
};

interface CacheState {
  entries: Map<string, Encoded>;
  bytes: number;
}

const KEY = Symbol.for("scheduler-console.encoded-responses");

function cache(): CacheState {
  const g = globalThis as unknown as Record<symbol, CacheState | undefined>;
  return (g[KEY] ??= { entries: new Map(), bytes: 0 });
}

/** Empty the cache (tests compare a cached answer with one encoded afresh). */
export function clearEncodedResponses(): void {
  const c = cache();
  c.entries.clear();
  c.bytes = 0;
  metrics().responseCacheBytes.set(0);
}

function account(c: CacheState, delta: number): void {
  c.bytes += delta;
  while (c.bytes > CACHE_BYTES && c.entries.size > 1) {
    const [oldestKey, oldest] = c.entries.entries().next().value!;
    c.entries.delete(oldestKey);
    c.bytes -= oldest.bytes;
  }
  metrics().responseCacheBytes.set(c.bytes);
}

function encode(key: string, body: unknown): Encoded {
  const identity = Buffer.from(JSON.stringify(body), "utf8");
  const etag = `"${createHash("sha256").update(identity).digest("base64url").slice(0, 32)}"`;
  return { key, etag, identity, coded: {}, bytes: identity.length };
}

function lookup(answer: Cacheable): Encoded {
  const c = cache();
  const m = metrics();
  const hit = c.entries.get(answer.key);
  if (hit) {
    c.entries.delete(answer.key); // most recently used last
    c.entries.set(answer.key, hit);
    m.responseCache.inc({ result: "hit" });
    return hit;
  }
  m.responseCache.inc({ result: "miss" });
  const made = encode(answer.key, answer.body());
  c.entries.set(answer.key, made);
  account(c, made.bytes);
  return made;
}

function codedBytes(entry: Encoded, coding: Coding): Promise<Buffer> {
  let p = entry.coded[coding];
  if (!p) {
    p = entry.coded[coding] = compress[coding](entry.identity);
    p.then(
      (b) => {
        entry.bytes += b.length;
        // a variant made after its entry was evicted is not counted (the entry is gone)
        if (cache().entries.get(entry.key) === entry) account(cache(), b.length);
      },
      () => delete entry.coded[coding],
    );
  }
  return p;
}

/** The coding to send: brotli, then gzip, as the request's Accept-Encoding allows (q > 0). */
export function chooseCoding(acceptEncoding: string | null): Coding | null {
  if (!acceptEncoding) return null;
  const q = new Map<string, number>();
  for (const part of acceptEncoding.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const value = qParam ? Number(qParam.slice(2)) : 1;
    if (name) q.set(name, Number.isFinite(value) ? value : 0);
  }
  const allowed = (c: string) => (q.get(c) ?? q.get("*") ?? 0) > 0;
  if (allowed("br")) return "br";
  if (allowed("gzip")) return "gzip";
  return null;
}

/** RFC 9110 §13.1.2: If-None-Match uses the weak comparison; `*` matches any current answer. */
function notModified(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const base = etag.slice(1, -1);
  return ifNoneMatch.split(",").some((raw) => {
    const tag = raw.trim().replace(/^W\//, "");
    if (tag === "*") return true;
    const value = tag.slice(1, -1);
    return value === base || value === `${base}${SUFFIX.br}` || value === `${base}${SUFFIX.gzip}`;
  });
}

/** Headers every cacheable read carries: revalidate on every use, vary by coding. */
export const CACHEABLE_HEADERS = { "cache-control": "no-cache", vary: "accept-encoding" } as const;

/**
 * The response for a cacheable answer: 304 when the request already holds these bytes,
 * else the bytes (compressed when the client accepts it and the body is worth it).
 */
export async function encodedResponse(request: Request, answer: Cacheable): Promise<Response> {
  const entry = lookup(answer);
  const coding = entry.identity.length >= COMPRESS_MIN_BYTES ? chooseCoding(request.headers.get("accept-encoding")) : null;
  const etag = coding ? `"${entry.etag.slice(1, -1)}${SUFFIX[coding]}"` : entry.etag;
  const headers: Record<string, string> = { ...CACHEABLE_HEADERS, etag };
  if (notModified(request.headers.get("if-none-match"), entry.etag)) {
    metrics().responseCache.inc({ result: "not_modified" });
    return new Response(null, { status: 304, headers });
  }
  headers["content-type"] = "application/json; charset=utf-8";
  if (!coding) return new Response(new Uint8Array(entry.identity), { status: 200, headers });
  const body = await codedBytes(entry, coding);
  return new Response(new Uint8Array(body), { status: 200, headers: { ...headers, "content-encoding": coding } });
}
