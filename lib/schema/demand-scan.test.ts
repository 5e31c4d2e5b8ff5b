// The byte scanner against the reference path (JSON.parse + validateDemandEvent via
// parseDemandEventKv): whenever it answers, the event is the same (values and key order);
// for the stored wire form (stringifyDemandEvent) it always answers.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseDemandEventKv, stringifyDemandEvent, type DemandEvent, type DemandEventInput } from "./demand";
import { scanDemandEvent } from "./demand-scan";
import { hex } from "./keys";

const suffix = `${hex("alpha")}/s`;
const bytes = (s: string) => new TextEncoder().encode(s);

/** The reference event for `value`, or null when the slow path skips it. */
function reference(value: string): DemandEvent | null {
  const r = parseDemandEventKv(suffix, value);
  return r.ok ? r.event : null;
}

/** Same fields, same values, same key order (what JSON.stringify shows). */
function expectSameEvent(scanned: DemandEvent, ref: DemandEvent): void {
  expect(Object.keys(scanned)).toEqual(Object.keys(ref));
  expect(JSON.stringify(scanned)).toBe(JSON.stringify(ref));
  expect(scanned).toEqual(ref);
}

const u64 = fc.oneof(fc.nat({ max: 2000 }), fc.constant(0), fc.constant(67_108_864), fc.constant(999_999_999_999_999));
const times = fc.dictionary(
  fc.nat({ max: 1_000_000 }).map(String),
  fc.oneof(fc.integer({ min: -5, max: 5 }), fc.constant(1_700_000_001_001), fc.integer()),
  { maxKeys: 70 },
);
const wireEvent: fc.Arbitrary<DemandEventInput> = fc.record({
  v: fc.constant(1),
  shard: fc.stringMatching(/^[ !#-[\]-~]{0,40}$/), // printable ASCII without `"` and `\`
  sealed_through: u64,
  sealed_bytes_through: u64,
  merged_through: fc.option(u64, { nil: null }),
  merged_epoch: fc.option(u64, { nil: undefined }),
  flushed_at_ms: fc.oneof(fc.integer(), fc.constant(1_700_000_001_049), fc.constant(-1)),
  writer_epoch: u64,
  source: fc.constantFrom("writer", "executor", "scan"),
  sealed_times: fc.option(times, { nil: undefined }),
});

describe("scanDemandEvent", () => {
  it("reads every stored wire-form event exactly as the JSON path does", () => {
    fc.assert(
      fc.property(wireEvent, (event) => {
        const value = stringifyDemandEvent(event);
        const ref = reference(value);
        expect(ref).not.toBeNull();
        const scanned = scanDemandEvent(bytes(value));
        expect(scanned).not.toBeNull();
        expectSameEvent(scanned!, ref!);
      }),
      { numRuns: 1500 },
    );
  });

  it("whatever it answers for mangled input equals the JSON path (else it declines)", () => {
    const mangle = fc.constantFrom<(s: string) => string>(
      (s) => s.replace(/,/g, " ,\n\t"),
      (s) => s.replace(/:/g, " : "),
      (s) => ` ${s} `,
      (s) => s.replace('"v":1', '"v":0'),
      (s) => s.replace('"v":1', '"v":2'),
      (s) => s.replace('"v":1,', ""),
      (s) => s.replace(/"sealed_bytes_through":\d+,/, ""),
      (s) => s.replace(/"merged_through":(null|\d+),/, ""),
      (s) => s.replace(/:(\d)/, ":0$1"),
      (s) => s.replace(/:(\d+)/, ":$1.0"),
      (s) => s.replace(/:(\d+)/, ":$1e0"),
      (s) => s.replace(/:(\d+)/g, ":-$1"),
      (s) => s.replace("}", ',"extra":1}'),
      (s) => s.replace('"shard":"', '"shard":"\\u0041'),
      (s) => s.replace('"shard":"', '"shard":"é'),
      (s) => s.replace(/"source":"\w+"/, '"source":"SCAN"'),
      (s) => s.replace(/"sealed_times":\{"/, '"sealed_times":{"0'),
      (s) => s.replace(/"sealed_times":\{/, '"sealed_times":{"x":1,'),
      (s) => s.replace(/"sealed_times":\{/, '"sealed_times":{"5":1,"5":2,'),
      (s) => `${s}x`,
      (s) => s.slice(0, -1),
      (s) => s.replace(/"flushed_at_ms":-?\d+/, '"flushed_at_ms":"1"'),
      (s) => s.replace(/"writer_epoch":\d+/, '"writer_epoch":null'),
      (s) => s.replace('{"v":1,"shard"', '{"shard"').replace("}", ',"v":1}'),
    );
    fc.assert(
      fc.property(wireEvent, mangle, (event, f) => {
        const value = f(stringifyDemandEvent(event));
        const scanned = scanDemandEvent(bytes(value));
        if (scanned === null) return;
        const ref = reference(value);
        expect(ref).not.toBeNull();
        expectSameEvent(scanned, ref!);
      }),
      { numRuns: 3000 },
    );
  });

  it.each([
    [
      "-0",
      '{"v":1,"shard":"s","sealed_through":1,"sealed_bytes_through":0,"merged_through":null,"flushed_at_ms":-0,"writer_epoch":1,"source":"scan"}',
    ],
    [
      "16 digits",
      '{"v":1,"shard":"s","sealed_through":1234567890123456,"sealed_bytes_through":0,"merged_through":null,"flushed_at_ms":0,"writer_epoch":1,"source":"scan"}',
    ],
    [
      "repeated key",
      '{"v":1,"shard":"s","sealed_through":1,"sealed_bytes_through":0,"merged_through":null,"flushed_at_ms":0,"writer_epoch":1,"source":"scan","source":"scan"}',
    ],
    [
      "escape",
      '{"v":1,"shard":"a\\"b","sealed_through":1,"sealed_bytes_through":0,"merged_through":null,"flushed_at_ms":0,"writer_epoch":1,"source":"scan"}',
    ],
    [
      "unknown version",
      '{"v":7,"shard":"s","sealed_through":1,"sealed_bytes_through":0,"merged_through":null,"flushed_at_ms":0,"writer_epoch":1,"source":"scan"}',
    ],
    ["not an object", "[1]"],
    ["empty", ""],
  ])("declines %s (the JSON path decides)", (_name, value) => {
    expect(scanDemandEvent(bytes(value))).toBeNull();
  });

  it("builds sealed_times as ascending pairs while it scans them", () => {
    const value =
      '{"v":1,"shard":"s","sealed_through":1003,"sealed_bytes_through":0,"merged_through":1000,"flushed_at_ms":1700000001003,"writer_epoch":3,"source":"scan","sealed_times":{"1001":1700000001001, "1002" : -4,"1003":999999999999999}}';
    const event = scanDemandEvent(bytes(value))!;
    expect(event.sealed_times!.entries()).toEqual([
      [1001, 1_700_000_001_001],
      [1002, -4],
      [1003, 999_999_999_999_999],
    ]);
    expect(event.sealed_times!.toJSON()).toEqual({
      "1001": 1_700_000_001_001,
      "1002": -4,
      "1003": 999_999_999_999_999,
    });
    expectSameEvent(event, reference(value)!);
  });

  it.each([
    ["unordered generations", '{"1001":1,"1003":3,"1002":2}'],
    ["a repeated generation", '{"1001":1,"1001":0}'],
    ["a 16-digit generation", '{"1234567890123456":1}'],
    ["a non-canonical generation", '{"01":1}'],
  ])("declines %s (the JSON path decides)", (_name, times) => {
    const value = `{"v":1,"shard":"s","sealed_through":1,"sealed_bytes_through":0,"merged_through":null,"flushed_at_ms":0,"writer_epoch":1,"source":"scan","sealed_times":${times}}`;
    expect(scanDemandEvent(bytes(value))).toBeNull();
    expect(reference(value)).not.toBeNull();
  });

  it("finds the time map even when the shard is named like its key", () => {
    const value = stringifyDemandEvent({
      v: 1,
      shard: "sealed_times",
      sealed_through: 2,
      sealed_bytes_through: 0,
      merged_through: null,
      flushed_at_ms: 2,
      writer_epoch: 1,
      source: "writer",
      sealed_times: { "2": 2, "1": 1 },
    }).replace('"sealed_times":{', '"sealed_times" :\n {');
    const event = scanDemandEvent(bytes(value))!;
    expect(event.shard).toBe("sealed_times");
    expect(event.sealed_times!.toJSON()).toEqual({ "1": 1, "2": 2 });
    expectSameEvent(event, reference(value)!);
  });

  // The key's shard is only a hint the scanner may reuse as the string (no new copy); which
  // string object comes back is not observable, so what is checked is that the hint never
  // changes the answer: the shard is always the body's.
  it("gives the body's shard whatever the key's shard hint is", () => {
    const shard = "aaaaaaaa-0000-0000-0000-000000000001";
    const value = `{"v":1,"shard":"${shard}","sealed_through":1,"sealed_bytes_through":0,"merged_through":null,"flushed_at_ms":0,"writer_epoch":1,"source":"scan"}`;
    for (const hint of [undefined, shard, "other", shard.slice(0, -1), `${shard}2`, "", shard.toUpperCase()]) {
      expect(scanDemandEvent(bytes(value), hint)!.shard).toBe(shard);
    }
  });
});
