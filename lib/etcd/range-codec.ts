// Hand-written protobuf codec for etcd's KV.Range (rpc.proto RangeRequest/RangeResponse,
// kv.proto KeyValue). The paged reader moves ~20 MB per production snapshot; protobufjs
// with `longs: String` (etcd3's loader) spends most of the client time building objects
// and converting four int64s per kv to strings. This decodes straight into RawKv: keys
// as strings, values as views of the received buffer, revisions as numbers (< 2^53).

export interface RangeRequestFields {
  key: Buffer;
  rangeEnd?: Buffer;
  limit?: number;
  revision?: number;
  /** serve from the member's local state (no ReadIndex round trip) */
  serializable?: boolean;
  keysOnly?: boolean;
  countOnly?: boolean;
}

/**
 * An own slot every decoded kv carries (initially `undefined`) for a later layer's memo
 * (lib/snapshot remembers each kv's parse outcome there): attaching it then does not grow
 * ~27,000 objects per read.
 */
export const KV_MEMO: unique symbol = Symbol("kv memo");

interface DecodedKv {
  key: string;
  value: Buffer;
  modRevision: number;
  /** lease id as a decimal string ("0" when none; ids may exceed 2^53) */
  lease: string;
  [KV_MEMO]?: unknown;
}

export interface DecodedRange {
  revision: number;
  kvs: DecodedKv[];
  more: boolean;
  count: number;
  /** Σ key + value bytes */
  bytes: number;
  /** raw bytes of the last key (the continuation point) */
  lastKey: Buffer | null;
}

function varintSize(n: number): number {
  let size = 1;
  while (n >= 128) {
    n = Math.floor(n / 128);
    size++;
  }
  return size;
}

function writeVarint(buf: Buffer, pos: number, n: number): number {
  while (n >= 128) {
    buf[pos++] = (n % 128) | 128;
    n = Math.floor(n / 128);
  }
  buf[pos++] = n;
  return pos;
}

export function encodeRangeRequest(req: RangeRequestFields): Buffer {
  const fields: [number, Buffer | number][] = [[1, req.key]];
  if (req.rangeEnd) fields.push([2, req.rangeEnd]);
  if (req.limit) fields.push([3, req.limit]);
  if (req.revision) fields.push([4, req.revision]);
  if (req.serializable) fields.push([7, 1]);
  if (req.keysOnly) fields.push([8, 1]);
  if (req.countOnly) fields.push([9, 1]);
  let size = 0;
  for (const [, v] of fields) size += 1 + (typeof v === "number" ? varintSize(v) : varintSize(v.length) + v.length);
  const buf = Buffer.allocUnsafe(size);
  let pos = 0;
  for (const [field, v] of fields) {
    if (typeof v === "number") {
      buf[pos++] = field << 3; // wire type 0
      pos = writeVarint(buf, pos, v);
    } else {
      buf[pos++] = (field << 3) | 2; // length-delimited
      pos = writeVarint(buf, pos, v.length);
      v.copy(buf, pos);
      pos += v.length;
    }
  }
  return buf;
}

class Reader {
  pos: number;
  constructor(
    readonly buf: Buffer,
    start: number,
    readonly end: number,
  ) {
    this.pos = start;
  }

  /** varint as a number (exact below 2^53) */
  varint(): number {
    const buf = this.buf;
    let b = buf[this.pos++];
    if (b < 128) return b;
    let result = b & 127;
    let scale = 128;
    for (;;) {
      b = buf[this.pos++];
      result += (b & 127) * scale;
      if (b < 128) return result;
      scale *= 128;
      if (this.pos > this.end) throw new Error("truncated varint");
    }
  }

  /** varint as an exact decimal string (lease ids are random 63-bit numbers) */
  varintString(): string {
    const start = this.pos;
    const n = this.varint();
    if (n <= Number.MAX_SAFE_INTEGER) return String(n);
    let big = 0n;
    for (let i = this.pos - 1; i >= start; i--) big = (big << 7n) | BigInt(this.buf[i] & 127);
    return BigInt.asIntN(64, big).toString();
  }

  skip(wireType: number): void {
    if (wireType === 0) this.varint();
    else if (wireType === 2) this.pos += this.varint();
    else if (wireType === 1) this.pos += 8;
    else if (wireType === 5) this.pos += 4;
    else throw new Error(`unsupported wire type ${wireType}`);
  }
}

function decodeHeaderRevision(r: Reader, end: number): number {
  let revision = 0;
  while (r.pos < end) {
    const tag = r.varint();
    if (tag >>> 3 === 3 && (tag & 7) === 0) revision = r.varint();
    else r.skip(tag & 7);
  }
  return revision;
}

/** Where the last decoded key lies in the response (its Buffer is cut once, at the end). */
let lastKeyStart = -1;
let lastKeyEnd = -1;

function decodeKv(r: Reader, end: number, out: DecodedRange): DecodedKv {
  const buf = r.buf;
  let key = "";
  let value: Buffer = EMPTY;
  let modRevision = 0;
  let lease = "0";
  while (r.pos < end) {
    const tag = r.varint();
    switch (tag) {
      case (1 << 3) | 2: {
        const len = r.varint();
        key = buf.toString("utf8", r.pos, r.pos + len);
        lastKeyStart = r.pos;
        lastKeyEnd = r.pos + len;
        out.bytes += len;
        r.pos += len;
        break;
      }
      case (3 << 3) | 0:
        modRevision = r.varint();
        break;
      case (5 << 3) | 2: {
        const len = r.varint();
        value = buf.subarray(r.pos, r.pos + len);
        out.bytes += len;
        r.pos += len;
        break;
      }
      case (6 << 3) | 0:
        lease = r.varintString();
        break;
      default:
        r.skip(tag & 7);
    }
  }
  return { key, value, modRevision, lease, [KV_MEMO]: undefined };
}

const EMPTY = Buffer.alloc(0);

export function decodeRangeResponse(buf: Buffer): DecodedRange {
  const r = new Reader(buf, 0, buf.length);
  const out: DecodedRange = { revision: 0, kvs: [], more: false, count: 0, bytes: 0, lastKey: null };
  lastKeyStart = -1;
  while (r.pos < buf.length) {
    const tag = r.varint();
    const field = tag >>> 3;
    if (field === 1 && (tag & 7) === 2) {
      const len = r.varint();
      const end = r.pos + len;
      out.revision = decodeHeaderRevision(r, end);
      r.pos = end;
    } else if (field === 2 && (tag & 7) === 2) {
      const len = r.varint();
      const end = r.pos + len;
      out.kvs.push(decodeKv(r, end, out));
      r.pos = end;
    } else if (field === 3 && (tag & 7) === 0) out.more = r.varint() !== 0;
    else if (field === 4 && (tag & 7) === 0) out.count = r.varint();
    else r.skip(tag & 7);
  }
  if (lastKeyStart >= 0) out.lastKey = buf.subarray(lastKeyStart, lastKeyEnd);
  return out;
}
