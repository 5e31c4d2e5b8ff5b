// Shadow-history values are parsed with the sample schema: known fields only; anything
// else (foreign, damaged, hostile) is left out instead of breaking the history response.
import { describe, expect, it } from "vitest";
import { clockKey } from "@/lib/schema/keys";
import { parseClockSample, parseShadowSample } from "./sampler";

const outcomes = { discovery_miss: 1, queued_only: 2, running: 3, placement_gap: 4, phantom_task: 5 };
const sample = { at_ms: 1767225600000, revision: 42, outcomes, disagreements: 6 };

function deep(depth: number): unknown {
  let v: unknown = 0;
  for (let i = 0; i < depth; i++) v = { x: v };
  return v;
}

describe("parseShadowSample", () => {
  it("keeps exactly the known fields of a valid sample", () => {
    expect(parseShadowSample(JSON.stringify(sample))).toEqual(sample);
    expect(parseShadowSample(JSON.stringify({ ...sample, extra: "x", outcomes: { ...outcomes, more: 7 } }))).toEqual(
      sample,
    );
  });

  it("drops a deeply nested extra field, so the result serialises", () => {
    const hostile = `{"at_ms":1767225600000,"revision":42,"outcomes":${JSON.stringify(outcomes)},"disagreements":6,"junk":${"[".repeat(1900)}${"]".repeat(1900)}}`;
    const parsed = parseShadowSample(hostile);
    expect(parsed).toEqual(sample);
    expect(JSON.stringify(parsed)).toBe(JSON.stringify(sample));
    const nested = { ...sample, deep: deep(50_000) };
    expect(() => JSON.stringify(nested)).toThrow(RangeError);
  });

  it("does not parse a value larger than any sample (4,096 characters)", () => {
    const padded = JSON.stringify({ ...sample, pad: "x".repeat(4096) });
    expect(padded.length).toBeGreaterThan(4096);
    expect(parseShadowSample(padded)).toBeNull();
  });

  it("leaves out anything that is not a sample", () => {
    for (const bad of [
      "",
      "not json",
      "null",
      "[]",
      "42",
      JSON.stringify({ ...sample, at_ms: "1" }),
      JSON.stringify({ ...sample, outcomes: { ...outcomes, running: 1.5 } }),
      JSON.stringify({ at_ms: 1, revision: 2 }),
    ]) {
      expect(parseShadowSample(bad)).toBeNull();
    }
  });
});

describe("parseClockSample", () => {
  it("keeps a revision-clock sample's two fields and refuses anything else", () => {
    expect(parseClockSample(JSON.stringify({ at_ms: 1767225600000, revision: 42, extra: 1 }))).toEqual({
      at_ms: 1767225600000,
      revision: 42,
    });
    for (const bad of [
      "",
      "not json",
      "null",
      JSON.stringify({ at_ms: 1 }),
      JSON.stringify({ at_ms: -1, revision: 2 }),
      JSON.stringify({ at_ms: 1, revision: 0 }),
      JSON.stringify({ at_ms: 1.5, revision: 2 }),
    ]) {
      expect(parseClockSample(bad)).toBeNull();
    }
    expect(parseClockSample(JSON.stringify({ at_ms: 1, revision: 2, pad: "x".repeat(5000) }))).toBeNull();
  });

  it("keys sort by time: 15 digits, zero-padded", () => {
    expect(clockKey("/p", 1767225600000)).toBe("/p/console/revision-clock/001767225600000");
    expect(clockKey("/p", 9) < clockKey("/p", 10)).toBe(true);
  });
});
