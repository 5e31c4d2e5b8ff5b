// Time in state in words (./time-in-state.ts): the API's order kept, the console's short words for codes.
import { describe, expect, it } from "vitest";
import { timeInStateWords } from "./time-in-state";

describe("timeInStateWords", () => {
  it("says each state's time, longest first as the API gives it, and leaves out empty ones", () => {
    expect(
      timeInStateWords([
        { state: "would_skip", code: "cycle_limit", ms: 4 * 3600_000 + 12 * 60_000 },
        { state: "would_skip", code: "write_turn_held", ms: 90 * 60_000 },
        { state: "would_place", code: null, ms: 18 * 60_000 },
        { state: "gone", code: null, ms: 0 },
      ]),
    ).toBe("4h 12m next cycle, 1h 30m write turn held, 18m 00s placed");
    expect(timeInStateWords([])).toBeNull();
  });
});
