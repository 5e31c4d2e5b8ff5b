// `scheduler-console forecasts` and the forecasts of `why` in words (./forecasts.ts,
// ./forecast-lines.ts): each world named, the acting one first, the server's basis as given,
// an overdue forecast said to be overdue.
import { describe, expect, it } from "vitest";
import type { CalibrationResponse } from "../schema/api/forecasts";
import type { DemandOne } from "../client/api-types";
import { forecastLines } from "./forecast-lines";
import { forecastsText } from "./forecasts";

const NO_WHAT_IF: CalibrationResponse["worlds"]["legacy"]["what_if"] = {
  made: 0,
  resolved: 0,
  within: 0,
  early: 0,
  late: 0,
  open: 0,
  withdrawn: 0,
  lost: 0,
  coverage: null,
};
const score = (made: number, within: number, late: number, what_if = NO_WHAT_IF) => ({
  made,
  resolved: within + late,
  within,
  early: 0,
  late,
  open: made - within - late,
  withdrawn: 0,
  lost: 0,
  coverage: within / (within + late),
  median_width_ms: 34_000,
  median_error_ms: 5_000,
  median_wait_ms: 418_000,
  calibrated: within + late,
  reliability: [
    { level: 0.5, coverage: 0.52, resolved: 10 },
    { level: 0.8, coverage: 0.81, resolved: 10 },
  ],
  what_if,
});

describe("forecasts in words", () => {
  it("says each world's score over the window", () => {
    const r: CalibrationResponse = {
      revision: 42,
      now_ms: 1_700_003_600_000,
      from_ms: 1_700_000_000_000,
      to_ms: 1_700_003_600_000,
      level: 0.8,
      worlds: {
        legacy: score(100, 72, 8),
        planner: score(10, 1, 1, {
          ...NO_WHAT_IF,
          made: 50,
          resolved: 4,
          within: 1,
          late: 3,
          withdrawn: 40,
          open: 6,
          coverage: 0.25,
        }),
      },
      chunks: { read: 60, unreadable: 0 },
      gaps: [{ from_ms: 1_700_001_000_000, to_ms: 1_700_001_060_000, reason: "no_sampler" }],
    };
    expect(forecastsText(r).split("\n")).toEqual([
      "Forecasts made 2023-11-14 22:13:20Z – 2023-11-14 23:13:20Z (revision 42), as they came out by then:",
      "  legacy queue: 100 forecasts made, 80 resolved (72 within, 0 early, 8 late); 20 open, 0 withdrawn, 0 lost",
      "    coverage 90.0 % of resolved at the stated 80 %; median width 34s, median error 5s, median realised wait 6m 58s; 80 resolved were calibrated",
      "    reliability (stated → observed): 50 % → 52.0 % (10), 80 % → 81.0 % (10)",
      "  planner: 10 forecasts made, 2 resolved (1 within, 0 early, 1 late); 8 open, 0 withdrawn, 0 lost",
      "    coverage 50.0 % of resolved at the stated 80 %; median width 34s, median error 5s, median realised wait 6m 58s; 2 resolved were calibrated",
      "    reliability (stated → observed): 50 % → 52.0 % (10), 80 % → 81.0 % (10)",
      "    what-ifs (made while the other world acted; not counted above): 50 made, 4 resolved (1 within, 0 early, 3 late); 6 open, 40 withdrawn, 0 lost; coverage 25.0 %",
      "  journal gaps (forecasts open across one are lost): 2023-11-14 22:30:00Z – 2023-11-14 22:31:00Z (no sampler)",
    ]);
  });

  it("names the acting world first and the other as a what-if, with the overdue promise", () => {
    const forecasts: DemandOne["table"]["forecasts"] = [
      {
        world: "legacy",
        acting: true,
        position: { kind: "merge_wal", rank: 12, of: 340 },
        eta: { low_ms: 80_000, high_ms: 125_000, level: 0.8, basis: "B1" },
        basis: "B1",
        basis_code: "estimate",
        kind: "merge_wal",
        point_ms: 100_000,
        calibration: { resolved: 400, needed: 30, calibrated: true },
        at_ms: null,
        overdue: {
          made_ms: 1_700_000_000_000,
          low_ms: 60_000,
          high_ms: 90_000,
          level: 0.8,
          deadline_ms: 1_700_000_090_000,
          overdue_ms: 1_020_000,
        },
      },
      {
        world: "planner",
        acting: false,
        position: null,
        eta: null,
        basis: "B2",
        basis_code: "not_in_line",
        kind: "merge_wal",
        point_ms: null,
        calibration: null,
        at_ms: null,
        overdue: null,
      },
    ];
    expect(forecastLines(forecasts)).toEqual([
      "When:",
      "  Legacy queue (acts on it now): place 12 of 340 queued merge_wal tasks; its turn may come: in 1m 20s – 2m 05s (80 %)",
      "     B1",
      "     The forecast made at 2023-11-14 22:13:20Z said 1m 00s – 1m 30s: overdue by 17m 00s.",
      "  Planner (if the planner ran this table): place not in line; its turn may come: unknown",
      "     B2",
    ]);
  });
});
