// The journal's stored form (console-api.md "The decision journal": chunked and compressed,
// the layout is the console's own). One chunk = one etcd key under `P/console/journal/`
// (its key codec is lib/schema/keys.ts):
// * the value: gzip of a compact JSON (targets and repeated strings interned once per
//   chunk, one row per changed table);
// * the key: the chunk's span, kind, entry count and size, so coverage, gaps and trimming
//   are answered from a keys-only read, never by fetching values.
// A checkpoint's first evaluation carries every table's entry (any moment = one checkpoint
// plus the deltas after it); a delta's evaluations carry only the tables that changed.
import { gunzipSync, gzipSync } from "node:zlib";
import {
  CHUNK_KIND_LETTER as KIND_LETTER,
  CHUNK_LETTER_KIND as LETTER_KIND,
  journalChunkKey,
  type ChunkKind,
} from "@/lib/schema/keys";
import {
  CLASS_NAMES,
  OUTCOMES,
  WHY_NOT_CODES,
  type ClassName,
  type OutcomeName,
  type WhyNotCode,
} from "@/lib/schema/codes";
import type { StateDiff, TableState, WriteTurnState } from "./entry";
import type { DemandFacts } from "./demand";

export type { ChunkKind, ChunkMeta } from "@/lib/schema/keys";

export type GapReason = "no_sampler" | "etcd_unavailable" | "trimmed";

export const isCheckpoint = (kind: ChunkKind) => kind !== "delta";

/** The gap reason a chunk of this kind closes (null: it continues the journal). */
export function gapReasonOf(kind: ChunkKind): GapReason | null {
  return kind === "after_no_sampler" ? "no_sampler" : kind === "after_etcd_unavailable" ? "etcd_unavailable" : null;
}

/** One evaluation's changes (a checkpoint's first one: every table). */
export interface ChunkEvaluation extends StateDiff {
  revision: number;
  now_ms: number;
}

export interface JournalChunk {
  kind: ChunkKind;
  /** the span covered: a delta continues from the previous chunk's `to_ms`; a checkpoint from its first evaluation */
  from_ms: number;
  to_ms: number;
  evaluations: ChunkEvaluation[];
}

export const entryCount = (chunk: JournalChunk) =>
  chunk.evaluations.reduce((n, e) => n + e.changed.size + e.removed.length, 0);

/** The chunk's key (lib/schema/keys.ts `journalChunkKey`) once it is `bytes` long. */
export function chunkKey(prefix: string, chunk: JournalChunk, bytes: number, writer: string): string {
  const { kind, from_ms, to_ms } = chunk;
  return journalChunkKey(prefix, { kind, from_ms, to_ms, entries: entryCount(chunk), bytes }, writer);
}

// Stored JSON: strings interned in `s`; a row is [target, class, state(0 skip/1 place), code, executor, write_turn, shadow] as indexes (-1: null),
// then the demand facts (./demand.ts) when kept: [0, pending, bytes, floor, exact, min_generations, min_bytes, max_age_secs,
// critical_generations, max_turn_wait_secs] for a merge head, [1, pending, score ("i": infinity), since] for another.
// A row without them (a chunk written before they were kept) reads as facts unknown.
type StoredFacts =
  | [0, number, number, number | null, number | null, number, number, number, number, number]
  | [1, number, number | "i", number | null];
type Row =
  | [number, number, 0 | 1, number, number, number, number]
  | [number, number, 0 | 1, number, number, number, number, StoredFacts];

function storeFacts(f: DemandFacts): StoredFacts {
  if (f.head === "other") return [1, f.pending_generations, f.score === "infinity" ? "i" : f.score, f.since_ms];
  const t = f.thresholds;
  return [
    0,
    f.pending_generations,
    f.pending_bytes,
    f.wait_floor_ms,
    f.exact_ms,
    t.min_generations,
    t.min_bytes,
    t.max_age_secs,
    t.critical_generations,
    t.max_turn_wait_secs,
  ];
}

function readFacts(f: StoredFacts | undefined): DemandFacts | undefined {
  if (!Array.isArray(f)) return undefined;
  if (f[0] === 1)
    return { head: "other", pending_generations: f[1], score: f[2] === "i" ? "infinity" : f[2], since_ms: f[3] };
  const [, pending_generations, pending_bytes, wait_floor_ms, exact_ms] = f;
  const [min_generations, min_bytes, max_age_secs, critical_generations, max_turn_wait_secs] = f.slice(5) as number[];
  return {
    head: "merge",
    pending_generations,
    pending_bytes,
    wait_floor_ms,
    exact_ms,
    thresholds: { min_generations, min_bytes, max_age_secs, critical_generations, max_turn_wait_secs },
  };
}
interface Stored {
  v: 1;
  k: string;
  f: number;
  t: number;
  s: string[];
  e: [revision: number, now: number, rows: Row[], removed: number[]][];
}

