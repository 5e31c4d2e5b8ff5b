// Hand-written validator for the hot path: `demand-events/` holds ~27,000 records read on
// every refresh, and zod's generic record walk costs ~10× JSON.parse there. It accepts and
// rejects exactly what DemandEventSchema does (property test in demand.test.ts) and
// returns the same output shape; the zod schema stays the reference and the source of the type.
import type { DemandEvent } from "./demand";

const SOURCES: Record<string, true> = { writer: true, executor: true, scan: true };

const isU64 = (n: unknown): n is number => typeof n === "number" && Number.isInteger(n) && n >= 0;
const isI64 = (n: unknown): n is number => typeof n === "number" && Number.isInteger(n);

/** Canonical decimal (no leading zeros) → 1, other all-digit → 2, not decimal → 0. */
function generationKeyKind(k: string): 0 | 1 | 2 {
  const n = k.length;
  if (n === 0) return 0;
  for (let i = 0; i < n; i++) {
    const c = k.charCodeAt(i);
    if (c < 48 || c > 57) return 0;
  }
  return n > 1 && k.charCodeAt(0) === 48 ? 2 : 1;
}

/** Side output of `validateDemandEvent`: entries in `sealed_times` (0 when absent). */
export interface DemandEventStats {
  timesCount: number;
}

/**
 * Validate a parsed JSON object as a DemandEvent, in place (defaults filled; the object
 * is reused as the result). Returns a one-line error (`path: message`) or the event.
 * `stats.timesCount` lets the fold skip re-counting the time map (JSON.parse gives these
 * integer-keyed objects dictionary elements, where every key walk is costly).
 */
export function validateDemandEvent(body: Record<string, unknown>, stats?: DemandEventStats): DemandEvent | string {
  const v = body.v;
  if (v === undefined) body.v = 1;
  else if (!isU64(v) || v > 4_294_967_295) return "v: expected a u32";
  if (typeof body.shard !== "string") return "shard: expected string";
  if (!isU64(body.sealed_through)) return "sealed_through: expected a non-negative integer";
  const bytes = body.sealed_bytes_through;
  if (bytes === undefined) body.sealed_bytes_through = 0;
  else if (!isU64(bytes)) return "sealed_bytes_through: expected a non-negative integer";
  const merged = body.merged_through;
  if (merged === undefined) body.merged_through = null;
  else if (merged !== null && !isU64(merged)) return "merged_through: expected a non-negative integer or null";
  const mergedEpoch = body.merged_epoch;
  if (mergedEpoch !== undefined && mergedEpoch !== null && !isU64(mergedEpoch)) {
    return "merged_epoch: expected a non-negative integer or null";
  }
  if (!isI64(body.flushed_at_ms)) return "flushed_at_ms: expected an integer";
  if (!isU64(body.writer_epoch)) return "writer_epoch: expected a non-negative integer";
  if (typeof body.source !== "string" || SOURCES[body.source] !== true) {
    return 'source: expected one of "writer"|"executor"|"scan"';
  }
  const times = body.sealed_times;
  if (times !== undefined) {
    if (times === null || typeof times !== "object" || Array.isArray(times)) {
      return "sealed_times: expected an object";
    }
    let canonical = true;
    const map = times as Record<string, unknown>;
    const generations = Object.keys(map);
    for (let i = 0; i < generations.length; i++) {
      const k = generations[i];
      const kind = generationKeyKind(k);
      if (kind === 0) return `sealed_times.${k}: generation keys must be decimal strings`;
      if (kind === 2) canonical = false;
      if (!isI64(map[k])) return `sealed_times.${k}: expected an integer`;
    }
    if (stats !== undefined) stats.timesCount = generations.length;
    if (!canonical) {
      const out: Record<string, number> = {};
      let count = 0;
      for (const k of generations) {
        const g = String(Number(k));
        const t = map[k] as number;
        if (out[g] === undefined) count++;
        if (out[g] === undefined || t < out[g]) out[g] = t;
      }
      body.sealed_times = out;
      if (stats !== undefined) stats.timesCount = count;
    }
  } else if (stats !== undefined) stats.timesCount = 0;
  return body as unknown as DemandEvent;
}

