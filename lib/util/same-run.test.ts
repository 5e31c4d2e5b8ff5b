import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sameRun } from "./same-run";

describe("sameRun", () => {
  it("is the count of elements the same in step, as a plain walk counts them", () => {
    const objs = Array.from({ length: 6 }, (_, i) => ({ i }));
    const list = fc.array(fc.constantFrom(...objs), { maxLength: 20 });
    fc.assert(
      fc.property(list, list, fc.integer({ min: -2, max: 22 }), fc.integer({ min: -2, max: 22 }), (a, b, i, k) => {
        let plain = 0;
        if (i >= 0 && k >= 0)
          while (i + plain < a.length && k + plain < b.length && a[i + plain] === b[k + plain]) plain++;
        expect(sameRun(a, i, b, k)).toBe(plain);
      }),
    );
  });
});
