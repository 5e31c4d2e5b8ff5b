import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { hex, keys, kindFromLabel, kindLabel, splitDemandEventKey, splitFailureKey, splitKindKey, unhex } from "./index";

describe("hex / unhex (T19 hex_round_trips_and_rejects_odd_input)", () => {
  it.each(["alpha", "generic:beta", "", "ünïcödé"])("round-trips %j", (s) => {
    expect(unhex(hex(s))).toBe(s);
  });
  it("encodes lowercase UTF-8 bytes", () => {
    expect(hex("alpha")).toBe("616c706861");
    expect(hex("ü")).toBe("c3bc");
    expect(hex("generic:beta")).toBe("67656e657269633a62657461");
  });
  it("rejects odd length, non-hex digits and invalid UTF-8", () => {
    expect(unhex("abc")).toBeNull();
    expect(unhex("zz")).toBeNull();
    expect(unhex("6g")).toBeNull();
    expect(unhex("ff")).toBeNull(); // not UTF-8
    expect(unhex("c3")).toBeNull(); // truncated sequence
  });
  it("round-trips any string without lone surrogates", () => {
    fc.assert(fc.property(fc.string({ unit: "grapheme" }), (s) => unhex(hex(s)) === s));
  });
});

describe("key splits", () => {
  it("splits demand-event keys at the FIRST slash; the shard is raw", () => {
    expect(splitDemandEventKey(`${hex("alpha")}/s1`)).toEqual({ target: "alpha", shard: "s1" });
    expect(splitDemandEventKey(`${hex("a/b")}/x/y`)).toEqual({ target: "a/b", shard: "x/y" });
    expect(splitDemandEventKey("zz/s1")).toBeNull();
    expect(splitDemandEventKey(hex("alpha"))).toBeNull();
  });
  it("maps legacy kind labels exactly", () => {
    expect(kindLabel("merge_wal")).toBe("merge-wal");
    expect(kindLabel("index_id")).toBe("index-id");
    expect(kindFromLabel("compact")).toBe("compact");
    expect(kindFromLabel("repair")).toBe("repair");
    expect(kindFromLabel("merge_wal")).toBeNull();
    expect(kindFromLabel("toString")).toBeNull();
    expect(splitKindKey(`merge-wal/${hex("t")}`)).toEqual({ kind: "merge_wal", target: "t" });
    expect(splitKindKey(`index-id/${hex("generic:x")}`)).toEqual({ kind: "index_id", target: "generic:x" });
    expect(splitKindKey(`merge/${hex("t")}`)).toBeNull();
    expect(splitKindKey(`compact/abc`)).toBeNull();
  });
  it("splits failure keys into target and endpoint", () => {
    expect(splitFailureKey(`${hex("t")}/${hex("master:compact")}`)).toEqual({ target: "t", endpoint: "master:compact" });
    expect(splitFailureKey(`${hex("t")}/zz`)).toBeNull();
  });
  it("builds keys under the prefix", () => {
    expect(keys.demandEvent("/p", "alpha", "s1")).toBe("/p/demand-events/616c706861/s1");
    expect(keys.cooldown("/p", "index_id", "alpha")).toBe("/p/cooldown/index-id/616c706861");
    expect(keys.assignment("/p", "alpha", "u1")).toBe("/p/assignments/616c706861/u1");
  });
});
