import { describe, expect, it } from "vitest";
import type { ResolverOptions } from "react-hook-form";
import type { PolicyDocument } from "@/lib/schema/policy";
import { formValues } from "./fields";
import { policyResolver } from "./resolver";

const opts = { fields: {}, shouldUseNativeValidation: false } as unknown as ResolverOptions<PolicyDocument>;
const withMerge = (merge: Record<string, unknown>) =>
  ({ ...formValues({}), merge: { ...formValues({}).merge, ...merge } }) as PolicyDocument;

describe("the form's resolver", () => {
  it("passes a valid edit through as a sparse document", async () => {
    const r = await policyResolver(null)(withMerge({ min_generations: 2 }), undefined, opts);
    expect(r.errors).toEqual({});
    expect(r.values).toEqual({ merge: { min_generations: 2 } });
  });
  it("reports every bad field in words (the API's validation, not the library's text)", async () => {
    const r = await policyResolver(null)(withMerge({ min_generations: "abc", max_age_secs: 0 }), undefined, opts);
    expect(Object.keys(r.errors.merge ?? {}).sort()).toEqual(["max_age_secs", "min_generations"]);
    expect(r.errors.merge?.max_age_secs?.message).toBe(
      "Age that doubles the score must be a whole number between 1 and 9,007,199,254,740,991 (seconds); you gave 0.",
    );
    expect(r.errors.merge?.min_generations?.message).not.toMatch(/expected|Invalid input/);
  });
  it("checks critical ≥ min against inherited values from _default", async () => {
    const fleetDefault = { merge: { critical_generations: 20 } } as PolicyDocument;
    const ok = await policyResolver(fleetDefault)(withMerge({ min_generations: 20 }), undefined, opts);
    expect(ok.errors).toEqual({});
    const bad = await policyResolver(fleetDefault)(withMerge({ min_generations: 21 }), undefined, opts);
    expect(bad.errors.merge?.min_generations?.message).toMatch(
      /^Minimum pending generations must be at most Critical pending generations, which is 20 generations with inherited values; you gave 21\.$/,
    );
  });
});
