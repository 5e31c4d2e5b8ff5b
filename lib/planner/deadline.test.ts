// Deadlines on promises (./deadline.ts; console-api.md "Forecasts …"): an assignment that holds
// a table's write turn clears by itself until its bind deadline; past it, unbound and not
// released, the why-not entry says it is overdue and by how much, never "clears by itself".
import { describe, expect, it } from "vitest";
import { planFleet } from "./plan/full-plan";
import { assignment, demand, fleet, NOW } from "./plan/__fixtures__/fleet";
import { overdueAt } from "./deadline";

function heldBy(bindDeadlineMs: number, state: "assigned" | "bound") {
  const plan = planFleet(
    fleet({
      tables: { t: demand(40, NOW - 3_600_000) },
      assignments: [assignment("t", "gone", { state, bind_deadline_ms: bindDeadlineMs, unit_id: "u-1" })],
    }),
    NOW,
  );
  return plan.byTarget.get("t")!.why_not.find((w) => w.code === "already_running")!;
}

describe("deadlines", () => {
  it("are overdue only once passed", () => {
    expect(overdueAt(NOW, NOW)).toBeNull();
    expect(overdueAt(NOW + 1, NOW)).toBeNull();
    expect(overdueAt(null, NOW)).toBeNull();
    expect(overdueAt(NOW - 90_000, NOW)).toEqual({ deadline_ms: NOW - 90_000, overdue_ms: 90_000 });
  });

  it("turn an assignment past its bind deadline from 'clears by itself' into overdue by how long", () => {
    const before = heldBy(NOW + 30_000, "assigned");
    expect(before).toMatchObject({ retryable: true });
    expect(before.overdue).toBeUndefined();

    const after = heldBy(NOW - 2_280_000, "assigned"); // 38 min past its deadline
    expect(after).toMatchObject({
      retryable: false,
      overdue: { deadline_ms: NOW - 2_280_000, overdue_ms: 2_280_000 },
      detail: { unit_id: "u-1", bind_deadline_ms: NOW - 2_280_000, overdue_ms: 2_280_000 },
    });
    expect(after.message).toContain("overdue by 38m 00s");
    expect(after.message).not.toContain("clears by itself");

    // a bound assignment is past binding: its deadline was kept, nothing is overdue
    expect(heldBy(NOW - 2_280_000, "bound").overdue).toBeUndefined();
  });
});
