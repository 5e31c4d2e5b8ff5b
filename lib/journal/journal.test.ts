// The journal's pure parts (console-api.md "The decision journal"): the stored form round
// trips, the log keeps only changes and restarts with a marked checkpoint, coverage and
// gaps come from the keys, and trimming drops whole segments, oldest first.
import type { WhyNotCode } from "@/lib/schema/codes";
import { describe, expect, it } from "vitest";
import { parseChunkKey } from "@/lib/schema/keys";
import { gzipSync } from "node:zlib";
import { chunkKey, decodeChunk, encodeChunk, JournalDecodeError, type ChunkMeta, type JournalChunk } from "./codec";
import { coverageOf, trimPlan } from "./coverage";
import type { TableState } from "./entry";
import { foldChunks, stateAt, targetEntries } from "./fold";
import { JournalLog } from "./log";

const placed = (executor: string): TableState => ({
  class: "normal",
  verdict: { state: "would_place", code: null, executor },
  write_turn: null,
  shadow_outcome: "running",
});
const skipped = (code: WhyNotCode, wt: TableState["write_turn"] = null): TableState => ({
  class: "normal",
  verdict: { state: "would_skip", code, executor: null },
  write_turn: wt,
  shadow_outcome: null,
});
const states = (o: Record<string, TableState>) => new Map(Object.entries(o));
const OPTS = { checkpointEveryMs: 60_000, idleExtendMs: 30_000, maxChunkEntries: 1000 };

describe("codec", () => {
  it("a chunk round-trips through gzip, and its key names its span, first revision, kind, entries and bytes", () => {
    const chunk: JournalChunk = {
      kind: "after_etcd_unavailable",
      from_ms: 1000,
      to_ms: 5000,
      evaluations: [
        {
          revision: 7,
          now_ms: 1000,
          changed: states({ "a/b": placed("e1"), é: skipped("cycle_limit", "held") }),
          removed: [],
        },
        {
          revision: 9,
          now_ms: 5000,
          changed: states({ "a/b": skipped("write_turn_stalled", "stalled") }),
          removed: ["é"],
        },
      ],
    };
    const bytes = encodeChunk(chunk);
    expect(decodeChunk(bytes)).toEqual(chunk);
    const key = chunkKey("/p", chunk, bytes.length, "ab12");
    expect(key).toBe(`/p/console/journal/000000000001000-000000000005000-000000000000007-u-4-${bytes.length}-ab12`);
    expect(parseChunkKey("/p", key)).toEqual({
      key,
      kind: "after_etcd_unavailable",
      from_ms: 1000,
      to_ms: 5000,
      entries: 4,
      bytes: bytes.length,
    });
    expect(parseChunkKey("/p", "/p/console/journal/junk")).toBeNull();
    expect(() => decodeChunk(Buffer.from("not gzip"))).toThrow("not a journal chunk");
  });

  // the decode-time rule: what a chunk names is one of this console's codes, or the chunk is not read at all
  it("refuses a chunk naming a class, verdict code or shadow outcome this console does not know, or a verdict without its code or executor", () => {
    const stored = (row: unknown[]) =>
      gzipSync(
        JSON.stringify({
          v: 1,
          k: "d",
          f: 0,
          t: 1,
          s: ["a/b", "normal", "no_free_slot", "e1", "running", "warp_drive"],
          e: [[1, 0, [row], []]],
        }),
      );
    expect(decodeChunk(stored([0, 1, 0, 2, -1, 0, 4])).evaluations[0].changed.get("a/b")).toEqual({
      class: "normal",
      verdict: { state: "would_skip", code: "no_free_slot", executor: null },
      write_turn: null,
      shadow_outcome: "running",
    });
    expect(() => decodeChunk(stored([0, 5, 0, 2, -1, 0, -1]))).toThrow(
      new JournalDecodeError('not a journal chunk: unknown class "warp_drive"'),
    );
    expect(() => decodeChunk(stored([0, 1, 0, 5, -1, 0, -1]))).toThrow('unknown verdict code "warp_drive"');
    expect(() => decodeChunk(stored([0, 1, 0, -1, -1, 0, -1]))).toThrow("unknown verdict code undefined");
    expect(() => decodeChunk(stored([0, 1, 0, 2, -1, 0, 5]))).toThrow('unknown shadow outcome "warp_drive"');
    expect(() => decodeChunk(stored([0, 1, 1, -1, -1, 0, -1]))).toThrow("a placed row names no executor");
    expect(() => decodeChunk(stored([0, 1, 1, -1, 3, 0, -1]))).not.toThrow();
    // one table's read skips the other tables' skip rows unread, as before
    expect(decodeChunk(stored([0, 5, 0, 2, -1, 0, -1]), "x/y").evaluations[0].changed.size).toBe(0);
  });
});

