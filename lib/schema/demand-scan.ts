// Byte scanner for the wire form every publisher writes (scheduler-model.md §2.1, T13).
// JSON.parse of the production fleet's values costs about as much as etcd's whole read:
// every `sealed_times` object has integer-like keys ("1001".."1049"), which V8 stores as
// dictionary elements of heap numbers (~650,000 per T23 read, and the GC to match).
// `scanDemandEvent` reads the UTF-8 bytes directly, checks every field and every time
// entry as JSON.parse + `validateDemandEvent` would, and builds `sealed_times` straight
// into its compact pair array (lib/schema/sealed-times.ts) as it walks the entries. It
// answers only for the stored field order (v, shard, sealed_through,
// sealed_bytes_through, merged_through, [merged_epoch], flushed_at_ms, writer_epoch,
// source, [sealed_times]) with v 0 or 1, unescaped printable-ASCII strings, integers of at
// most 15 digits and canonical generation keys of at most 15 digits in ascending order;
// anything else (other orders, missing defaults, extra keys, escapes, fractions,
// exponents, `-0`, repeated or unordered generations, errors of any kind) returns `null`
// and the caller takes the exact slow path. Accepted input, output (key order included)
// and skip reasons are therefore unchanged.
import type { DemandEvent } from "./demand";
import { SealedTimes } from "./sealed-times";

const QUOTE = 34;
const COMMA = 44;
const COLON = 58;
const LBRACE = 123;
const RBRACE = 125;
const MINUS = 45;
const D0 = 48;
const D9 = 57;
/** integers of at most 15 digits are < 2^53, so exact by accumulation */
const MAX_DIGITS = 15;

const codes = (s: string): number[] => Array.from(s, (c) => c.charCodeAt(0));
const K_V = codes("v");
const K_SHARD = codes("shard");
const K_SEALED_THROUGH = codes("sealed_through");
const K_SEALED_BYTES = codes("sealed_bytes_through");
const K_MERGED_THROUGH = codes("merged_through");
const K_MERGED_EPOCH = codes("merged_epoch");
const K_FLUSHED_AT = codes("flushed_at_ms");
const K_WRITER_EPOCH = codes("writer_epoch");
const K_SOURCE = codes("source");
const K_SEALED_TIMES = codes("sealed_times");
const SOURCES_BYTES = (["writer", "executor", "scan"] as const).map((name) => ({ name, bytes: codes(name) }));

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

/** At `p`, `"<name>"` then `:` → where its value starts (whitespace skipped), or -1. */
function member(b: Uint8Array, p: number, end: number, name: number[]): number {
  if (b[p] !== QUOTE || b[p + name.length + 1] !== QUOTE || !sameBytes(b, p + 1, p + 1 + name.length, name)) return -1;
  p = skipWs(b, p + name.length + 2, end);
  return b[p] === COLON ? skipWs(b, p + 1, end) : -1;
}

/** After a value at `p`: `,` → where the next member starts, or -1. */
function next(b: Uint8Array, p: number, end: number): number {
  p = skipWs(b, p, end);
  return b[p] === COMMA ? skipWs(b, p + 1, end) : -1;
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
  if (!isPlainInteger(b, start, p, end, negative)) return -1;
  intValue = negative ? -n : n;
  return p;
}

/** Digits [start, stop) form a JSON integer of ≤ 15 digits with nothing numeric after it. */
function isPlainInteger(b: Uint8Array, start: number, stop: number, end: number, negative: boolean): boolean {
  const digits = stop - start;
  if (digits === 0 || digits > MAX_DIGITS) return false;
  if (b[start] === D0 && (digits > 1 || negative)) return false; // "01" is not JSON; "-0" is left to JSON.parse
  if (stop < end) {
    const c = b[stop];
    if (c === 46 || c === 101 || c === 69) return false; // . e E
  }
  return true;
}

/** u64 or null at `p` (sets `intValue`, NaN for null) → its end, or -1. */
function nullableEnd(b: Uint8Array, p: number, end: number): number {
  if (b[p] !== 110) return integerEnd(b, p, end, false);
  if (b[p + 1] !== 117 || b[p + 2] !== 108 || b[p + 3] !== 108) return -1;
  intValue = NaN;
  return p + 4;
}

