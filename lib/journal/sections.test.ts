// The sectioned stored form (./sections.ts) reads back exactly what was written — every
// evaluation's rows and removals in their order — and a one-table read of it equals the
// same read of version 1 (test/support/journal-v1.ts: how chunks were written before),
// whatever the chunk holds and however many buckets it is cut into. Damage anywhere is
// refused as a whole chunk, never read in part.
import fc from "fast-check";
import { gunzipSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { CLASS_NAMES, WHY_NOT_CODES, OUTCOMES } from "@/lib/schema/codes";
import { encodeVersion1 } from "@/test/support/journal-v1";
import { decodeChunk, encodeChunk, JournalDecodeError, type JournalChunk } from "./codec";
import type { TableState } from "./entry";
import { bucketOf, isSectioned } from "./sections";
import { targetTimeline } from "./window";

const KINDS = ["delta", "restated", "checkpoint", "after_no_sampler", "after_etcd_unavailable"] as const;

const stateArb: fc.Arbitrary<TableState> = fc
  .record({
    class: fc.constantFrom(...CLASS_NAMES),
    place: fc.boolean(),
    code: fc.constantFrom(...WHY_NOT_CODES),
    executor: fc.constantFrom("w1", "w2", "é-3"),
    write_turn: fc.constantFrom(null, "held" as const, "stalled" as const),
    shadow: fc.option(fc.constantFrom(...OUTCOMES)),
    facts: fc.option(
      fc.oneof(
        fc.record({ pending: fc.nat(300), since: fc.option(fc.nat(1e12)), infinite: fc.boolean() }).map((f) => ({
          head: "other" as const,
          pending_generations: f.pending,
          score: f.infinite ? ("infinity" as const) : f.pending / 4,
          since_ms: f.since,
        })),
        fc.record({ pending: fc.nat(300), floor: fc.option(fc.nat(1e12)) }).map((f) => ({
          head: "merge" as const,
          pending_generations: f.pending,
          pending_bytes: f.pending * 4_194_304,
          wait_floor_ms: f.floor,
          exact_ms: f.floor,
          thresholds: {
            min_generations: 8,
            min_bytes: 0,
            max_age_secs: 3600,
            critical_generations: 256,
            max_turn_wait_secs: 3600,
          },
        })),
      ),
    ),
  })
  .map((r) => {
    const st: TableState = {
      class: r.class,
      verdict: r.place
        ? { state: "would_place", code: null, executor: r.executor }
        : { state: "would_skip", code: r.code, executor: null },
      write_turn: r.write_turn,
      shadow_outcome: r.shadow,
    };
    if (r.facts) st.demand = r.facts;
    return st;
  });

/** Chunks over up to `tables` tables (names with non-ASCII), small or big enough for many buckets. */
const chunkArb = (tables: number, maxRows: number): fc.Arbitrary<JournalChunk> => {
  const names = Array.from({ length: tables }, (_, i) => (i % 7 === 3 ? `db/tâble-${i}` : `db${i % 5}/t-${i}`));
  const evaluation = fc.record({
    changed: fc.uniqueArray(fc.tuple(fc.constantFrom(...names), stateArb), {
      selector: ([t]) => t,
      maxLength: maxRows,
    }),
    removed: fc.uniqueArray(fc.constantFrom(...names), { maxLength: 3 }),
  });
  return fc
    .record({ kind: fc.constantFrom(...KINDS), evaluations: fc.array(evaluation, { maxLength: 12 }) })
    .map(({ kind, evaluations }) => ({
      kind,
      from_ms: 1_000,
      to_ms: 1_000 + evaluations.length * 1000,
      evaluations: evaluations.map((e, i) => ({
        revision: 10 + i,
        now_ms: 1_000 + i * 1000,
        changed: new Map(e.changed),
        // a table is not both changed and removed in one evaluation
        removed: e.removed.filter((t) => !e.changed.some(([c]) => c === t)),
      })),
    }));
};

/** A chunk in a form two reads can be compared by: Maps as their entries, in order. */
const plain = (c: unknown) => JSON.stringify(c, (_, v) => (v instanceof Map ? [...v] : v));

/** `chunkArb` with input marks on some rows and capacities on some evaluations (the same map repeated, changed, or not marked). */
const markedArb = (tables: number, maxRows: number): fc.Arbitrary<JournalChunk> =>
  fc
    .tuple(
      chunkArb(tables, maxRows),
      fc.array(fc.tuple(fc.nat(1e9), fc.nat(20), fc.nat(1e9), fc.nat(2), fc.nat(1e9), fc.nat(9)), { maxLength: 50 }),
      fc.array(fc.constantFrom("same", "none", "a", "b", "empty"), { maxLength: 12 }),
    )
    .map(([chunk, marks, caps]) => {
      const A = new Map([
        ["w1", '[{"merge_wal":2},100,false,["merge_wal"]]'],
        ["é-3", "[{},0,true,[]]"],
      ]);
      const B = new Map([["w1", '[{"merge_wal":3},100,false,["merge_wal"]]']]);
      let k = 0;
      let before: Map<string, string> | undefined = undefined;
      chunk.evaluations.forEach((ev, i) => {
        for (const st of ev.changed.values()) if (k < marks.length && (k++ + i) % 3 !== 0) st.inputs = marks[k - 1];
        const c = caps[i] ?? "none";
        const map =
          c === "same"
            ? before
            : c === "a"
              ? new Map(A)
              : c === "b"
                ? new Map(B)
                : c === "empty"
                  ? new Map()
                  : undefined;
        if (map) ev.capacities = map;
        before = map;
      });
      return chunk;
    });

describe("the sectioned stored form", () => {
  it("a table's timeline from one-table reads is its timeline from full reads (placed_with too)", () => {
    fc.assert(
      fc.property(fc.array(markedArb(30, 10), { minLength: 1, maxLength: 4 }), (parts) => {
        // a run of chunks as the journal keeps them: a checkpoint, then deltas, each later than the last
        const chunks = parts.map((c, i) => ({
          ...c,
          kind: i === 0 ? ("checkpoint" as const) : ("delta" as const),
          evaluations: c.evaluations.map((ev, j) => ({
            ...ev,
            revision: i * 100 + j + 1,
            now_ms: i * 100_000 + j * 1000,
          })),
        }));
        const stored = chunks.map(encodeChunk);
        const full = stored.map((v) => decodeChunk(v));
        const names = [...new Set(chunks.flatMap((c) => c.evaluations.flatMap((e) => [...e.changed.keys()])))];
        for (const target of [...names.slice(0, 4), "not/in-it"]) {
          const one = stored.map((v) => decodeChunk(v, target));
          for (const [from, to] of [
            [-1, 1e9],
            [1500, 250_000],
          ])
            expect(plain(targetTimeline(one, target, from, to))).toBe(plain(targetTimeline(full, target, from, to)));
        }
      }),
      { numRuns: 200 },
    );
  });

  it("keeps the rows' input marks and the evaluations' capacities, in a full read and a one-table read", () => {
    fc.assert(
      fc.property(markedArb(40, 12), (chunk) => {
        const v2 = encodeChunk(chunk);
        expect(plain(decodeChunk(v2))).toBe(plain(chunk));
        for (const only of [...new Set(chunk.evaluations.flatMap((e) => [...e.changed.keys()]))].slice(0, 3)) {
          const one = decodeChunk(v2, only);
          one.evaluations.forEach((ev, i) => {
            expect(ev.capacities ? [...ev.capacities] : null).toEqual(
              chunk.evaluations[i].capacities ? [...chunk.evaluations[i].capacities!] : null,
            );
            const st = ev.changed.get(only);
            if (st) expect(st.inputs ?? null).toEqual(chunk.evaluations[i].changed.get(only)!.inputs ?? null);
          });
        }
      }),
      { numRuns: 300 },
    );
  });

  it("reads back every evaluation as written, and a one-table read equals version 1's", () => {
    for (const [tables, maxRows, runs] of [
      [6, 4, 300],
      [2000, 400, 25], // enough rows for several buckets
    ] as const) {
      fc.assert(
        fc.property(chunkArb(tables, maxRows), (chunk) => {
          const v2 = encodeChunk(chunk);
          const v1 = encodeVersion1(chunk);
          expect(isSectioned(v2)).toBe(true);
          expect(isSectioned(v1)).toBe(false);
          expect(plain(decodeChunk(v2))).toBe(plain(chunk));
          expect(plain(decodeChunk(v1))).toBe(plain(chunk));
          const named = new Set(chunk.evaluations.flatMap((e) => [...e.changed.keys(), ...e.removed]));
          for (const only of [...[...named].slice(0, 3), "not/in-it"])
            expect(plain(decodeChunk(v2, only))).toBe(plain(decodeChunk(v1, only)));
        }),
        { numRuns: runs },
      );
    }
  });

  it("cuts a big chunk into buckets, and a one-table read opens only its own", () => {
    const names = Array.from({ length: 5000 }, (_, i) => `db/t-${i}`);
    const skip: TableState = {
      class: "idle",
      verdict: { state: "would_skip", code: "no_demand", executor: null },
      write_turn: null,
      shadow_outcome: null,
    };
    const chunk: JournalChunk = {
      kind: "checkpoint",
      from_ms: 1,
      to_ms: 1,
      evaluations: [{ revision: 5, now_ms: 1, changed: new Map(names.map((t) => [t, skip])), removed: [] }],
    };
    const bytes = encodeChunk(chunk);
    const headerEnd = 8 + bytes.readUInt32BE(4);
    const header = JSON.parse(gunzipSync(bytes.subarray(8, headerEnd)).toString()) as { b: number; z: number[] };
    expect(header.b).toBe(Math.ceil(5000 / 512));
    // the last bucket damaged: the full read refuses the chunk, and so does a read of a table in it;
    // a read of a table in another bucket does not open it, and reads what the whole chunk says
    const last = bytes.length - header.z[header.z.length - 1];
    const broken = Buffer.from(bytes);
    broken[last + 20] ^= 0xff;
    const inLast = names.find((t) => bucketOf(t, header.b) === header.b - 1)!;
    const inFirst = names.find((t) => bucketOf(t, header.b) === 0)!;
    expect(() => decodeChunk(broken)).toThrow(JournalDecodeError);
    expect(() => decodeChunk(broken, inLast)).toThrow(JournalDecodeError);
    expect(plain(decodeChunk(broken, inFirst))).toBe(plain(decodeChunk(bytes, inFirst)));
    expect([...decodeChunk(bytes, inFirst).evaluations[0].changed.keys()]).toEqual([inFirst]);
    // cut short, or a header that does not add up: refused
    expect(() => decodeChunk(bytes.subarray(0, bytes.length - 1))).toThrow("its sections do not add up");
    expect(() => decodeChunk(bytes.subarray(0, 12))).toThrow(JournalDecodeError);
    // a section holding a row no evaluation names, or an evaluation naming a row its section lacks
    const twoRows: JournalChunk = {
      kind: "delta",
      from_ms: 1,
      to_ms: 2,
      evaluations: [{ revision: 5, now_ms: 2, changed: new Map([["a/b", skip]]), removed: [] }],
    };
    const restated = (e: unknown[][]) => {
      const b = encodeChunk(twoRows);
      const end = 8 + b.readUInt32BE(4);
      const h = JSON.parse(gunzipSync(b.subarray(8, end)).toString()) as { e: unknown[][] };
      const again = gzipSync(JSON.stringify({ ...h, e }));
      const length = Buffer.alloc(4);
      length.writeUInt32BE(again.length);
      return Buffer.concat([b.subarray(0, 4), length, again, b.subarray(end)]);
    };
    expect(decodeChunk(restated([[5, 2, "B", ""]])).evaluations[0].changed.get("a/b")).toEqual(skip);
    expect(() => decodeChunk(restated([[5, 2, "", ""]]))).toThrow("holds rows no evaluation names");
    expect(() => decodeChunk(restated([[5, 2, "BB", ""]]))).toThrow("a row is missing");
    expect(() => decodeChunk(restated([[5, 2, "Z", ""]]))).toThrow("a row is out of place");
  });
});