// ---------------------------------------------------------------------------------------
// Byte scanner for the common wire form (scheduler-model.md §2.1). JSON.parse of the
// production fleet's values costs about as much as etcd's whole read: every `sealed_times`
// object has integer-like keys ("1001".."1049"), which V8 stores as dictionary elements of
// heap numbers (~670,000 of them per T23 read, and the GC to match). `scanDemandEvent`
// reads the UTF-8 bytes directly, validates every field and every time entry exactly as
// JSON.parse + `validateDemandEvent` would, and defers building the `sealed_times` object
// until it is first read (then it is `JSON.parse` of the very same bytes). Anything outside
// the strict subset it understands (escapes, non-ASCII, fractions or exponents, numbers of
// 16+ digits, `-0`, unknown or repeated keys, non-canonical generation keys, v other than
// 0/1, any type or JSON error) returns `null`: the caller then takes the exact slow path,
// so accepted input, output and skip reasons are unchanged.

const QUOTE = 34;
const COMMA = 44;
const COLON = 58;
const LBRACE = 123;
const RBRACE = 125;
const MINUS = 45;
const D0 = 48;
/** integers of at most 15 digits are < 2^53, so exact by accumulation */
const MAX_DIGITS = 15;

// field ids (bit positions in the `seen` mask)
const F = { V: 0, Shard: 1, SealedThrough: 2, SealedBytes: 3, MergedThrough: 4, MergedEpoch: 5, FlushedAt: 6, WriterEpoch: 7, Source: 8, SealedTimes: 9 } as const;
const FIELD_NAMES = ["v", "shard", "sealed_through", "sealed_bytes_through", "merged_through", "merged_epoch", "flushed_at_ms", "writer_epoch", "source", "sealed_times"];
const FIELD_BYTES = FIELD_NAMES.map(asciiCodes);
const REQUIRED = (1 << F.Shard) | (1 << F.SealedThrough) | (1 << F.FlushedAt) | (1 << F.WriterEpoch) | (1 << F.Source);
const SOURCE_BYTES = (["writer", "executor", "scan"] as const).map((name) => ({ name, bytes: asciiCodes(name) }));

function asciiCodes(s: string): number[] {
  return Array.from(s, (c) => c.charCodeAt(0));
}

const ascii = new TextDecoder("utf-8");

function skipWs(b: Uint8Array, p: number, end: number): number {
  while (p < end) {
    const c = b[p];
    if (c !== 32 && c !== 10 && c !== 13 && c !== 9) return p;
    p++;
  }
  return p;
}

/** End of the quoted printable-ASCII string (no escapes) opening at `p`, or -1. */
function stringEnd(b: Uint8Array, p: number, end: number): number {
  if (b[p] !== QUOTE) return -1;
  for (let i = p + 1; i < end; i++) {
    const c = b[i];
    if (c === QUOTE) return i;
    if (c < 0x20 || c >= 0x80 || c === 92) return -1;
  }
  return -1;
}

function sameBytes(b: Uint8Array, start: number, stop: number, name: number[]): boolean {
  if (stop - start !== name.length) return false;
  for (let i = 0; i < name.length; i++) if (b[start + i] !== name[i]) return false;
  return true;
}

/** The last integer read by `integerEnd`. */
let intValue = 0;

/**
 * End of the JSON integer at `p` (≤ 15 digits, no fraction or exponent; sets `intValue`),
 * or -1 when the text there is anything else.
 */
function integerEnd(b: Uint8Array, p: number, end: number, allowNegative: boolean): number {
  const negative = b[p] === MINUS;
  if (negative) {
    if (!allowNegative) return -1;
    p++;
  }
  const start = p;
  let n = 0;
  while (p < end) {
    const d = b[p] - D0;
    if (d < 0 || d > 9) break;
    n = n * 10 + d;
    p++;
  }
  const digits = p - start;
  if (digits === 0 || digits > MAX_DIGITS) return -1;
  if (b[start] === D0 && (digits > 1 || negative)) return -1; // "01" is not JSON; "-0" is left to JSON.parse
  if (p < end) {
    const c = b[p];
    if (c === 46 || c === 101 || c === 69) return -1; // . e E
  }
  intValue = negative ? -n : n;
  return p;
}

/** Entries of the time map read by `timesEnd`. */
let timesCount = 0;

/** End (after `}`) of `{"<canonical generation>": <integer>, …}` at `p` (sets `timesCount`), or -1. */
function timesEnd(b: Uint8Array, p: number, end: number): number {
  if (b[p] !== LBRACE) return -1;
  p = skipWs(b, p + 1, end);
  timesCount = 0;
  if (b[p] === RBRACE) return p + 1;
  for (let count = 1; ; count++) {
    if (b[p] !== QUOTE) return -1;
    const keyStart = ++p;
    let c = b[p];
    while (c >= D0 && c <= D0 + 9) c = b[++p];
    const digits = p - keyStart;
    if (digits === 0 || c !== QUOTE || (digits > 1 && b[keyStart] === D0)) return -1;
    p = skipWs(b, p + 1, end);
    if (b[p] !== COLON) return -1;
    p = integerEnd(b, skipWs(b, p + 1, end), end, true);
    if (p < 0) return -1;
    p = skipWs(b, p, end);
    c = b[p++];
    if (c === RBRACE) {
      timesCount = count;
      return p;
    }
    if (c !== COMMA) return -1;
    p = skipWs(b, p, end);
  }
}

