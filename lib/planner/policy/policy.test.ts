import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { BUILTIN_POLICY, foreignPolicyVersion, parseStoredPolicy } from "@/lib/schema/policy";
import type { PolicyDocument } from "@/lib/schema/policy";
import { effectivePolicy, validatePolicy } from "./index";

describe("effectivePolicy (§7.3 merge)", () => {
  it("returns the built-in defaults when no document exists", () => {
    const { effective, sources } = effectivePolicy(BUILTIN_POLICY, null, null);
    expect(effective).toEqual(BUILTIN_POLICY);
    expect(effective).not.toBe(BUILTIN_POLICY);
    expect(sources.builtin).toBe(true);
    expect(sources.default).toBe(false);
    expect(sources.table).toBe(false);
    expect(sources.fields["merge.min_generations"]).toBe("builtin");
    expect(sources.fields["max_turn_wait_secs.compact"]).toBe("builtin");
    expect(sources.fields["executors_allowed"]).toBe("builtin");
  });

  it("layers default then table, null and absent inherit, arrays replace", () => {
    const def: PolicyDocument = {
      merge: { min_generations: 16, critical_generations: 512 },
      kinds_allowed: ["MergeWal", "Compact"],
    };
    const table: PolicyDocument = {
      merge: { min_generations: 4, critical_generations: null },
      kinds_allowed: ["Repair"],
      max_consecutive_turns: { compact: 3 },
      mode: null,
    };
    const { effective, sources } = effectivePolicy(BUILTIN_POLICY, def, table);
    expect(effective.merge).toEqual({
      min_generations: 4,
      min_bytes: 0,
      max_age_secs: 3600,
      critical_generations: 512,
      continuous: false,
    });
    expect(effective.kinds_allowed).toEqual(["Repair"]);
    expect(effective.max_consecutive_turns).toEqual({ merge_wal: 2, compact: 3 });
    expect(effective.mode).toBe("legacy");
    expect(sources).toMatchObject({ builtin: true, default: true, table: true });
    expect(sources.fields["merge.min_generations"]).toBe("table");
    expect(sources.fields["merge.critical_generations"]).toBe("default");
    expect(sources.fields["merge.max_age_secs"]).toBe("builtin");
    expect(sources.fields["kinds_allowed"]).toBe("table");
    expect(sources.fields["max_consecutive_turns.compact"]).toBe("table");
    expect(sources.fields["max_consecutive_turns.merge_wal"]).toBe("builtin");
    expect(sources.fields["mode"]).toBe("builtin");
  });

  it("never mutates its inputs", () => {
    const def: PolicyDocument = { executors_allowed: ["worker"] };
    const { effective } = effectivePolicy(BUILTIN_POLICY, def, null);
    effective.executors_allowed.push("resident");
    effective.merge.min_generations = 99;
    expect(def.executors_allowed).toEqual(["worker"]);
    expect(BUILTIN_POLICY.merge.min_generations).toBe(8);
  });
});

