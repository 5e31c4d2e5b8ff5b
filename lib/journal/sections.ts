// The journal chunk's sectioned form (version 2; ./codec.ts reads version 1 too). A busy
// table's 6 h is a few dozen rolled-up chunks of ~30 MB of rows in all; a one-table read
// of version 1 inflated and parsed every row to keep a few thousand. Here the rows are
// split into sections, each compressed on its own, so that read opens only what it keeps:
// * the placements: every row that places a table (a one-table read keeps them all: the
//   other tables the same evaluation placed);
// * the buckets: every other row and removal, by a hash of the table's name (FNV-1a of its
//   UTF-16 code units, modulo the bucket count, which grows with the rows: ~512 a bucket).
// The header keeps, for each evaluation, which section each of its rows (and removals) went
// to, one character a row; each section keeps its rows in the order written. So a full read
// restores every evaluation exactly as written, and a one-table read finds its rows' places.
// Layout: "JC2\n", the header's length (uint32 BE), the header, then the sections, each a
// gzip of a JSON. The header (gzip of JSON): {v: 2, k: kind, f: from_ms, t: to_ms, s: the
// string table of codes and executors, e: [[revision, now_ms, rows' sections, removals'
// sections, capacities?]], b: bucket count, z: each section's length (placements, bucket 0,
// …)}, where an evaluation's capacities (./inputs.ts) are [[executor, capacity]] when they
// differ from the evaluation before it in the chunk, null when not marked, and left out when
// the same (or, on the first, not marked). A section: {t: [table names], r: [[table, …entry
// (./rows.ts)]], x: [table]}.
import { gunzipSync, gzipSync } from "node:zlib";
import { CHUNK_KIND_LETTER as KIND_LETTER, CHUNK_LETTER_KIND as LETTER_KIND } from "@/lib/schema/keys";
import type { TableState } from "./entry";
import type { ChunkEvaluation, JournalChunk } from "./chunk";
import { interner, JournalDecodeError, stateReader, storeState } from "./rows";
import { sameCapacities, type Capacities } from "./inputs";

const MAGIC = Buffer.from("JC2\n", "latin1");
const ROWS_PER_BUCKET = 512;
// one character per section: the placements and up to 64 buckets
const SECTION_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.";
const MAX_BUCKETS = SECTION_LETTERS.length - 1;
/** a section's index by its letter's char code (-1: not a section letter); a one-table read looks up every row's */
const SECTION_AT = new Int8Array(128).fill(-1);
for (let i = 0; i < SECTION_LETTERS.length; i++) SECTION_AT[SECTION_LETTERS.charCodeAt(i)] = i;
const sectionOf = (code: number): number | undefined =>
  code < 128 && SECTION_AT[code] >= 0 ? SECTION_AT[code] : undefined;

export const isSectioned = (bytes: Buffer) => bytes.length >= 8 && bytes.subarray(0, 4).equals(MAGIC);

/** The bucket of `target` among `buckets`. */
export function bucketOf(target: string, buckets: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < target.length; i++) h = Math.imul(h ^ target.charCodeAt(i), 0x01000193);
  return (h >>> 0) % buckets;
}

export interface Header {
  v: 2;
  k: string;
  f: number;
  t: number;
  s: string[];
  e: (
    | [revision: number, now: number, rows: string, removed: string]
    | [revision: number, now: number, rows: string, removed: string, capacities: [string, string][] | null]
  )[];
  b: number;
  z: number[];
}
interface Section {
  t: string[];
  r: unknown[][];
  x: unknown[];
}

const gz = (v: unknown) => gzipSync(JSON.stringify(v), { level: 6 });

