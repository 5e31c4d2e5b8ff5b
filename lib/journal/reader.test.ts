// One table's decode of a chunk is kept per process by (key, mod_revision, table): a kept
// decode is what decoding afresh gives, another table or another mod_revision of the same
// key is decoded afresh, and an unreadable chunk is never kept.
import { describe, expect, it } from "vitest";
import { decodeChunk, encodeChunk, type JournalChunk } from "@/lib/journal/codec";
import type { TableState } from "@/lib/journal/entry";
import { keptSkeletons, readableChunks } from "./reader";

const placed = (executor: string): TableState => ({
  class: "normal",
  verdict: { state: "would_place", code: null, executor },
  write_turn: null,
  shadow_outcome: null,
});
const skipped: TableState = {
  class: "tail",
  verdict: { state: "would_skip", code: "tail_below_threshold", executor: null },
  write_turn: null,
  shadow_outcome: null,
};

function chunk(first: TableState): JournalChunk {
  return {
    kind: "delta",
    from_ms: 1_000,
    to_ms: 3_000,
    evaluations: [
      {
        revision: 10,
        now_ms: 2_000,
        changed: new Map([
          ["a/t", first],
          ["b/t", skipped],
        ]),
        removed: [],
      },
      { revision: 11, now_ms: 3_000, changed: new Map([["b/t", placed("w2")]]), removed: ["c/t"] },
    ],
  };
}

describe("one table's decode of a chunk, kept", () => {
  it("answers as a fresh decode, and only for the same key, mod_revision and table", () => {
    const v1 = encodeChunk(chunk(placed("w1")));
    const v2 = encodeChunk(chunk(skipped)); // the same key written again later
    const key = "P/console/journal/test-chunk";
    const first = readableChunks([{ key, modRevision: 5, value: v1 }], "a/t")!;
    expect(first).toEqual([decodeChunk(v1, "a/t")]);
    // kept: the very object, for the same key, mod_revision and table
    expect(readableChunks([{ key, modRevision: 5, value: v1 }], "a/t")![0]).toBe(first[0]);
    // another mod_revision: decoded afresh from its own value
    const rewritten = readableChunks([{ key, modRevision: 6, value: v2 }], "a/t")!;
    expect(rewritten[0]).not.toBe(first[0]);
    expect(rewritten).toEqual([decodeChunk(v2, "a/t")]);
    expect(rewritten).not.toEqual(first);
    // another table: its own read
    const other = readableChunks([{ key, modRevision: 5, value: v1 }], "b/t")!;
    expect(other).toEqual([decodeChunk(v1, "b/t")]);
    expect(other[0]).not.toBe(first[0]);
    // both tables' reads of one stored chunk shared its skeleton (one per key and mod_revision)
    const skeletons = keptSkeletons;
    expect(skeletons.size).toBe(2);
    expect(other[0].evaluations.map((e) => e.placed)).toEqual([["a/t"], ["b/t"]]);
    // without a key (or a whole read) nothing is kept
    const whole = readableChunks([{ key, modRevision: 5, value: v1 }])!;
    expect(whole).toEqual([decodeChunk(v1)]);
    expect(readableChunks([{ key, modRevision: 5, value: v1 }])![0]).not.toBe(whole[0]);
  });

  it("never keeps an unreadable chunk: the read stays unreadable, and a readable value at a new mod_revision reads", () => {
    const good = encodeChunk(chunk(placed("w1")));
    const damaged = Buffer.from(good);
    damaged[damaged.length - 5] ^= 0xff;
    const key = "P/console/journal/damaged";
    expect(readableChunks([{ key, modRevision: 7, value: damaged }], "a/t")).toBeNull();
    expect(readableChunks([{ key, modRevision: 7, value: damaged }], "a/t")).toBeNull();
    expect(readableChunks([{ key, modRevision: 8, value: good }], "a/t")).toEqual([decodeChunk(good, "a/t")]);
  });
});
