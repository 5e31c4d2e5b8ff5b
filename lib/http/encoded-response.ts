import "server-only";
// One serialization per answer: a read whose bytes follow from (plan, view, query) is
// encoded once, and every repeat is served from those bytes. The bytes carry a strong ETag
// (a hash of them), so `If-None-Match` answers 304 without a body, and `Cache-Control:
// no-cache` (not no-store) lets a browser keep them and revalidate. Errors never reach here
// (the handler maps a throw to a no-store JSON error), so they are never cached. The cache
// is bounded by bytes (a 16th of CONSOLE_MEMORY_MIB: 64 MiB at the default; console-api.md
// "Overload and memory"), least recently used first out.
//
// Compression is the console server's (scripts/serve.mjs): it gzips these bytes once per
// digest (DIGEST_HEADER) and sends repeats from that gzip. Next drops a route handler's own Content-Encoding
// (next/dist/server/send-response.js FORBIDDEN_HEADERS), so pre-compressed bytes cannot be
// sent from here; the ETag names the identity bytes.
import { createHash } from "node:crypto";
import { metrics } from "@/lib/metrics";
import { LRUCache } from "lru-cache";
import { consoleEnv } from "@/lib/config/env";
import { lazily } from "@/lib/util/lazily";
import { responseOver } from "./response-body";

const MARK = Symbol("cacheable");

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

export interface Encoded {
  /** the quoted strong ETag of the bytes */
  etag: string;
  /** the sha-256 of the bytes (base64url), which the ETag abbreviates */
  digest: string;
  /** the JSON, UTF-8 (its own ArrayBuffer: a Response copies it once more, as fetch does for any bytes) */
  bytes: Uint8Array<ArrayBuffer>;
}

/**
 * The bytes' sha-256, told to the console's server (scripts/serve.mjs) so its gzip cache
 * keys on the digest made here instead of hashing every answer again; the server removes
 * the header before the response leaves the process.
 */
const DIGEST_HEADER = "x-console-sha256";

/** The cache's share of CONSOLE_MEMORY_MIB. */
const BUDGET_SHARE = 1 / 16;

interface CacheState {
  /** least recently used first out, by bytes (an answer larger than the whole is not kept) */
  entries: LRUCache<string, Encoded>;
}

const cache = lazily<CacheState>(() => ({
  entries: new LRUCache({
    maxSize: Math.floor(consoleEnv().memoryBudgetBytes * BUDGET_SHARE),
    sizeCalculation: (e) => Math.max(1, e.bytes.length),
  }),
}));

/** Empty the cache (tests compare a cached answer with one encoded afresh). */
export function clearEncodedResponses(): void {
  cache().entries.clear();
  metrics().responseCacheBytes.set(0);
}

const utf8 = new TextEncoder();

function encode(body: unknown): Encoded {
  const bytes = utf8.encode(JSON.stringify(body));
  const digest = createHash("sha256").update(bytes).digest("base64url");
  return { etag: `"${digest.slice(0, 32)}"`, digest, bytes };
}

/** The answer's bytes and ETag: from the cache, else encoded now and kept. */
export function encodedOf(answer: Cacheable): Encoded {
  const c = cache();
  const m = metrics();
  const hit = c.entries.get(answer.key); // now the most recently used
  if (hit) {
    m.responseCache.inc({ result: "hit" });
    return hit;
  }
  m.responseCache.inc({ result: "miss" });
  const made = encode(answer.body());
  c.entries.set(answer.key, made);
  m.responseCacheBytes.set(c.entries.calculatedSize);
  return made;
}

/** RFC 9110 §13.1.2: If-None-Match uses the weak comparison; `*` matches any current answer. */
function notModified(ifNoneMatch: string | null, etag: string): boolean {
  return (ifNoneMatch ?? "").split(",").some((raw) => {
    const tag = raw.trim().replace(/^W\//, "");
    return tag === "*" || tag === etag;
  });
}

/** Headers every cacheable read carries: revalidate on every use; the server's gzip varies by coding. */
const CACHEABLE_HEADERS = { "cache-control": "no-cache", vary: "accept-encoding" } as const;

/** The response for a cacheable answer: 304 when the request already holds these bytes, else the bytes. */
export function encodedResponse(request: Request, answer: Cacheable): Response {
  return encodedBytesResponse(request, encodedOf(answer));
}

/** The response for an answer's encoded bytes (made here, or in the offload worker): 304 when the request holds them. */
export function encodedBytesResponse(request: Request, entry: Encoded): Response {
  const headers: Record<string, string> = { ...CACHEABLE_HEADERS, etag: entry.etag };
  if (notModified(request.headers.get("if-none-match"), entry.etag)) {
    metrics().responseCache.inc({ result: "not_modified" });
    return new Response(null, { status: 304, headers });
  }
  return responseOver(entry.bytes, {
    status: 200,
    headers: { ...headers, "content-type": "application/json; charset=utf-8", [DIGEST_HEADER]: entry.digest },
  });
}