describe("validatePolicy (§7.3 validation)", () => {
  const bad = (doc: unknown, defaultDoc: PolicyDocument | null = null) => {
    const r = validatePolicy(doc, { defaultDoc });
    expect(r.ok).toBe(false);
    return r.ok ? [] : r.issues;
  };

  it("accepts the empty document and a full valid one", () => {
    expect(validatePolicy({}, { defaultDoc: null }).ok).toBe(true);
    const full = { ...BUILTIN_POLICY, mode: "frozen" };
    const r = validatePolicy(full, { defaultDoc: null });
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.effective.mode).toBe("frozen");
  });

  it("rejects each rule with a field path", () => {
    expect(bad({ bogus: 1 })[0].path).toBe("");
    expect(bad({ merge: { min_generations: 0 } })[0].path).toBe("merge.min_generations");
    expect(bad({ merge: { min_generations: 1.5 } })[0].path).toBe("merge.min_generations");
    expect(bad({ merge: { min_bytes: 2 ** 53 } })[0].path).toBe("merge.min_bytes");
    expect(bad({ merge: { max_age_secs: 0 } })[0].path).toBe("merge.max_age_secs");
    expect(bad({ merge: { typo: 1 } })[0].path).toBe("merge");
    expect(bad({ mode: "paused" })[0].path).toBe("mode");
    expect(bad({ executors_allowed: [] })[0].path).toBe("executors_allowed");
    expect(bad({ executors_allowed: ["worker", "worker"] })[0].path).toBe("executors_allowed");
    expect(bad({ kinds_allowed: ["merge_wal"] })[0].path).toBe("kinds_allowed.0");
    expect(bad({ max_consecutive_turns: { merge_wal: 0 } })[0].path).toBe("max_consecutive_turns.merge_wal");
    expect(bad({ max_turn_wait_secs: { compact: -1 } })[0].path).toBe("max_turn_wait_secs.compact");
    expect(bad({ index: { type: "hash" } })[0].path).toBe("index.type");
    expect(bad({ backpressure: "on" })[0].path).toBe("backpressure");
    expect(bad([])[0].path).toBe("");
  });

  it("checks critical ≥ min on the document and on the effective policy", () => {
    expect(bad({ merge: { min_generations: 10, critical_generations: 9 } })[0].path).toBe("merge.critical_generations");
    // Only the table's critical is set: it falls below the inherited default minimum.
    const issues = bad({ merge: { critical_generations: 100 } }, { merge: { min_generations: 200 } });
    expect(issues).toHaveLength(1);
    expect(issues[0].path).toBe("merge.critical_generations");
    expect(issues[0].message).toContain("effective 100 generations");
    // Only the table's min is set, above the built-in critical 256.
    expect(bad({ merge: { min_generations: 300 } })[0].path).toBe("merge.min_generations");
    expect(bad({ backlog: { warn_generations: 5000 } })[0].path).toBe("backlog.warn_generations");
    expect(validatePolicy({ merge: { critical_generations: 100 } }, { defaultDoc: null }).ok).toBe(true);
  });

  it("lists every issue at once: field issues beside the cross-field rules they used to hide", () => {
    // a bad field, a typo and critical below an inherited minimum: three issues in one answer
    const issues = bad(
      {
        merge: { max_age_secs: 0, critical_generations: 100, typo: 1 },
        backlog: { warn_generations: 10, critical_generations: 5 },
      },
      { merge: { min_generations: 200 } },
    );
    expect(issues.map((i) => i.path)).toEqual([
      "merge.max_age_secs",
      "merge",
      "backlog.critical_generations",
      "merge.critical_generations",
    ]);
    expect(issues[0].message).toBe("must be a whole number between 1 and 9,007,199,254,740,991");
    // the bad field itself is not also named by a cross-field rule
    expect(bad({ merge: { min_generations: 0, critical_generations: "x" } }).map((i) => i.path)).toEqual([
      "merge.min_generations",
      "merge.critical_generations",
    ]);
    expect(bad({ merge: { min_generations: 1e20 } })[0].message).toBe(
      "must be a whole number between 1 and 9,007,199,254,740,991",
    );
  });

  it("reports a newer stored version so writers never overwrite it", () => {
    const r = validatePolicy({ v: 2, mode: "planner" }, { defaultDoc: null });
    expect(r).toMatchObject({ ok: false, unsupported_version: 2 });
    expect(bad({ v: 0 })[0].path).toBe("v");
    expect(foreignPolicyVersion({ v: 3 })).toBe(3);
    expect(foreignPolicyVersion({ v: 1 })).toBeUndefined();
    expect(foreignPolicyVersion({ v: null })).toBeUndefined();
    expect(foreignPolicyVersion(null)).toBeUndefined();
    expect(parseStoredPolicy({ v: 7 })).toMatchObject({ ok: false, reason: "unknown_version" });
    expect(parseStoredPolicy({ mode: 3 })).toMatchObject({ ok: false, reason: "schema" });
    expect(parseStoredPolicy({ v: null, mode: "drain" })).toEqual({ ok: true, value: { v: null, mode: "drain" } });
  });
});

// ---- fuzz: valid documents by construction, and mutations that break exactly one rule ----
const opt = <T>(arb: fc.Arbitrary<T>) => fc.option(fc.option(arb, { nil: null }), { nil: undefined });
const subset = <T>(values: readonly T[]) => fc.shuffledSubarray([...values], { minLength: 1 });
const turnMap = (min: number) =>
  fc.record(
    {
      merge_wal: opt(fc.integer({ min, max: 100 })),
      compact: opt(fc.integer({ min, max: 100 })),
      retire: opt(fc.integer({ min, max: 100 })),
    },
    { requiredKeys: [] },
  );