describe("JournalLog", () => {
  it("starts with a checkpoint after no sampler, then keeps only the tables whose entry changed", () => {
    const log = new JournalLog(OPTS);
    log.observe({ revision: 10, now_ms: 1000 }, states({ a: placed("e1"), b: skipped("cycle_limit") }));
    log.observe({ revision: 10, now_ms: 2000 }, states({ a: placed("e1"), b: skipped("cycle_limit") }));
    log.observe({ revision: 12, now_ms: 3000 }, states({ a: placed("e1"), b: placed("e2") }));
    log.observe({ revision: 11, now_ms: 2500 }, states({})); // older than the newest: ignored
    const [cp, ...rest] = log.drain(3000);
    expect(rest).toEqual([]);
    expect(cp.kind).toBe("after_no_sampler");
    expect([cp.from_ms, cp.to_ms]).toEqual([1000, 3000]);
    expect(cp.evaluations.map((e) => [e.revision, e.now_ms, [...e.changed.keys()], e.removed])).toEqual([
      [10, 1000, ["a", "b"], []],
      [12, 3000, ["b"], []],
    ]);
    expect(log.drain(4000)).toEqual([]); // nothing new
    log.observe({ revision: 12, now_ms: 40_000 }, states({ a: placed("e1"), b: placed("e2") }));
    expect(log.drain(20_000)).toEqual([]); // unchanged, and the idle extension is not due
    expect(log.drain(33_000)).toEqual([{ kind: "delta", from_ms: 3000, to_ms: 40_000, evaluations: [] }]);
    log.observe({ revision: 13, now_ms: 41_000 }, states({ a: placed("e1") }));
    expect(log.drain(41_000)).toEqual([
      {
        kind: "delta",
        from_ms: 40_000,
        to_ms: 41_000,
        evaluations: [{ revision: 13, now_ms: 41_000, changed: new Map(), removed: ["b"] }],
      },
    ]);
  });

  it("the same entries handed again (the same plan at a newer revision) enter nothing; delta entries are marked", () => {
    const log = new JournalLog(OPTS);
    const first = states({ a: placed("e1"), b: skipped("cycle_limit") });
    const marks = (t: string) => [t === "a" ? 5 : 6, 1, 0, 0, 0, 0] as const;
    log.observe({ revision: 10, now_ms: 1000 }, first, marks);
    log.observe({ revision: 11, now_ms: 2000 }, first); // the very map again: nothing entered
    log.observe({ revision: 13, now_ms: 3000 }, states({ a: placed("e2"), b: skipped("cycle_limit") }), marks);
    const [cp] = log.drain(3000);
    expect([cp.from_ms, cp.to_ms]).toEqual([1000, 3000]);
    expect(cp.evaluations.map((e) => [e.revision, [...e.changed].map(([t, st]) => [t, st.inputs ?? null])])).toEqual([
      [
        10,
        [
          ["a", null],
          ["b", null],
        ],
      ], // a checkpoint's rows are not marked
      [13, [["a", [5, 1, 0, 0, 0, 0]]]],
    ]);
  });

  it("a lost write starts again with a checkpoint marked etcd_unavailable; checkpoints recur", () => {
    const log = new JournalLog(OPTS);
    log.observe({ revision: 1, now_ms: 0 }, states({ a: placed("e1") }));
    log.drain(0);
    log.lost("etcd_unavailable");
    log.observe({ revision: 5, now_ms: 9000 }, states({ a: skipped("no_executors") }));
    log.observe({ revision: 6, now_ms: 70_000 }, states({ a: skipped("no_executors") }));
    expect(log.drain(70_000).map((c) => [c.kind, c.from_ms, c.to_ms, c.evaluations.length])).toEqual([
      ["after_etcd_unavailable", 9000, 70_000, 2], // the restated evaluation too, unchanged
      ["restated", 70_000, 70_000, 1],
    ]);
  });

  it("a periodic checkpoint's evaluation is in the delta before it too, so a reader may skip the restatement", () => {
    const log = new JournalLog(OPTS);
    log.observe({ revision: 1, now_ms: 0 }, states({ a: placed("e1"), b: placed("e1") }));
    log.observe({ revision: 2, now_ms: 1000 }, states({ a: placed("e1"), b: skipped("cycle_limit") }));
    log.drain(1000);
    // due for a checkpoint: a changes, b leaves the plan
    log.observe({ revision: 3, now_ms: 70_000 }, states({ a: skipped("no_free_slot") }));
    const drained = log.drain(70_000);
    expect(drained.map((c) => [c.kind, c.from_ms, c.to_ms])).toEqual([
      ["delta", 1000, 70_000],
      ["restated", 70_000, 70_000],
    ]);
    expect(drained[0].evaluations.map((e) => [e.revision, [...e.changed.keys()], e.removed])).toEqual([
      [3, ["a"], ["b"]],
    ]);
    expect([...drained[1].evaluations[0].changed]).toEqual([["a", skipped("no_free_slot")]]);
    // a restatement's key sorts after the delta that ends at it, and before the delta that starts at it (the next
    // evaluation at the same clock: the live plan keeps its clock across revisions for a few seconds)
    log.observe({ revision: 4, now_ms: 70_000 }, states({ a: skipped("cycle_limit") }));
    const after = log.drain(70_000);
    expect(after.map((c) => [c.kind, c.from_ms, c.to_ms])).toEqual([["delta", 70_000, 70_000]]);
    const keys = [...drained, ...after].map((c) => chunkKey("/p", c, 1, "w1"));
    expect([keys[0], keys[2], keys[1]].sort()).toEqual([keys[0], keys[1], keys[2]]);
  });
});

