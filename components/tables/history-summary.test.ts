// The history chart's summary sentence (./history-summary.ts): a verdict held for a minute
// or more is dated to the minute; brief ones in a row read as one sentence saying what the
// table flapped between, how often and over what stretch; a lone brief one is dated to the
// second. Never "from 07:10 to 07:10".
import { describe, expect, it } from "vitest";
import type { HistoryPoint, HistoryResponse } from "@/lib/schema/api/history";
import { historySummary } from "./history-summary";

const T0 = Date.UTC(2026, 11, 2, 7, 0, 0);
const at = (min: number, sec = 0) => T0 + min * 60_000 + sec * 1000;

type V = "placed" | "running" | "cycle" | "slot";
const VERDICTS: Record<V, HistoryPoint["verdict"]> = {
  placed: { state: "would_place", code: null },
  running: { state: "would_skip", code: "already_running" },
  cycle: { state: "would_skip", code: "cycle_limit" },
  slot: { state: "would_skip", code: "no_free_slot" },
};

function history(points: [number, V][], toMs = at(60)): HistoryResponse {
  return {
    target: "db/t",
    from_ms: T0,
    to_ms: toMs,
    from_revision: 1,
    to_revision: 99,
    points: points.map(([ms, v], i) => ({
      revision: i + 2,
      at_ms: ms,
      error_ms: 0,
      pending_generations: 9,
      wait_ms: 0,
      class: "normal",
      score: 1,
      verdict: VERDICTS[v],
      executor: v === "placed" ? "w1" : null,
      now_ms: ms,
      basis: "journal",
      journal: null,
      moved_by: null,
    })),
    compacted_before: null,
    history_starts: null,
    verdict_basis: "journal",
    fleet_plan_points: 0,
    time_in_state: [],
  };
}

describe("historySummary", () => {
  it("dates verdicts held a minute or more to the minute, the last one to now or to the pin", () => {
    const h = history([
      [at(10), "slot"],
      [at(40), "placed"],
    ]);
    expect(historySummary(h)).toBe("No free slot from 07:10 to 07:40, then placed from 07:40.");
    expect(historySummary(history([[at(10), "slot"]]), true)).toBe("No free slot from 07:10 to 08:00.");
    expect(historySummary(history([[at(10), "slot"]]))).toBe("No free slot from 07:10 to now.");
    // a pinned window of seconds (a fleet a minute old) is dated to the second, never "from 13:20 to 13:20"
    expect(historySummary(history([[at(10, 5), "placed"]], at(10, 50)), true)).toBe(
      "Placed from 07:10:05 to 07:10:50.",
    );
  });

  it("says a flapping stretch once: between what, how many times, from when to when", () => {
    const flaps: [number, V][] = [];
    for (let i = 0; i < 14; i++) flaps.push([at(10, 17 * i), i % 2 === 0 ? "placed" : "running"]);
    const h = history([[at(2), "cycle"], ...flaps, [at(14, 0), "running"], [at(20), "placed"]]);
    // the 14th flip (running at 07:13:41) runs on to 07:14 and is merged with the steady run that follows
    expect(historySummary(h)).toBe(
      "Next cycle from 07:02 to 07:10, alternated between placed and already running 13 times from 07:10 to 07:13, " +
        "already running from 07:13 to 07:20, then placed from 07:20.",
    );
    expect(historySummary(h)).not.toMatch(/from (\d\d:\d\d) to \1\b/);
  });

  it("dates a lone brief verdict, and a flapping stretch inside one minute, to the second", () => {
    const lone = history([
      [at(10), "slot"],
      [at(30, 5), "running"],
      [at(30, 40), "slot"],
    ]);
    expect(historySummary(lone)).toBe(
      "No free slot from 07:10 to 07:30, already running from 07:30:05 to 07:30:40, then no free slot from 07:30:40.",
    );
    const inOneMinute = history([
      [at(10), "slot"],
      [at(30, 5), "running"],
      [at(30, 20), "placed"],
      [at(30, 30), "cycle"],
      [at(30, 50), "slot"],
    ]);
    expect(historySummary(inOneMinute)).toBe(
      "No free slot from 07:10 to 07:30, changed between already running, placed and next cycle 3 times from 07:30:05 to 07:30:50, " +
        "then no free slot from 07:30:50.",
    );
  });
});