export function encodeSectioned(chunk: JournalChunk): Buffer {
  const { strings, id } = interner();
  const others = chunk.evaluations.reduce((n, ev) => n + ev.changed.size + ev.removed.length, 0);
  const buckets = Math.min(MAX_BUCKETS, Math.max(1, Math.ceil(others / ROWS_PER_BUCKET)));
  const sections = Array.from({ length: buckets + 1 }, () => ({
    t: [] as string[],
    ids: new Map<string, number>(),
    r: [] as unknown[][],
    x: [] as number[],
  }));
  const name = (section: (typeof sections)[number], target: string) => {
    let i = section.ids.get(target);
    if (i === undefined) section.ids.set(target, (i = section.t.push(target) - 1));
    return i;
  };
  let before: Capacities | undefined = undefined;
  const e = chunk.evaluations.map((ev): Header["e"][number] => {
    let rows = "";
    for (const [target, st] of ev.changed) {
      const i = st.verdict.state === "would_place" ? 0 : 1 + bucketOf(target, buckets);
      sections[i].r.push([name(sections[i], target), ...storeState(st, id)]);
      rows += SECTION_LETTERS[i];
    }
    let removed = "";
    for (const target of ev.removed) {
      const i = 1 + bucketOf(target, buckets);
      sections[i].x.push(name(sections[i], target));
      removed += SECTION_LETTERS[i];
    }
    const caps = ev.capacities;
    const same = caps === undefined ? before === undefined : before !== undefined && sameCapacities(before, caps);
    before = caps;
    if (same) return [ev.revision, ev.now_ms, rows, removed];
    return [ev.revision, ev.now_ms, rows, removed, caps === undefined ? null : [...caps]];
  });
  const bodies = sections.map(({ t, r, x }) => gz({ t, r, x }));
  const header = gz({
    v: 2,
    k: KIND_LETTER[chunk.kind],
    f: chunk.from_ms,
    t: chunk.to_ms,
    s: strings,
    e,
    b: buckets,
    z: bodies.map((b) => b.length),
  } satisfies Header);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(header.length);
  return Buffer.concat([MAGIC, length, header, ...bodies]);
}

function parse<T>(bytes: Buffer): T {
  try {
    return JSON.parse(gunzipSync(bytes).toString("utf8")) as T;
  } catch (e) {
    throw new JournalDecodeError(`not a journal chunk: ${(e as Error).message}`);
  }
}

const damaged = (what: string) => new JournalDecodeError(`not a journal chunk: ${what}`);

/** The header, read and checked, and where each section starts. */
function opened(bytes: Buffer): { h: Header; kind: JournalChunk["kind"]; starts: number[] } {
  const headerEnd = 8 + bytes.readUInt32BE(4);
  const h = parse<Header>(bytes.subarray(8, headerEnd));
  const kind = LETTER_KIND.get(h?.k);
  if (
    h?.v !== 2 ||
    !kind ||
    !Array.isArray(h.s) ||
    !Array.isArray(h.e) ||
    !Array.isArray(h.z) ||
    h.z.length !== h.b + 1
  )
    throw new JournalDecodeError("not a journal chunk (version 2)");
  const starts = [headerEnd];
  for (const n of h.z) starts.push(starts[starts.length - 1] + n);
  if (starts[starts.length - 1] !== bytes.length) throw damaged("its sections do not add up");
  return { h, kind, starts };
}

function openSection(bytes: Buffer, starts: readonly number[], i: number): Section {
  const read = parse<Section>(bytes.subarray(starts[i], starts[i + 1]));
  if (!Array.isArray(read?.t) || !Array.isArray(read.r) || !Array.isArray(read.x))
    throw damaged("a section is damaged");
  return read;
}

const named = (s: Section, j: unknown) => {
  const target = s.t[j as number];
  if (typeof target !== "string") throw damaged("a row names no table");
  return target;
};

/** Each evaluation's capacities, as stored (see the top). */
function capacitiesByEvaluation(h: Header): (Capacities | undefined)[] {
  let capacities: Capacities | undefined = undefined;
  return h.e.map(([, , , , caps]) => {
    if (caps !== undefined) capacities = capacitiesOf(caps);
    return capacities;
  });
}

/** One evaluation of a whole chunk's read: `rows[i]` is what `readRow` made of `targets[i]`'s row. */
export interface WalkedEvaluation<R> {
  revision: number;
  now_ms: number;
  targets: string[];
  rows: R[];
  removed: string[];
}