const LAZY_SOURCE = Symbol("sealed_times bytes");
type LazyEvent = Record<string | symbol, unknown>;

function settleTimes(event: LazyEvent, times: unknown): void {
  Object.defineProperty(event, "sealed_times", { value: times, writable: true, enumerable: true, configurable: true });
  event[LAZY_SOURCE] = null;
}

/** Own accessor shared by every scanned event: the object is built on first read, once. */
const LAZY_TIMES: PropertyDescriptor = {
  get(this: LazyEvent) {
    const times = JSON.parse(ascii.decode(this[LAZY_SOURCE] as Uint8Array)) as unknown;
    settleTimes(this, times);
    return times;
  },
  set(this: LazyEvent, times: unknown) {
    settleTimes(this, times);
  },
  enumerable: true,
  configurable: true,
};
const SOURCE_SLOT: PropertyDescriptor = { value: null, writable: true, enumerable: false, configurable: true };

/**
 * A DemandEvent value (UTF-8 bytes) in its common wire form → the event exactly as
 * `JSON.parse` + `validateDemandEvent` (+ `v = 1`) would produce it, key order included;
 * `null` when the bytes are outside the fast subset (use the string path then).
 * A non-empty `sealed_times` is a lazy own property, built from these bytes on first read
 * (keep them unmodified until then).
 */
export function scanDemandEvent(b: Uint8Array): DemandEvent | null {
  const end = b.length;
  let p = skipWs(b, 0, end);
  if (b[p] !== LBRACE) return null;
  p = skipWs(b, p + 1, end);
  const out: LazyEvent = {};
  let seen = 0;
  for (;;) {
    const keyEnd = stringEnd(b, p, end);
    if (keyEnd < 0) return null;
    let field = -1;
    for (let f = 0; f < FIELD_BYTES.length; f++) {
      if (sameBytes(b, p + 1, keyEnd, FIELD_BYTES[f])) {
        field = f;
        break;
      }
    }
    if (field < 0 || (seen & (1 << field)) !== 0) return null;
    seen |= 1 << field;
    p = skipWs(b, keyEnd + 1, end);
    if (b[p] !== COLON) return null;
    p = skipWs(b, p + 1, end);
    if (field === F.Shard || field === F.Source) {
      const stop = stringEnd(b, p, end);
      if (stop < 0) return null;
      if (field === F.Shard) out.shard = ascii.decode(b.subarray(p + 1, stop));
      else {
        const source = SOURCE_BYTES.find((s) => sameBytes(b, p + 1, stop, s.bytes));
        if (source === undefined) return null;
        out.source = source.name;
      }
      p = stop + 1;
    } else if (field === F.SealedTimes) {
      const start = p;
      p = timesEnd(b, p, end);
      if (p < 0) return null;
      if (timesCount === 0) out.sealed_times = {};
      else {
        Object.defineProperty(out, LAZY_SOURCE, SOURCE_SLOT);
        Object.defineProperty(out, "sealed_times", LAZY_TIMES);
        out[LAZY_SOURCE] = b.subarray(start, p);
      }
    } else if ((field === F.MergedThrough || field === F.MergedEpoch) && b[p] === 110) {
      if (b[p + 1] !== 117 || b[p + 2] !== 108 || b[p + 3] !== 108) return null; // null
      out[FIELD_NAMES[field]] = null;
      p += 4;
    } else {
      p = integerEnd(b, p, end, field === F.FlushedAt);
      if (p < 0 || (field === F.V && intValue > 1)) return null;
      out[FIELD_NAMES[field]] = intValue;
    }
    p = skipWs(b, p, end);
    const c = b[p++];
    if (c === RBRACE) break;
    if (c !== COMMA) return null;
    p = skipWs(b, p, end);
  }
  if (skipWs(b, p, end) !== end || (seen & REQUIRED) !== REQUIRED) return null;
  // the defaults, in validateDemandEvent's order, then v = 1 (as parseDemandEventKv)
  if ((seen & (1 << F.V)) === 0) out.v = 1;
  if ((seen & (1 << F.SealedBytes)) === 0) out.sealed_bytes_through = 0;
  if ((seen & (1 << F.MergedThrough)) === 0) out.merged_through = null;
  out.v = 1;
  return out as unknown as DemandEvent;
}
