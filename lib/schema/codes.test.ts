import { describe, expect, it } from "vitest";
import { CLASS_RANK, PLANNER_CLASSES } from "@/lib/planner/score";
import { IDLE_RANK } from "@/lib/planner/plan/units";
import { codeInWords, skipReasonInWords } from "@/lib/words/codes";
import { CLASS_NAMES, WHY_NOT_CODES } from "./codes";

describe("the code lists", () => {
  it("list the classes in the planner's rank order, idle last at its rank", () => {
    expect(CLASS_NAMES.slice(0, -1)).toEqual([...PLANNER_CLASSES]);
    for (const c of PLANNER_CLASSES) expect(CLASS_NAMES.indexOf(c)).toBe(CLASS_RANK[c]);
    expect(CLASS_NAMES.indexOf("idle")).toBe(IDLE_RANK);
  });

  it("name each code once", () => {
    expect(new Set(WHY_NOT_CODES).size).toBe(WHY_NOT_CODES.length);
    expect(new Set(CLASS_NAMES).size).toBe(CLASS_NAMES.length);
  });

  it("give words to codes and only to codes (no inherited property is a word)", () => {
    expect(codeInWords("no_free_slot")).toBe("no free slot");
    expect(codeInWords("write_turn_held")).toBe("write turn held");
    expect(codeInWords("promoted_for_age")).toBe("promoted for age");
    expect(codeInWords("some_new_code")).toBe("some new code");
    expect(codeInWords("toString")).toBe("toString");
    expect(skipReasonInWords("bad_json")).toBe("not JSON");
    expect(skipReasonInWords("constructor")).toBe("constructor");
  });
});
