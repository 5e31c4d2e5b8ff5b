import { describe, expect, it } from "vitest";
import {
  cleanDoc,
  describeIssue,
  diffDocs,
  flattenDoc,
  formValues,
  POLICY_FIELDS,
  resolveConflicts,
  showValue,
  threeWay,
  withoutVersion,
} from "./fields";

describe("policy form helpers", () => {
  it("covers every leaf of the document schema once, each with words", () => {
    const paths = POLICY_FIELDS.map((f) => f.path);
    expect(new Set(paths).size).toBe(paths.length);
    expect(paths.length).toBe(24); // 3 top-level + merge 5 + compact 2 + index 1 + turns 5 + waits 5 + backpressure + backlog 2
    for (const f of POLICY_FIELDS) expect(f.label).not.toMatch(/_/);
  });
  it("turns a sparse document into full form values and back", () => {
    const doc = { v: 1, merge: { min_generations: 4 }, kinds_allowed: ["MergeWal"] };
    const form = formValues(doc);
    expect(form.merge).toEqual({
      min_generations: 4,
      min_bytes: null,
      max_age_secs: null,
      critical_generations: null,
      continuous: null,
    });
    expect(form.mode).toBeNull();
    // v is the format's version, not a setting: the form never carries it (no phantom "v inherit → 1")
    expect("v" in form).toBe(false);
    expect(cleanDoc(form)).toEqual({ merge: { min_generations: 4 }, kinds_allowed: ["MergeWal"] });
    expect(cleanDoc(formValues({}))).toEqual({});
  });
  it("diffs leaves, treating null and absent alike", () => {
    const before = { merge: { min_generations: 8, min_bytes: null }, mode: "legacy" };
    const after = { merge: { min_generations: 2 }, kinds_allowed: ["MergeWal", "Compact"], mode: "legacy" };
    expect(diffDocs(before, after)).toEqual([
      { path: "kinds_allowed", before: undefined, after: ["MergeWal", "Compact"] },
      { path: "merge.min_generations", before: 8, after: 2 },
    ]);
    expect(diffDocs(null, null)).toEqual([]);
    expect([...flattenDoc({ a: { b: null } }).keys()]).toEqual([]);
    expect(showValue(undefined)).toBe("inherit");
    expect(showValue(["a", "b"])).toBe("a, b");
  });
  it("three-way: applies my changes on theirs, and returns the fields both changed instead of overwriting", () => {
    const base = { v: 1, merge: { min_generations: 8 }, mode: "legacy" };
    const theirs = { v: 1, merge: { min_generations: 12, max_age_secs: 60 }, mode: "planner" };
    const mine = { merge: { min_generations: 2 }, mode: "legacy", backpressure: "off" };
    const { merged, conflicts } = threeWay(base, theirs, mine);
    // v is not a change (base has it, mine does not); mode: only they changed it
    expect(conflicts).toEqual([{ path: "merge.min_generations", base: 8, theirs: 12, mine: 2 }]);
    expect(merged).toEqual({ merge: { min_generations: 12, max_age_secs: 60 }, mode: "planner", backpressure: "off" });
    expect(resolveConflicts(merged, conflicts, { "merge.min_generations": "mine" })).toEqual({
      merge: { min_generations: 2, max_age_secs: 60 },
      mode: "planner",
      backpressure: "off",
    });
    expect(resolveConflicts(merged, conflicts, { "merge.min_generations": "theirs" }).merge?.min_generations).toBe(12);
    // the same change on both sides is no conflict
    expect(threeWay(base, { merge: { min_generations: 2 } }, { merge: { min_generations: 2 } }).conflicts).toEqual([]);
    expect(withoutVersion({ v: 1, mode: "legacy" })).toEqual({ mode: "legacy" });
  });
  it("says what is wrong in words: field, allowed range, value given", () => {
    expect(describeIssue("merge.min_generations", 0, "Too small: expected number to be >=1")).toBe(
      "Minimum pending generations must be a whole number between 1 and 9,007,199,254,740,991 (generations); you gave 0.",
    );
    expect(describeIssue("merge.min_generations", "abc", "Invalid input")).toBe(
      'Minimum pending generations must be a whole number between 1 and 9,007,199,254,740,991 (generations); you gave "abc".',
    );
    // as typed: digits past the safe integers are never rewritten as 1e+20
    expect(describeIssue("merge.min_generations", "99999999999999999999", "Invalid input")).toBe(
      "Minimum pending generations must be a whole number between 1 and 9,007,199,254,740,991 (generations); you gave 99999999999999999999.",
    );
    expect(describeIssue("mode", "turbo", "Invalid option")).toBe(
      'Scheduling mode must be one of legacy, planner, active, drain, frozen; you gave "turbo".',
    );
    expect(describeIssue("merge.critical_generations", 5, "must be at least merge.min_generations (10)")).toBe(
      "Critical pending generations must be at least Minimum pending generations, which is 10 generations; you gave 5.",
    );
    // the effective rule names each field once, with one value each: the other field's effective value, the typed one
    const effective =
      "backlog.critical_generations (effective 4096 generations) must be at least backlog.warn_generations (effective 5000 generations), including inherited values";
    expect(describeIssue("backlog.warn_generations", 5000, effective)).toBe(
      "Backlog warning must be at most Backlog critical, which is 4,096 generations with inherited values; you gave 5000.",
    );
    expect(describeIssue("backlog.critical_generations", 4096, effective)).toBe(
      "Backlog critical must be at least Backlog warning, which is 5,000 generations with inherited values; you gave 4096.",
    );
  });
});