/** Pairs of the time map read by `timesEnd` (a scratch buffer; copied out per event). */
const scratch: number[] = [];
let scratchLength = 0;

/**
 * End (after `}`) of `{"<canonical generation>": <integer>, …}` at `p`, with generations
 * strictly ascending (sets `scratch`/`scratchLength` to its pairs), or -1.
 */
function timesEnd(b: Uint8Array, p: number, end: number): number {
  if (b[p] !== LBRACE) return -1;
  p = skipWs(b, p + 1, end);
  scratchLength = 0;
  if (b[p] === RBRACE) return p + 1;
  let last = -1;
  // the hot loop of a production read (~650,000 entries): bytes past `end` read as
  // undefined, which fails every comparison below
  for (;;) {
    // "<canonical digits>"
    if (b[p] !== QUOTE) return -1;
    const keyStart = ++p;
    let c = b[p];
    let g = 0;
    while (c >= D0 && c <= D9) {
      g = g * 10 + (c - D0);
      c = b[++p];
    }
    const keyDigits = p - keyStart;
    if (keyDigits === 0 || keyDigits > MAX_DIGITS || c !== QUOTE || (keyDigits > 1 && b[keyStart] === D0) || g <= last)
      return -1;
    last = g;
    // : -?<digits>, at most 15, no leading zero, no "-0", no fraction or exponent
    c = b[++p];
    if (c !== COLON) {
      p = skipWs(b, p, end);
      if (b[p] !== COLON) return -1;
    }
    c = b[++p];
    if (c === 32 || c === 10 || c === 13 || c === 9) c = b[(p = skipWs(b, p, end))];
    const negative = c === MINUS;
    if (negative) c = b[++p];
    const start = p;
    let ms = 0;
    while (c >= D0 && c <= D9) {
      ms = ms * 10 + (c - D0);
      c = b[++p];
    }
    const digits = p - start;
    if (digits === 0 || digits > MAX_DIGITS || (b[start] === D0 && (digits > 1 || negative))) return -1;
    scratch[scratchLength++] = g;
    scratch[scratchLength++] = negative ? -ms : ms;
    // , or }
    if (c !== COMMA && c !== RBRACE) {
      if (c === 46 || c === 101 || c === 69) return -1; // . e E
      c = b[(p = skipWs(b, p, end))];
    }
    p++;
    if (c === COMMA) {
      if (b[p] !== QUOTE) p = skipWs(b, p, end);
    } else if (c === RBRACE) {
      return p;
    } else return -1;
  }
}

/** Node's Buffer decodes a byte range without a view (`latin1Slice`); plain arrays do not. */
type MaybeNodeBuffer = Uint8Array & { latin1Slice?: (start: number, end: number) => string };

/** The (printable ASCII) string of bytes [start, stop): `known` itself when equal to it. */
function asciiString(b: MaybeNodeBuffer, start: number, stop: number, known: string | undefined): string {
  const s = b.latin1Slice !== undefined ? b.latin1Slice(start, stop) : ascii.decode(b.subarray(start, stop));
  return s === known ? known : s;
}

function sourceName(b: Uint8Array, start: number, stop: number): DemandEvent["source"] | undefined {
  for (let i = 0; i < SOURCES_BYTES.length; i++)
    if (sameBytes(b, start, stop, SOURCES_BYTES[i].bytes)) return SOURCES_BYTES[i].name;
  return undefined;
}

/**
 * A DemandEvent value (UTF-8 bytes) in the stored wire form → the event exactly as
 * `JSON.parse` + `validateDemandEvent` (+ `v = 1`) would produce it, key order included;
 * `null` when the bytes are outside the fast subset (use the string path then).
 * `shardHint` (the key's shard, normally equal to the
 * body's) is reused as the `shard` string when the bytes match it.
 */
