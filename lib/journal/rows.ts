// One table's entry as a stored chunk keeps it (./codec.ts, ./sections.ts): a row of
// indexes into the chunk's string table, and the decode-time rule that reads it back.
// A row is [target, class, state (0 skip / 1 place), code, executor, write_turn, shadow] as
// indexes (-1: null), then the demand facts (./demand.ts) when kept: [0, pending, bytes,
// floor, exact, min_generations, min_bytes, max_age_secs, critical_generations,
// max_turn_wait_secs] for a merge head, [1, pending, score ("i": infinity), since] for
// another. A row without them (a chunk written before they were kept) reads as facts unknown.
// Then, on a delta's rows, the table's input marks (./inputs.ts: six numbers; the facts are
// null before them when not kept); a row without them reads as not marked.
import {
  CLASS_NAMES,
  OUTCOMES,
  WHY_NOT_CODES,
  type ClassName,
  type OutcomeName,
  type WhyNotCode,
} from "@/lib/schema/codes";
import type { TableState, WriteTurnState } from "./entry";
import type { DemandFacts } from "./demand";
import { readMarks, type InputMarks } from "./inputs";

type StoredFacts =
  | [0, number, number, number | null, number | null, number, number, number, number, number]
  | [1, number, number | "i", number | null];

/** The entry's fields after its target: [class, place, code, executor, write_turn, shadow, facts?, marks?]. */
export type StoredState =
  | [number, 0 | 1, number, number, number, number]
  | [number, 0 | 1, number, number, number, number, StoredFacts | null]
  | [number, 0 | 1, number, number, number, number, StoredFacts | null, InputMarks];

const WRITE_TURNS: WriteTurnState[] = [null, "held", "stalled"];

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

/** A chunk's string table: `id(s)` is s's index in `strings`, added on first sight (-1: null). */
export function interner(): { strings: string[]; id: (s: string | null) => number } {
  const strings: string[] = [];
  const index = new Map<string, number>();
  const id = (s: string | null) => {
    if (s === null) return -1;
    let i = index.get(s);
    if (i === undefined) index.set(s, (i = strings.push(s) - 1));
    return i;
  };
  return { strings, id };
}

/** `st` as stored, its strings interned by `id` (-1: null). */
export function storeState(st: TableState, id: (s: string | null) => number): StoredState {
  const row: StoredState = [
    id(st.class),
    st.verdict.state === "would_place" ? 1 : 0,
    id(st.verdict.code),
    id(st.verdict.executor),
    WRITE_TURNS.indexOf(st.write_turn),
    id(st.shadow_outcome),
  ];
  if (st.inputs) return [...row, st.demand ? storeFacts(st.demand) : null, st.inputs];
  return st.demand ? [...row, storeFacts(st.demand)] : row;
}

export class JournalDecodeError extends Error {}

const KNOWN_CLASSES: ReadonlySet<string> = new Set(CLASS_NAMES);
const KNOWN_CODES: ReadonlySet<string> = new Set(WHY_NOT_CODES);
const KNOWN_OUTCOMES: ReadonlySet<string> = new Set(OUTCOMES);

/**
 * Reads a stored entry back with the strings `s`: `row[at]` is its class, the rest follows.
 * The decode-time rule: a chunk that names a class, verdict code or shadow outcome this
 * console does not know (another version's, or a damaged one) is not read at all (a row
 * dropped from a delta would leave its table in an earlier state); the readers count it and
 * answer that stretch by re-planning, as in a gap. So a bad row throws `JournalDecodeError`.
 */
export function stateReader(
  s: readonly unknown[],
): (row: readonly unknown[], at: number, bare?: boolean) => TableState {
  const known = <T extends string>(codes: ReadonlySet<string>, i: unknown, what: string): T => {
    const v = s[i as number];
    if (typeof v !== "string" || !codes.has(v))
      throw new JournalDecodeError(`not a journal chunk: unknown ${what} ${JSON.stringify(v)}`);
    return v as T;
  };
  const placedOn = (i: unknown): string => {
    const v = s[i as number];
    if (typeof v !== "string") throw new JournalDecodeError("not a journal chunk: a placed row names no executor");
    return v;
  };
  // `bare`: the entry without its demand facts and input marks (another table's placement in a one-table read)
  return (row, at, bare = false) => {
    const place = row[at + 1];
    const shadow = row[at + 5] as number;
    const state: TableState = {
      class: known<ClassName>(KNOWN_CLASSES, row[at], "class"),
      verdict:
        place === 1
          ? { state: "would_place", code: null, executor: placedOn(row[at + 3]) }
          : { state: "would_skip", code: known<WhyNotCode>(KNOWN_CODES, row[at + 2], "verdict code"), executor: null },
      write_turn: WRITE_TURNS[row[at + 4] as number] ?? null,
      shadow_outcome: shadow < 0 ? null : known<OutcomeName>(KNOWN_OUTCOMES, shadow, "shadow outcome"),
    };
    if (bare) return state;
    const demand = readFacts(row[at + 6] as StoredFacts | undefined);
    if (demand) state.demand = demand;
    const inputs = row.length > at + 7 ? readMarks(row[at + 7]) : null;
    if (inputs) state.inputs = inputs;
    return state;
  };
}