describe("fold", () => {
  it("any moment is its checkpoint plus the deltas after it", () => {
    const chunks: JournalChunk[] = [
      {
        kind: "delta",
        from_ms: 0,
        to_ms: 10,
        evaluations: [{ revision: 1, now_ms: 5, changed: states({ z: placed("e9") }), removed: [] }],
      }, // before any checkpoint: unreadable
      {
        kind: "after_no_sampler",
        from_ms: 100,
        to_ms: 300,
        evaluations: [
          { revision: 3, now_ms: 100, changed: states({ a: placed("e1"), b: skipped("cycle_limit") }), removed: [] },
        ],
      },
      {
        kind: "delta",
        from_ms: 300,
        to_ms: 400,
        evaluations: [{ revision: 4, now_ms: 400, changed: states({ b: placed("e1") }), removed: ["a"] }],
      },
    ];
    expect([...foldChunks(chunks)].map((e) => [e.revision, e.checkpoint])).toEqual([
      [3, true],
      [4, false],
    ]);
    expect(stateAt(chunks, 50)).toBeNull();
    expect(stateAt(chunks, 399)).toEqual({
      revision: 3,
      now_ms: 100,
      state: states({ a: placed("e1"), b: skipped("cycle_limit") }),
    });
    expect(stateAt(chunks, 400)).toEqual({ revision: 4, now_ms: 400, state: states({ b: placed("e1") }) });
    expect(targetEntries(chunks, "a")).toEqual([
      { target: "a", at_ms: 100, revision: 3, now_ms: 100, ...placed("e1") },
      { target: "a", at_ms: 400, revision: 4, now_ms: 400, gone: true },
    ]);
  });
});

const meta = (kind: ChunkMeta["kind"], from: number, to: number, bytes = 100, entries = 1): ChunkMeta => ({
  key: `k${String(from).padStart(6, "0")}`,
  kind,
  from_ms: from,
  to_ms: to,
  entries,
  bytes,
});

describe("coverage and trimming", () => {
  const metas = [
    meta("after_no_sampler", 1000, 2000),
    meta("delta", 2000, 3000),
    meta("after_etcd_unavailable", 5000, 6000),
    meta("checkpoint", 6000, 7000),
    meta("after_no_sampler", 9000, 9500),
  ];

  it("gaps are the spans before a restarting checkpoint, with its reason", () => {
    expect(coverageOf(metas, null, 10_000, 100_000)).toEqual({
      from_ms: 1000,
      to_ms: 9500,
      entries: 5,
      bytes: 500,
      retention_ms: 100_000,
      gaps: [
        { from_ms: 3000, to_ms: 5000, reason: "etcd_unavailable" },
        { from_ms: 7000, to_ms: 9000, reason: "no_sampler" },
      ],
    });
    expect(coverageOf([], null, 10_000, 100_000)).toEqual({
      from_ms: null,
      to_ms: null,
      entries: 0,
      bytes: 0,
      retention_ms: 100_000,
      gaps: [],
    });
  });

  it("retention drops whole segments that ended before the horizon; the byte cap drops the oldest next and is a trimmed gap", () => {
    expect(trimPlan(metas, 10_000, 100_000, 10_000)).toEqual({ keepFromKey: null, trimmedToMs: null });
    expect(trimPlan(metas, 10_000, 6000, 10_000)).toEqual({ keepFromKey: "k005000", trimmedToMs: null }); // segment 1 ended at 3000 < 4000
    expect(trimPlan(metas, 10_000, 100_000, 250)).toEqual({ keepFromKey: "k006000", trimmedToMs: 6000 });
    expect(trimPlan(metas, 10_000, 100_000, 10)).toEqual({ keepFromKey: "k009000", trimmedToMs: 9000 }); // the newest segment always stays
    const after = metas.slice(3);
    expect(coverageOf(after, 6000, 10_000, 100_000).gaps).toEqual([
      { from_ms: -90_000, to_ms: 6000, reason: "trimmed" },
      { from_ms: 7000, to_ms: 9000, reason: "no_sampler" },
    ]);
  });
});