export function scanDemandEvent(b: Uint8Array, shardHint?: string): DemandEvent | null {
  const end = b.length;
  let p = skipWs(b, 0, end);
  if (b[p] !== LBRACE) return null;
  // v (0 or 1; anything else takes the slow path's version rules)
  p = member(b, skipWs(b, p + 1, end), end, K_V);
  if (p < 0 || (p = integerEnd(b, p, end, false)) < 0 || intValue > 1) return null;
  // shard
  if ((p = next(b, p, end)) < 0 || (p = member(b, p, end, K_SHARD)) < 0) return null;
  const shardEnd = stringEnd(b, p, end);
  if (shardEnd < 0) return null;
  const shard = asciiString(b, p + 1, shardEnd, shardHint);
  p = shardEnd + 1;
  // sealed_through, sealed_bytes_through
  if (
    (p = next(b, p, end)) < 0 ||
    (p = member(b, p, end, K_SEALED_THROUGH)) < 0 ||
    (p = integerEnd(b, p, end, false)) < 0
  )
    return null;
  const sealedThrough = intValue;
  if (
    (p = next(b, p, end)) < 0 ||
    (p = member(b, p, end, K_SEALED_BYTES)) < 0 ||
    (p = integerEnd(b, p, end, false)) < 0
  )
    return null;
  const sealedBytes = intValue;
  // merged_through, merged_epoch?
  if ((p = next(b, p, end)) < 0 || (p = member(b, p, end, K_MERGED_THROUGH)) < 0 || (p = nullableEnd(b, p, end)) < 0)
    return null;
  const mergedThrough = Number.isNaN(intValue) ? null : intValue;
  if ((p = next(b, p, end)) < 0) return null;
  let mergedEpoch: number | null | undefined;
  const epochAt = member(b, p, end, K_MERGED_EPOCH);
  if (epochAt >= 0) {
    if ((p = nullableEnd(b, epochAt, end)) < 0 || (p = next(b, p, end)) < 0) return null;
    mergedEpoch = Number.isNaN(intValue) ? null : intValue;
  }
  // flushed_at_ms (i64), writer_epoch
  if ((p = member(b, p, end, K_FLUSHED_AT)) < 0 || (p = integerEnd(b, p, end, true)) < 0) return null;
  const flushedAt = intValue;
  if (
    (p = next(b, p, end)) < 0 ||
    (p = member(b, p, end, K_WRITER_EPOCH)) < 0 ||
    (p = integerEnd(b, p, end, false)) < 0
  )
    return null;
  const writerEpoch = intValue;
  // source
  if ((p = next(b, p, end)) < 0 || (p = member(b, p, end, K_SOURCE)) < 0) return null;
  const sourceEnd = stringEnd(b, p, end);
  const source = sourceEnd < 0 ? undefined : sourceName(b, p + 1, sourceEnd);
  if (source === undefined) return null;
  p = skipWs(b, sourceEnd + 1, end);
  // sealed_times?
  let timesAt = -1;
  if (b[p] === COMMA) {
    if ((p = member(b, skipWs(b, p + 1, end), end, K_SEALED_TIMES)) < 0) return null;
    timesAt = p;
    if ((p = timesEnd(b, p, end)) < 0) return null;
    p = skipWs(b, p, end);
  }
  if (b[p] !== RBRACE || skipWs(b, p + 1, end) !== end) return null;

  const event: DemandEvent =
    mergedEpoch === undefined
      ? {
          v: 1,
          shard,
          sealed_through: sealedThrough,
          sealed_bytes_through: sealedBytes,
          merged_through: mergedThrough,
          flushed_at_ms: flushedAt,
          writer_epoch: writerEpoch,
          source,
        }
      : {
          v: 1,
          shard,
          sealed_through: sealedThrough,
          sealed_bytes_through: sealedBytes,
          merged_through: mergedThrough,
          merged_epoch: mergedEpoch,
          flushed_at_ms: flushedAt,
          writer_epoch: writerEpoch,
          source,
        };
  if (timesAt >= 0) event.sealed_times = SealedTimes.fromSortedPairs(scratch.slice(0, scratchLength));
  return event;
}