/**
 * A whole chunk's read: every section opened, every row and removal put back in the
 * evaluation it was written in and checked, each row made into what `readerFor` (given the
 * chunk's strings) reads. The full read (`decodeSectioned`) and the reasons view's read
 * (./verdict-codes.ts) are this walk with two readers.
 */
export function walkSectioned<R>(
  bytes: Buffer,
  readerFor: (strings: readonly unknown[]) => (row: readonly unknown[]) => R,
): { kind: JournalChunk["kind"]; from_ms: number; to_ms: number; header: Header; evaluations: WalkedEvaluation<R>[] } {
  const { h, kind, starts } = opened(bytes);
  const sections = Array.from({ length: h.b + 1 }, (_, i) => ({
    ...openSection(bytes, starts, i),
    row: 0,
    removal: 0,
  }));
  const read = readerFor(h.s);
  const evaluations = h.e.map(([revision, now_ms, rows, removals]): WalkedEvaluation<R> => {
    const ev: WalkedEvaluation<R> = { revision, now_ms, targets: [], rows: [], removed: [] };
    for (let k = 0; k < rows.length; k++) {
      const i = sectionOf(rows.charCodeAt(k));
      if (i === undefined || i > h.b) throw damaged("a row is out of place");
      const s = sections[i];
      const row = s.r[s.row++];
      if (!Array.isArray(row)) throw damaged("a row is missing");
      ev.targets.push(named(s, row[0]));
      ev.rows.push(read(row));
    }
    for (let k = 0; k < removals.length; k++) {
      const i = sectionOf(removals.charCodeAt(k));
      if (i === undefined || i === 0 || i > h.b) throw damaged("a removal is out of place");
      const s = sections[i];
      if (s.removal >= s.x.length) throw damaged("a removal is missing");
      ev.removed.push(named(s, s.x[s.removal++]));
    }
    return ev;
  });
  for (const s of sections)
    if (s.row !== s.r.length || s.removal !== s.x.length) throw damaged("a section holds rows no evaluation names");
  return { kind, from_ms: h.f, to_ms: h.t, header: h, evaluations };
}

/** A full read: every evaluation as written. */
export function decodeSectioned(bytes: Buffer, only?: string): JournalChunk {
  if (only !== undefined) return decodeOneTable(bytes, chunkSkeleton(bytes), only);
  const walked = walkSectioned(bytes, (strings) => {
    const read = stateReader(strings);
    return (row) => read(row, 1);
  });
  const capacities = capacitiesByEvaluation(walked.header);
  const evaluations = walked.evaluations.map(({ revision, now_ms, targets, rows, removed }, e): ChunkEvaluation => {
    const changed = new Map<string, TableState>();
    targets.forEach((target, k) => changed.set(target, rows[k]));
    const caps = capacities[e];
    return caps === undefined
      ? { revision, now_ms, changed, removed }
      : { revision, now_ms, changed, removed, capacities: caps };
  });
  return { kind: walked.kind, from_ms: walked.from_ms, to_ms: walked.to_ms, evaluations };
}

/**
 * What every one-table read of a chunk shares (lib/journal/reader.ts keeps it per
 * chunk): the header; the placements, read and checked, with each evaluation's placed
 * tables; and, for each bucket, which evaluation each of its rows and removals belongs to.
 * A one-table read then opens its own bucket alone.
 */
export interface ChunkSkeleton {
  kind: JournalChunk["kind"];
  from_ms: number;
  to_ms: number;
  header: Header;
  starts: number[];
  /** by evaluation: the tables it placed (the placements section's rows), in the order written */
  placed: string[][];
  /** by table: its placement rows, as [evaluation, row] */
  placements: Map<string, [number, unknown[]][]>;
  /** by bucket section (1…): each row's and each removal's evaluation */
  bucketRows: number[][];
  bucketRemovals: number[][];
  capacities: (Capacities | undefined)[];
  /** the placement rows and evaluations it holds (what keeping it weighs) */
  weight: number;
}