/** min ≤ 100 ≤ critical and warn ≤ 1000 ≤ critical keep every layering valid (built-ins 256/4096 fit). */
const validDoc: fc.Arbitrary<PolicyDocument> = fc.record(
  {
    v: opt(fc.constant(1 as const)),
    mode: opt(fc.constantFrom("legacy", "planner", "active", "drain", "frozen" as const)),
    executors_allowed: opt(subset(["resident", "worker", "catchup_job"] as const)),
    kinds_allowed: opt(subset(["MergeWal", "Compact", "IndexId", "Repair", "Retire"] as const)),
    merge: opt(
      fc.record(
        {
          min_generations: opt(fc.integer({ min: 1, max: 100 })),
          min_bytes: opt(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER })),
          max_age_secs: opt(fc.integer({ min: 1, max: 10 ** 7 })),
          critical_generations: opt(fc.integer({ min: 100, max: 10 ** 6 })),
          continuous: opt(fc.boolean()),
        },
        { requiredKeys: [] },
      ),
    ),
    compact: opt(
      fc.record(
        {
          min_fragments: opt(fc.integer({ min: 1, max: 1000 })),
          max_source_fragments: opt(fc.integer({ min: 1, max: 1000 })),
        },
        { requiredKeys: [] },
      ),
    ),
    index: opt(fc.record({ type: opt(fc.constantFrom("btree", "zonemap" as const)) }, { requiredKeys: [] })),
    max_consecutive_turns: opt(turnMap(1)),
    max_turn_wait_secs: opt(turnMap(0)),
    backpressure: opt(fc.constantFrom("off", "metric", "delay_admission" as const)),
    backlog: opt(
      fc.record(
        {
          warn_generations: opt(fc.integer({ min: 1, max: 1000 })),
          critical_generations: opt(fc.integer({ min: 1000, max: 10 ** 6 })),
        },
        { requiredKeys: [] },
      ),
    ),
  },
  { requiredKeys: [] },
) as fc.Arbitrary<PolicyDocument>;

type Mutation = (doc: PolicyDocument, def: PolicyDocument | null) => { doc: unknown; def: PolicyDocument | null };
const set =
  (section: keyof PolicyDocument, field: string, value: unknown): Mutation =>
  (doc, def) => ({
    doc: { ...doc, [section]: { ...((doc[section] as object | null | undefined) ?? {}), [field]: value } },
    def,
  });
const top =
  (field: string, value: unknown): Mutation =>
  (doc, def) => ({ doc: { ...doc, [field]: value }, def });

const mutations: Record<string, Mutation> = {
  v_two: top("v", 2),
  v_string: top("v", "1"),
  unknown_top_key: top("priority", 1),
  mode_enum: top("mode", "paused"),
  executors_empty: top("executors_allowed", []),
  executors_unknown: top("executors_allowed", ["resident", "gpu"]),
  executors_duplicate: top("executors_allowed", ["worker", "worker"]),
  kinds_empty: top("kinds_allowed", []),
  kinds_snake_case: top("kinds_allowed", ["merge_wal"]),
  backpressure_enum: top("backpressure", "on"),
  merge_not_object: top("merge", 8),
  min_generations_zero: set("merge", "min_generations", 0),
  min_generations_fraction: set("merge", "min_generations", 2.5),
  min_generations_unsafe: set("merge", "min_generations", 2 ** 53),
  min_bytes_negative: set("merge", "min_bytes", -1),
  max_age_zero: set("merge", "max_age_secs", 0),
  continuous_string: set("merge", "continuous", "yes"),
  merge_unknown_key: set("merge", "max_bytes", 1),
  critical_below_min_in_doc: (doc, def) => ({
    doc: { ...doc, merge: { ...doc.merge, min_generations: 50, critical_generations: 49 } },
    def,
  }),
  critical_below_inherited_min: (doc, def) => ({
    doc: { ...doc, merge: { ...doc.merge, min_generations: null, critical_generations: 20 } },
    def: { ...def, merge: { ...def?.merge, min_generations: 21, critical_generations: 500 } },
  }),
  min_fragments_zero: set("compact", "min_fragments", 0),
  index_type_enum: set("index", "type", "hash"),
  turns_zero: set("max_consecutive_turns", "merge_wal", 0),
  turns_unknown_kind: set("max_consecutive_turns", "MergeWal", 2),
  wait_negative: set("max_turn_wait_secs", "compact", -5),
  backlog_critical_below_warn: (doc, def) => ({
    doc: { ...doc, backlog: { warn_generations: 900, critical_generations: 899 } },
    def,
  }),
  backlog_warn_above_inherited_critical: (doc, def) => ({
    doc: { ...doc, backlog: { warn_generations: 5000, critical_generations: null } },
    def: { ...def, backlog: { critical_generations: null, warn_generations: null } },
  }),
};

describe("validatePolicy fuzz", () => {
  it("accepts every valid document over every valid default", () => {
    fc.assert(
      fc.property(validDoc, fc.option(validDoc, { nil: null }), (doc, def) => {
        const r = validatePolicy(doc, { defaultDoc: def });
        if (!r.ok) throw new Error(JSON.stringify(r.issues));
        // the default itself validates on its own, too
        if (def) expect(validatePolicy(def, { defaultDoc: null }).ok).toBe(true);
      }),
      { numRuns: 400 },
    );
  });

  it("rejects every single-rule mutation", () => {
    const names = Object.keys(mutations);
    fc.assert(
      fc.property(validDoc, fc.option(validDoc, { nil: null }), fc.constantFrom(...names), (doc, def, name) => {
        const mutated = mutations[name](doc, def);
        const r = validatePolicy(mutated.doc, { defaultDoc: mutated.def });
        expect(r.ok, name).toBe(false);
      }),
      { numRuns: 1000 },
    );
  });
});
