import { describe, expect, it } from "vitest";
import { BUILTIN_POLICY } from "@/lib/schema/policy";
import type { PolicyDocument } from "@/lib/schema/policy";
import { effectivePolicy } from "./effective";
import { policyWarnings } from "./sanity";

const warn = (doc: PolicyDocument, fleetDefault: PolicyDocument | null = null) =>
  policyWarnings(effectivePolicy(BUILTIN_POLICY, fleetDefault, doc).effective, doc);

describe("range warnings (valid values far outside sane ranges)", () => {
  it("the built-in defaults and ordinary edits warn about nothing", () => {
    expect(warn({})).toEqual([]);
    expect(warn({ merge: { min_generations: 256, critical_generations: 4096, max_age_secs: 86_400 } })).toEqual([]);
  });

  it("names the range and the reason for each field set past it", () => {
    const w = warn({
      merge: { min_generations: 100_000, critical_generations: 100_000 },
      max_turn_wait_secs: { compact: 172_800 },
    });
    expect(w.map((x) => [x.path, x.range])).toEqual([
      ["merge.critical_generations", "1 to 4,096 generations"],
      ["merge.min_generations", "1 to 256 generations"],
      ["max_turn_wait_secs.compact", "0 to 86,400 seconds (one day)"],
    ]);
    expect(w[0].message).toBe(
      "A table becomes critical at 100,000 pending generations, above the 4,096-generation write cliff: writers get HTTP 503 before the table is treated as critical. Sane range: 1 to 4,096 generations.",
    );
  });

  it("warns where a value is set, not where it is inherited", () => {
    const fleetDefault: PolicyDocument = { merge: { critical_generations: 10_000 } };
    expect(warn({ merge: { min_generations: 4 } }, fleetDefault)).toEqual([]);
    expect(warn({ kinds_allowed: ["Compact"] }).map((x) => x.path)).toEqual(["kinds_allowed"]);
  });
});
