import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  DemandEventSchema,
  hex,
  parseDemandEvent,
  parseDemandEventKv,
  parseTableDemand,
  stringifyDemandEvent,
  stringifyTableDemand,
  emptyTableDemand,
  MAX_VALUE_BYTES,
} from "./index";
import { validateDemandEvent } from "./demand-fast";
import { SealedTimes } from "./sealed-times";

const suffix = `${hex("alpha")}/s`;

describe("T12 schema_version_is_set_and_enforced (parse side)", () => {
  it("absent v reads as 1, v 0 is accepted as 1, v 999 is unknown but keeps the target", () => {
    const base = { shard: "s", sealed_through: 1, flushed_at_ms: 0, writer_epoch: 1, source: "scan" };
    const a = parseDemandEventKv(suffix, JSON.stringify(base));
    expect(a.ok && a.event.v).toBe(1);
    const z = parseDemandEventKv(suffix, JSON.stringify({ ...base, v: 0 }));
    expect(z.ok && z.event.v).toBe(1);
    const u = parseDemandEventKv(suffix, JSON.stringify({ ...base, v: 999 }));
    expect(u).toEqual({ ok: false, reason: "unknown_version", detail: "unsupported version 999", target: "alpha" });
    // an unknown version whose body is not an event does not create the table
    const bad = parseDemandEventKv(suffix, JSON.stringify({ v: 2 }));
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.reason).toBe("unknown_version");
    expect(!bad.ok && bad.target).toBeUndefined();
  });
  it("serialises v = 1 even for an event read as v 0", () => {
    const z = parseDemandEvent(
      JSON.stringify({ v: 0, shard: "s", sealed_through: 1, flushed_at_ms: 0, writer_epoch: 1, source: "scan" }),
    );
    expect(z.ok && JSON.parse(stringifyDemandEvent(z.value)).v).toBe(1);
  });
});

describe("T13 wire_format_is_stable", () => {
  it("minimal JSON parses with defaults", () => {
    const p = parseDemandEvent('{"shard":"s","sealed_through":1,"flushed_at_ms":0,"writer_epoch":1,"source":"scan"}');
    expect(p.ok).toBe(true);
    if (!p.ok) return;
    expect(p.value.v).toBe(1);
    expect(p.value.merged_through).toBeNull();
    expect(p.value.merged_epoch ?? null).toBeNull();
    expect(p.value.sealed_times?.size ?? 0).toBe(0);
    expect(p.value.sealed_bytes_through).toBe(0);
  });
  it("omits empty sealed_times and absent merged_epoch; source is lowercase", () => {
    const json = stringifyDemandEvent({
      v: 1,
      shard: "s",
      sealed_through: 3,
      sealed_bytes_through: 0,
      merged_through: null,
      flushed_at_ms: 5,
      writer_epoch: 1,
      source: "writer",
      sealed_times: {},
    });
    expect(json).toBe(
      '{"v":1,"shard":"s","sealed_through":3,"sealed_bytes_through":0,"merged_through":null,"flushed_at_ms":5,"writer_epoch":1,"source":"writer"}',
    );
    const withEpoch = JSON.parse(
      stringifyDemandEvent({
        v: 1,
        shard: "s",
        sealed_through: 3,
        sealed_bytes_through: 0,
        merged_through: 2,
        merged_epoch: 1,
        flushed_at_ms: 5,
        writer_epoch: 1,
        source: "executor",
        sealed_times: { "3": 5 },
      }),
    );
    expect("merged_epoch" in withEpoch).toBe(false); // equal to writer_epoch
    expect(withEpoch.sealed_times).toEqual({ "3": 5 });
  });
  it("table demand always serialises shard time maps and reads back equal", () => {
    const t = emptyTableDemand();
    t.shards.s = { sealed: { epoch: 1, value: 2 }, merged: null, sealed_bytes: 0, sealed_times: SealedTimes.empty() };
    const json = stringifyTableDemand(t);
    expect(json).toContain('"sealed_times":{}');
    const back = parseTableDemand(json);
    expect(back.ok && back.value).toEqual(t);
  });
});

