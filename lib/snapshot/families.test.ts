// `demand-events/` kvs: the byte fast path (parseBytes) gives exactly the outcome of the
// string path (parse) for good, odd and bad keys and values, in any order.
import { describe, expect, it } from "vitest";
import { stringifyDemandEvent } from "@/lib/schema/demand";
import { SealedTimes } from "@/lib/schema/sealed-times";
import { hex } from "@/lib/schema/keys";
import { LIST_FAMILIES, parseFamilyKv } from "./families";
import type { SnapshotKv } from "./types";

const P = "/p";
const family = LIST_FAMILIES.find((f) => f.field === "demandEvents")!;

const event = (shard: string, times?: Record<string, number>) =>
  stringifyDemandEvent({
    v: 1,
    shard,
    sealed_through: 1003,
    sealed_bytes_through: 64,
    merged_through: 1000,
    flushed_at_ms: 1_700_000_001_003,
    writer_epoch: 3,
    source: "scan",
    sealed_times: times,
  });

const kv = (suffix: string, value: string, modRevision = 7): SnapshotKv => ({
  key: `${P}/demand-events/${suffix}`,
  value: Buffer.from(value),
  modRevision,
  lease: "0",
});

const makeCases = (): SnapshotKv[] => [
  kv(`${hex("t1")}/s1`, event("s1", { "1001": 1, "1002": 2 })),
  kv(`${hex("t1")}/s2`, event("s2")),
  kv(`${hex("t2")}/s1`, event("other-shard", { "7": 7 })),
  kv(`${hex("t3")}/s1`, `{"shard":"s1","sealed_through":1,"flushed_at_ms":0,"writer_epoch":1,"source":"scan"}`),
  kv(`${hex("t3")}/s2`, `{"v":9,"shard":"s2","sealed_through":1,"flushed_at_ms":0,"writer_epoch":1,"source":"scan"}`),
  kv(`${hex("t3")}/s3`, "not json"),
  kv(`${hex("t4")}/é`, event("é", { "010": 5, "10": 7 })),
  kv("zz/s1", event("s1")),
  kv(hex("t5"), event("s1")),
  kv(`${hex("t6")}/s1`, event("s1").replace('"sealed_through":1003', '"sealed_through":1.5')),
  kv(`${hex("t1")}/s3`, event("s3", { "5": 5 })),
];

const cases = makeCases();

describe("demand-events fast path", () => {
  it("gives the string path's outcome for every kv, in any order", () => {
    // fresh kv objects per order: outcomes are memoized per kv object
    for (const order of [makeCases(), makeCases().reverse(), [...makeCases().slice(5), ...makeCases().slice(0, 5)]]) {
      for (const c of order) {
        const suffix = c.key.slice(`${P}/demand-events/`.length);
        const slow = family.parse(suffix, c.value.toString("utf8"), c);
        expect(parseFamilyKv(P, family, c)).toEqual(slow);
      }
    }
  });

  it("answers the stored wire form itself (no JSON.parse), with the key's target and shard", () => {
    const c = cases[0];
    const fast = family.parseBytes!(c.key.slice(`${P}/demand-events/`.length), c);
    expect(fast).toEqual({
      ok: true,
      entry: {
        key: c.key,
        modRevision: 7,
        target: "t1",
        shard: "s1",
        event: {
          v: 1,
          shard: "s1",
          sealed_through: 1003,
          sealed_bytes_through: 64,
          merged_through: 1000,
          flushed_at_ms: 1_700_000_001_003,
          writer_epoch: 3,
          source: "scan",
          sealed_times: SealedTimes.fromRecord({ "1001": 1, "1002": 2 }),
        },
      },
    });
    expect(family.parseBytes!(`${hex("t3")}/s3`, cases[5])).toBeUndefined();
  });
});