const WRITE_TURNS: WriteTurnState[] = [null, "held", "stalled"];

export function encodeChunk(chunk: JournalChunk): Buffer {
  const strings: string[] = [];
  const index = new Map<string, number>();
  const id = (s: string | null) => {
    if (s === null) return -1;
    let i = index.get(s);
    if (i === undefined) index.set(s, (i = strings.push(s) - 1));
    return i;
  };
  const e = chunk.evaluations.map((ev): Stored["e"][number] => [
    ev.revision,
    ev.now_ms,
    [...ev.changed].map(([target, st]): Row => {
      const row: Row = [
        id(target),
        id(st.class),
        st.verdict.state === "would_place" ? 1 : 0,
        id(st.verdict.code),
        id(st.verdict.executor),
        WRITE_TURNS.indexOf(st.write_turn),
        id(st.shadow_outcome),
      ];
      return st.demand ? [...row, storeFacts(st.demand)] : row;
    }),
    ev.removed.map(id),
  ]);
  const stored: Stored = { v: 1, k: KIND_LETTER[chunk.kind], f: chunk.from_ms, t: chunk.to_ms, s: strings, e };
  return gzipSync(JSON.stringify(stored), { level: 6 });
}

export class JournalDecodeError extends Error {}

const KNOWN_CLASSES: ReadonlySet<string> = new Set(CLASS_NAMES);
const KNOWN_CODES: ReadonlySet<string> = new Set(WHY_NOT_CODES);
const KNOWN_OUTCOMES: ReadonlySet<string> = new Set(OUTCOMES);

/**
 * `only`: one table's read (lib/journal/window.ts `targetTimeline`) — keep that table's
 * rows and removals and the rows that place another table (its `placed_with`), and build
 * nothing for the rest; what that read answers is the same, at a fraction of the cost.
 */
export function decodeChunk(bytes: Buffer, only?: string): JournalChunk {
  let stored: Stored;
  try {
    stored = JSON.parse(gunzipSync(bytes).toString("utf8")) as Stored;
  } catch (e) {
    throw new JournalDecodeError(`not a journal chunk: ${(e as Error).message}`);
  }
  const kind = LETTER_KIND.get(stored?.k);
  if (stored?.v !== 1 || !kind || !Array.isArray(stored.s) || !Array.isArray(stored.e))
    throw new JournalDecodeError("not a journal chunk (version 1)");
  const s = stored.s;
  // the decode-time rule: a chunk that names a class, verdict code or shadow outcome this console does not know
  // (another version's, or a damaged one) is not read at all (a row dropped from a delta would leave its table
  // in an earlier state); the readers count it and answer that stretch by re-planning, as in a gap
  const known = <T extends string>(codes: ReadonlySet<string>, i: number, what: string): T => {
    const v = s[i];
    if (typeof v !== "string" || !codes.has(v))
      throw new JournalDecodeError(`not a journal chunk: unknown ${what} ${JSON.stringify(v)}`);
    return v as T;
  };
  const placedOn = (i: number): string => {
    const v = s[i];
    if (typeof v !== "string") throw new JournalDecodeError("not a journal chunk: a placed row names no executor");
    return v;
  };
  const knownOrNull = <T extends string>(codes: ReadonlySet<string>, i: number, what: string): T | null =>
    i < 0 ? null : known<T>(codes, i, what);
  const mine = only === undefined ? -2 : s.indexOf(only); // -2: every row; -1: the table is not in this chunk
  const evaluations = stored.e.map(([revision, now_ms, rows, removed]): ChunkEvaluation => {
    const changed = new Map<string, TableState>();
    for (const row of rows) {
      if (mine !== -2 && row[0] !== mine && row[2] !== 1) continue;
      const [t, c, place, code, executor, wt, shadow, facts] = row;
      const state: TableState = {
        class: known<ClassName>(KNOWN_CLASSES, c, "class"),
        verdict:
          place === 1
            ? { state: "would_place", code: null, executor: placedOn(executor) }
            : { state: "would_skip", code: known<WhyNotCode>(KNOWN_CODES, code, "verdict code"), executor: null },
        write_turn: WRITE_TURNS[wt] ?? null,
        shadow_outcome: knownOrNull<OutcomeName>(KNOWN_OUTCOMES, shadow, "shadow outcome"),
      };
      const demand = readFacts(facts);
      if (demand) state.demand = demand;
      changed.set(s[t], state);
    }
    const gone = mine === -2 ? removed : removed.filter((i) => i === mine);
    return { revision, now_ms, changed, removed: gone.map((i) => s[i]) };
  });
  return { kind, from_ms: stored.f, to_ms: stored.t, evaluations };
}
