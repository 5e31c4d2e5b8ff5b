import { describe, expect, it } from "vitest";
import { cleanDoc, diffDocs, flattenDoc, formValues, POLICY_FIELDS, rebaseEdit, showValue, withoutVersion } from "./fields";

describe("policy form helpers", () => {
  it("covers every leaf of the document schema once", () => {
    const paths = POLICY_FIELDS.map((f) => f.path);
    expect(new Set(paths).size).toBe(paths.length);
    expect(paths.length).toBe(24); // 3 top-level + merge 5 + compact 2 + index 1 + turns 5 + waits 5 + backpressure + backlog 2
  });
  it("turns a sparse document into full form values and back", () => {
    const doc = { v: 1, merge: { min_generations: 4 }, kinds_allowed: ["MergeWal"] };
    const form = formValues(doc);
    expect(form.merge).toEqual({ min_generations: 4, min_bytes: null, max_age_secs: null, critical_generations: null, continuous: null });
    expect(form.mode).toBeNull();
    expect(cleanDoc(form)).toEqual(doc);
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
  it("re-applies my leaf changes on top of what was stored meanwhile", () => {
    const base = { v: 1, merge: { min_generations: 8 }, mode: "legacy" };
    const theirs = { v: 1, merge: { min_generations: 8, max_age_secs: 60 }, mode: "planner" };
    const mine = { merge: { min_generations: 2 }, mode: "legacy", backpressure: "off" };
    // mine changed min_generations and backpressure and dropped v; mode is unchanged by me, so theirs wins
    expect(rebaseEdit(base, theirs, mine)).toEqual({ merge: { min_generations: 2, max_age_secs: 60 }, mode: "planner", backpressure: "off" });
    expect(withoutVersion({ v: 1, mode: "legacy" })).toEqual({ mode: "legacy" });
  });
});