export function chunkSkeleton(bytes: Buffer): ChunkSkeleton {
  const { h, kind, starts } = opened(bytes);
  const section0 = openSection(bytes, starts, 0);
  const bare = stateReader(h.s);
  const placed: string[][] = [];
  const placements = new Map<string, [number, unknown[]][]>();
  const bucketRows: number[][] = Array.from({ length: h.b + 1 }, () => []);
  const bucketRemovals: number[][] = Array.from({ length: h.b + 1 }, () => []);
  let next = 0;
  h.e.forEach(([, , rows, removals], e) => {
    const here: string[] = [];
    for (let k = 0; k < rows.length; k++) {
      const i = sectionOf(rows.charCodeAt(k));
      if (i === undefined || i > h.b) throw damaged("a row is out of place");
      if (i > 0) {
        bucketRows[i].push(e);
        continue;
      }
      const row = section0.r[next++];
      if (!Array.isArray(row)) throw damaged("a row is missing");
      const target = named(section0, row[0]);
      bare(row, 1, true); // checked as a full read checks it: a row naming what this console does not know refuses the chunk
      here.push(target);
      let mine = placements.get(target);
      if (mine === undefined) placements.set(target, (mine = []));
      mine.push([e, row]);
    }
    for (let k = 0; k < removals.length; k++) {
      const i = sectionOf(removals.charCodeAt(k));
      if (i === undefined || i === 0 || i > h.b) throw damaged("a removal is out of place");
      bucketRemovals[i].push(e);
    }
    placed.push(here);
  });
  if (next !== section0.r.length || section0.x.length !== 0) throw damaged("a section holds rows no evaluation names");
  return {
    kind,
    from_ms: h.f,
    to_ms: h.t,
    header: h,
    starts,
    placed,
    placements,
    bucketRows,
    bucketRemovals,
    capacities: capacitiesByEvaluation(h),
    weight: next + h.e.length,
  };
}

/**
 * One table's read, as ./codec.ts `decodeChunk` says: that table's rows and removals in
 * `changed` and `removed`, and each evaluation's `placed` (the skeleton's, shared).
 */
export function decodeOneTable(bytes: Buffer, k: ChunkSkeleton, only: string): JournalChunk {
  const h = k.header;
  const b = 1 + bucketOf(only, h.b);
  const bucket = openSection(bytes, k.starts, b);
  if (bucket.r.length !== k.bucketRows[b].length || bucket.x.length !== k.bucketRemovals[b].length)
    throw damaged("a section holds rows no evaluation names");
  const read = stateReader(h.s);
  const mine = new Map<number, TableState>();
  const gone = new Set<number>();
  for (const [e, row] of k.placements.get(only) ?? []) mine.set(e, read(row, 1));
  bucket.r.forEach((row, j) => {
    if (!Array.isArray(row)) throw damaged("a row is missing");
    if (named(bucket, row[0]) === only) mine.set(k.bucketRows[b][j], read(row, 1));
  });
  bucket.x.forEach((x, j) => {
    if (named(bucket, x) === only) gone.add(k.bucketRemovals[b][j]);
  });
  const evaluations = h.e.map(([revision, now_ms], e): ChunkEvaluation => {
    const st = mine.get(e);
    const ev: ChunkEvaluation = {
      revision,
      now_ms,
      changed: st ? new Map([[only, st]]) : new Map(),
      removed: gone.has(e) ? [only] : [],
      placed: k.placed[e],
    };
    const caps = k.capacities[e];
    if (caps !== undefined) ev.capacities = caps;
    return ev;
  });
  return { kind: k.kind, from_ms: k.from_ms, to_ms: k.to_ms, evaluations };
}

/** Stored capacities (undefined: not marked, or not a list of [executor, capacity]). */
function capacitiesOf(v: unknown): Capacities | undefined {
  if (!Array.isArray(v)) return undefined;
  const out = new Map<string, string>();
  for (const pair of v) {
    if (!Array.isArray(pair) || typeof pair[0] !== "string" || typeof pair[1] !== "string") return undefined;
    out.set(pair[0], pair[1]);
  }
  return out;
}
