// What moved a table's inputs at a transition (./moved-by.ts), on hand-made cases: the
// clock alone (a promotion, a stall, time), its own demand, a policy, the write turn,
// capacity on named executors, and tables placed ahead of it.
import { describe, expect, it } from "vitest";
import { movedBy, type InputsMoved, type TransitionState } from "./moved-by";

const s = (cls: string, code: string | null, write_turn: TransitionState["write_turn"] = null): TransitionState => ({
  class: cls,
  state: code === null ? "would_place" : "would_skip",
  code,
  write_turn,
});
const nothing: InputsMoved = { own: new Set(), executors: [], placedWith: [] };
const at = (before: TransitionState | null, after: TransitionState | null, previousRevision = 10, revision = 12) => ({
  previousRevision,
  revision,
  before,
  after,
});
const causes = (r: ReturnType<typeof movedBy>) =>
  r.map((c) => [c.cause, c.executor ?? c.target ?? c.clock].filter((x) => x !== null).join(":"));

describe("movedBy", () => {
  it("same revision: the clock alone — a promotion, a stall, or time", () => {
    expect(causes(movedBy(at(s("tail", "tail_below_threshold"), s("normal", "cycle_limit"), 10, 10), nothing))).toEqual(
      ["clock:promotion"],
    );
    expect(
      causes(
        movedBy(
          at(s("normal", "write_turn_held", "held"), s("normal", "write_turn_stalled", "stalled"), 10, 10),
          nothing,
        ),
      ),
    ).toEqual(["clock:stall"]);
    expect(causes(movedBy(at(s("normal", "cooldown"), s("normal", null), 10, 10), nothing))).toEqual(["clock:time"]);
    // the same revision wins over any key reported changed (nothing can have changed)
    expect(
      causes(movedBy(at(s("normal", "cooldown"), s("normal", null), 10, 10), { ...nothing, own: new Set(["demand"]) })),
    ).toEqual(["clock:time"]);
  });

  it("its own keys: demand, policy, write turn, in that order", () => {
    const own = new Set(["write_turn", "demand", "policy"] as const);
    expect(causes(movedBy(at(s("normal", null), s("critical", null)), { ...nothing, own }))).toEqual([
      "demand",
      "policy",
      "write_turn",
    ]);
  });

  it("capacity on each named executor, sorted", () => {
    expect(
      causes(movedBy(at(s("normal", "no_free_slot"), s("normal", null)), { ...nothing, executors: ["w2", "w1"] })),
    ).toEqual(["capacity:w1", "capacity:w2"]);
  });

  it("tables placed ahead, only when the table lost out to them (a contention code)", () => {
    const placedWith = ["t/d", "t/a", "t/c", "t/b"];
    expect(causes(movedBy(at(s("normal", null), s("normal", "cycle_limit")), { ...nothing, placedWith }))).toEqual([
      "table_ahead:t/a",
      "table_ahead:t/b",
      "table_ahead:t/c",
    ]);
    // placed itself, or skipped for a reason of its own: the others placed beside it are not why
    expect(causes(movedBy(at(s("normal", "cycle_limit"), s("normal", null)), { ...nothing, placedWith }))).toEqual([
      "clock:time",
    ]);
    expect(
      causes(movedBy(at(s("normal", "cooldown"), s("normal", "failure_backoff")), { ...nothing, placedWith })),
    ).toEqual(["clock:time"]);
    // placed, then its own merge running: the write turn moved, no table went ahead of it
    expect(
      causes(
        movedBy(at(s("critical", null), s("critical", "write_turn_held")), {
          ...nothing,
          own: new Set(["write_turn"]),
          placedWith,
        }),
      ),
    ).toEqual(["write_turn"]);
  });

  it("a new revision where none of the inputs read changed: the clock (time passed between them)", () => {
    expect(causes(movedBy(at(s("tail", "tail_below_threshold"), s("normal", "no_free_slot")), nothing))).toEqual([
      "clock:promotion",
    ]);
    expect(causes(movedBy(at(null, s("normal", null)), nothing))).toEqual(["clock:time"]);
  });
});