describe("bad inputs never throw", () => {
  const cases: [string, string, string][] = [
    ["zz/s1", "{}", "bad_key"],
    [hex("alpha"), "{}", "bad_key"],
    [suffix, "not json", "bad_json"],
    [suffix, "[1,2]", "schema"],
    [suffix, '{"shard":"s","sealed_through":"1","flushed_at_ms":0,"writer_epoch":1,"source":"scan"}', "schema"],
    [suffix, '{"shard":"s","sealed_through":-1,"flushed_at_ms":0,"writer_epoch":1,"source":"scan"}', "schema"],
    [suffix, '{"shard":"s","sealed_through":1.5,"flushed_at_ms":0,"writer_epoch":1,"source":"scan"}', "schema"],
    [suffix, '{"shard":"s","sealed_through":1,"flushed_at_ms":0,"writer_epoch":1,"source":"SCAN"}', "schema"],
    [
      suffix,
      '{"shard":"s","sealed_through":1,"flushed_at_ms":0,"writer_epoch":1,"source":"scan","sealed_times":{"x":1}}',
      "schema",
    ],
    [suffix, '{"v":"1","shard":"s","sealed_through":1,"flushed_at_ms":0,"writer_epoch":1,"source":"scan"}', "schema"],
    [suffix, `{"shard":"${"x".repeat(MAX_VALUE_BYTES)}"}`, "too_large"],
  ];
  // the 1 MiB value is named by its length, not printed into the test title
  const named = cases.map(([key, value, reason]) => ({
    key,
    value,
    reason,
    shown: value.length > 200 ? `<${value.length} chars>` : value,
  }));
  it.each(named)("$key $shown → $reason", ({ key, value, reason }) => {
    const r = parseDemandEventKv(key, value);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.reason).toBe(reason);
  });
  it("ignores unknown extra fields and canonicalises generation keys numerically", () => {
    const r = parseDemandEvent(
      '{"shard":"s","sealed_through":12,"flushed_at_ms":0,"writer_epoch":1,"source":"writer","extra":[1],"sealed_times":{"010":5,"10":7,"9":1}}',
    );
    expect(r.ok && r.value.sealed_times!.entries()).toEqual([
      [9, 1],
      [10, 5],
    ]);
  });
});

describe("hand validator agrees with the zod schema", () => {
  const num = fc.oneof(fc.nat(), fc.integer({ min: -5, max: 5 }), fc.double(), fc.constant("1"), fc.constant(null));
  const body = fc.record(
    {
      v: fc.oneof(fc.constant(1), fc.constant(0), fc.constant(7), fc.constant(-1), fc.constant(1.5)),
      shard: fc.oneof(fc.string(), fc.constant(3)),
      sealed_through: num,
      sealed_bytes_through: num,
      merged_through: num,
      merged_epoch: num,
      flushed_at_ms: num,
      writer_epoch: num,
      source: fc.constantFrom("writer", "executor", "scan", "Writer", 1),
      sealed_times: fc.oneof(
        fc.dictionary(
          fc.oneof(fc.nat().map(String), fc.constantFrom("01", "007", "x", "")),
          fc.oneof(fc.integer(), fc.double()),
        ),
        fc.constant([]),
        fc.constant(null),
      ),
    },
    { requiredKeys: [] },
  );
  it("accepts and rejects the same bodies, with the same output", () => {
    fc.assert(
      fc.property(body, (b) => {
        const zod = DemandEventSchema.safeParse(structuredClone(b));
        const fast = validateDemandEvent(structuredClone(b) as Record<string, unknown>);
        expect(typeof fast !== "string").toBe(zod.success);
        if (zod.success && typeof fast !== "string") {
          expect(JSON.parse(JSON.stringify(fast))).toEqual(JSON.parse(JSON.stringify(zod.data)));
        }
      }),
      { numRuns: 2000 },
    );
  });
});
