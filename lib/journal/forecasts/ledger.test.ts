// Resolving forecasts from journal chunks, checked against cases worked by hand (console-api.md
// "Forecasts …": within, early, late, open; a premise gone is withdrawn; a gap loses what was
// open) — each chunk through the stored form first (./codec.ts), as a reader gets it.
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { conformalBounds, intervalOf, nonconformity } from "@/lib/planner/forecast/conformal";
import { boundsOf, calibrationKey, horizonKey, scoresOf } from "@/lib/planner/forecast/calibration";
import { decodeForecastChunk, encodeForecastChunk, ForecastDecodeError } from "./codec";
import { fateOf } from "./fate";
import { ForecastLedger } from "./ledger";
import { ForecastLog } from "./log";
import type { ForecastChunk, ForecastOutcome, SampledForecast } from "./records";
import { worldScores } from "./report";

const f = (
  target: string,
  world: "legacy" | "planner",
  made: number,
  point: number,
  low: number,
  high: number,
  calibrated = false,
  acting = true,
): SampledForecast => ({
  target,
  world,
  kind: "merge_wal",
  made_ms: made,
  point_ms: point,
  low_ms: low,
  high_ms: high,
  level: 0.8,
  rank: 3,
  of: 9,
  calibrated,
  acting,
});
const turn = (target: string, world: "legacy" | "planner", at: number): ForecastOutcome => ({
  target,
  world,
  what: "turn",
  kind: world === "legacy" ? "merge_wal" : null,
  at_ms: at,
});
const withdrawn = (target: string, world: "legacy" | "planner", at: number): ForecastOutcome => ({
  ...turn(target, world, at),
  what: "withdrawn",
});

/** The fates of CHUNKS' legacy forecasts at 120 s, worked by hand (see "within, early, late, withdrawn and open"). */
const CHUNKS_LEGACY_FATES = {
  made: 3,
  resolved: 2,
  within: 1,
  early: 1,
  late: 0,
  open: 1,
  withdrawn: 0,
  lost: 0,
  coverage: 0.5,
};

/** Each chunk as the journal stores it and reads it back. */
const stored = (c: ForecastChunk) => decodeForecastChunk(encodeForecastChunk(c));

const CHUNKS: ForecastChunk[] = [
  {
    kind: "after_no_sampler",
    from_ms: 0,
    to_ms: 60_000,
    evaluations: [
      {
        now_ms: 0,
        outcomes: [],
        forecasts: [
          f("a", "legacy", 0, 100_000, 50_000, 150_000),
          f("b", "legacy", 0, 20_000, 10_000, 30_000),
          f("c", "planner", 0, 60_000, 30_000, 90_000),
          f("d", "planner", 0, 10_000, 0, 20_000),
        ],
      },
    ],
  },
  {
    kind: "delta",
    from_ms: 60_000,
    to_ms: 120_000,
    evaluations: [
      {
        now_ms: 70_000,
        // a's task started at 65 s (its started_at, before this evaluation saw it); b's at 5 s
        outcomes: [turn("a", "legacy", 65_000), turn("b", "legacy", 5_000), withdrawn("c", "planner", 70_000)],
        forecasts: [f("e", "legacy", 70_000, 40_000, 20_000, 100_000), f("d", "planner", 70_000, 10_000, 0, 20_000)],
      },
      { now_ms: 100_000, outcomes: [turn("d", "planner", 100_000)], forecasts: [] },
    ],
  },
];

describe("forecasts resolved from the journal's chunks", () => {
  it("round-trip through the stored form, and a chunk that is not one is refused whole", () => {
    for (const c of CHUNKS) expect(stored(c)).toEqual(c);
    expect(() => decodeForecastChunk(gzipSync(JSON.stringify({ v: 2 })))).toThrow(ForecastDecodeError);
    expect(() =>
      decodeForecastChunk(gzipSync(JSON.stringify({ v: 3, k: "d", f: 0, t: 1, l: 0.8, s: [], e: [] }))),
    ).toThrow(ForecastDecodeError);
    const actingFlag = gzipSync(
      JSON.stringify({
        v: 2,
        k: "d",
        f: 0,
        t: 1,
        l: 0.8,
        s: ["a", "merge_wal"],
        e: [[0, [], [[0, 0, 1, 5, 1, 9, 1, 2, 0, null, 7]]]],
      }),
    );
    expect(() => decodeForecastChunk(actingFlag)).toThrow(ForecastDecodeError);
    expect(() => decodeForecastChunk(Buffer.from("not gzip"))).toThrow(ForecastDecodeError);
    const bad = gzipSync(JSON.stringify({ v: 1, k: "d", f: 0, t: 1, l: 0.8, s: [], e: [[0, [[5, 0, 0, -1, 0]], []]] }));
    expect(() => decodeForecastChunk(bad)).toThrow(ForecastDecodeError);
  });

  it("reads version 1 (no acting flag, the level only where it differs) as acting forecasts", () => {
    const v1 = {
      v: 1,
      k: "d",
      f: 0,
      t: 60_000,
      l: 0.8,
      s: ["a", "merge_wal", "b"],
      e: [
        [
          0,
          [[2, 1, 1, -1, 0]],
          [
            [0, 0, 1, 100_000, 50_000, 150_000, 3, 9, 1],
            [2, 1, 1, 10_000, 0, 20_000, 1, 4, 0, 0.5],
          ],
        ],
      ],
    };
    expect(decodeForecastChunk(gzipSync(JSON.stringify(v1)))).toEqual({
      kind: "delta",
      from_ms: 0,
      to_ms: 60_000,
      evaluations: [
        {
          now_ms: 0,
          outcomes: [withdrawn("b", "planner", 0)],
          forecasts: [
            f("a", "legacy", 0, 100_000, 50_000, 150_000, true),
            { ...f("b", "planner", 0, 10_000, 0, 20_000), level: 0.5, rank: 1, of: 4 },
          ],
        },
      ],
    });
  });

  it("scores and calibrates a world on its acting forecasts; its what-ifs are counted apart and set nothing", () => {
    const whatIf = (x: SampledForecast) => ({ ...x, target: `${x.target}-if`, acting: false });
    // the same forecasts and outcomes again under other tables' names, as what-ifs
    const doubled = CHUNKS.map((c) => ({
      ...c,
      evaluations: c.evaluations.map((ev) => ({
        ...ev,
        outcomes: [...ev.outcomes, ...ev.outcomes.map((o) => ({ ...o, target: `${o.target}-if` }))],
        forecasts: [...ev.forecasts, ...ev.forecasts.map(whatIf)],
      })),
    }));
    const plain = new ForecastLedger({ keepFromMs: 0 });
    const both = new ForecastLedger({ keepFromMs: 0 });
    for (const c of CHUNKS) plain.add(stored(c));
    for (const c of doubled) both.add(stored(c));
    expect(both.kept.filter((r) => !r.f.acting)).toHaveLength(6);
    // the what-ifs calibrate nothing: the same scores as without them
    expect(both.calibration()).toEqual(plain.calibration());
    // nor score the world: the acting figures are those without them, the what-ifs' fates apart
    const s = worldScores(both.kept, 0, 120_000);
    const p = worldScores(plain.kept, 0, 120_000);
    expect({ ...s.legacy, what_if: null }).toEqual({ ...p.legacy, what_if: null });
    expect({ ...s.planner, what_if: null }).toEqual({ ...p.planner, what_if: null });
    // the what-ifs' fates are the acting ones' they copy (CHUNKS' legacy forecasts)
    expect(s.legacy.what_if).toEqual(CHUNKS_LEGACY_FATES);
    expect(s.planner.what_if).toMatchObject({ made: 3, resolved: 2, late: 2, withdrawn: 1, coverage: 0 });
    expect(p.planner.what_if).toMatchObject({ made: 0, resolved: 0, coverage: null });
  });

  it("within, early, late, withdrawn and open, worked by hand", () => {
    const ledger = new ForecastLedger({ keepFromMs: 0 });
    for (const c of CHUNKS) ledger.add(stored(c));
    const fates = ledger.kept.map((r) => [r.f.target, r.f.world, r.f.made_ms, fateOf(r, 120_000)]);
    expect(fates).toEqual([
      ["a", "legacy", 0, "within"], // waited 65 s, in [50 s, 150 s]
      ["b", "legacy", 0, "early"], // started 5 s after: before its 10 s low
      ["c", "planner", 0, "withdrawn"], // left the line at 70 s, inside its interval
      ["d", "planner", 0, "late"], // placed at 100 s: 100 s > 20 s
      ["e", "legacy", 70_000, "open"], // its interval runs to 170 s
      ["d", "planner", 70_000, "late"], // placed 30 s after, its interval [0, 20 s]
    ]);
    // the first d: its interval ended at 20 s, so at 15 s it was open, at 21 s late already
    expect(fateOf(ledger.kept[3], 15_000)).toBe("open");
    expect(fateOf(ledger.kept[3], 21_000)).toBe("late");
  });

  it("counts each world's score, the open ones apart", () => {
    const ledger = new ForecastLedger({ keepFromMs: 0 });
    for (const c of CHUNKS) ledger.add(stored(c));
    const s = worldScores(ledger.kept, 0, 120_000);
    expect(s.legacy).toMatchObject({
      ...CHUNKS_LEGACY_FATES,
      median_width_ms: 20_000, // widths 100 s and 20 s: the lower middle
      median_error_ms: 15_000, // |65 − 100| = 35 s, |5 − 20| = 15 s
      median_wait_ms: 5_000,
    });
    expect(s.planner).toMatchObject({ made: 3, resolved: 2, within: 0, late: 2, withdrawn: 1, coverage: 0 });
    expect(s.planner.median_wait_ms).toBe(30_000); // 100 s and 30 s
  });

  it("loses what was open across a gap, unless its interval had ended before it", () => {
    const ledger = new ForecastLedger({ keepFromMs: 0 });
    for (const c of CHUNKS) ledger.add(stored(c));
    ledger.add(
      stored({
        kind: "after_etcd_unavailable",
        from_ms: 300_000,
        to_ms: 360_000,
        evaluations: [{ now_ms: 300_000, outcomes: [turn("e", "legacy", 290_000)], forecasts: [] }],
      }),
    );
    const e = ledger.kept.find((r) => r.f.target === "e")!;
    expect(fateOf(e, 360_000)).toBe("lost"); // open at the gap's start (120 s < its end 170 s); the later turn is not its
    const g = new ForecastLedger({ keepFromMs: 0 });
    g.add(stored(CHUNKS[0]));
    g.add(stored({ kind: "after_no_sampler", from_ms: 200_000, to_ms: 260_000, evaluations: [] }));
    // b's interval ended at 30 s, before the gap at 60 s: it was late, not lost
    expect(g.kept.map((r) => [r.f.target, fateOf(r, 260_000)])).toEqual([
      ["a", "lost"],
      ["b", "late"],
      ["c", "lost"],
      ["d", "late"],
    ]);
  });

  it("calibrates from the forecasts whose wait is known: the outcome came, or late by the time waited", () => {
    const ledger = new ForecastLedger();
    for (const c of CHUNKS) ledger.add(stored(c));
    // at 120 s: legacy a (waited 65 s) and b (5 s); e (made at 70 s, its interval runs to 170 s) is open
    expect([...ledger.calibration().get(calibrationKey("legacy", "merge_wal"))!]).toEqual(
      [nonconformity(5_000, 20_000), nonconformity(65_000, 100_000)].sort((x, y) => x - y),
    );
    // planner: d at 0 (ended 20 s, placed at 100 s: waited 100 s) and d at 70 s (ended 90 s,
    // waited 30 s); c was withdrawn before its interval ended: left out
    expect([...ledger.calibration().get(calibrationKey("planner", "merge_wal"))!]).toEqual(
      [nonconformity(100_000, 10_000), nonconformity(30_000, 10_000)].sort((x, y) => x - y),
    );
    // a later chunk with nothing new: e, still without its turn at 200 s (its interval ended at
    // 170 s), counts by the 130 s it has waited, a lower bound
    ledger.add(stored({ kind: "delta", from_ms: 120_000, to_ms: 200_000, evaluations: [] }));
    expect([...ledger.calibration().get(calibrationKey("legacy", "merge_wal"))!]).toEqual(
      [nonconformity(5_000, 20_000), nonconformity(65_000, 100_000), nonconformity(130_000, 40_000)].sort(
        (x, y) => x - y,
      ),
    );
    expect(ledger.openFor("legacy", "e").map((r) => r.f.made_ms)).toEqual([70_000]);
  });

  it("calibrates from at most CALIBRATION_PER_MINUTE of a minute's forecasts, evenly spaced in the order made", () => {
    // 90 forecasts in one minute (rank order: the short waits first), each resolved at its point × (1 + i/100)
    const forecasts = Array.from({ length: 90 }, (_, i) => f(`t${i}`, "legacy", 0, 10_000 * (i + 1), 0, 10_000_000));
    const outcomes = forecasts.map((x, i) => turn(x.target, "legacy", Math.round(x.point_ms * (1 + i / 100))));
    const ledger = new ForecastLedger();
    ledger.add(
      stored({ kind: "after_no_sampler", from_ms: 0, to_ms: 1, evaluations: [{ now_ms: 0, outcomes: [], forecasts }] }),
    );
    ledger.add(
      stored({
        kind: "delta",
        from_ms: 1,
        to_ms: 20_000_000,
        evaluations: [{ now_ms: 19_000_000, outcomes, forecasts: [] }],
      }),
    );
    const picked = [
      0, 3, 6, 9, 12, 15, 18, 21, 24, 27, 30, 33, 36, 39, 42, 45, 48, 51, 54, 57, 60, 63, 66, 69, 72, 75, 78, 81, 84,
      87,
    ];
    expect([...ledger.calibration().get(calibrationKey("legacy", "merge_wal"))!]).toEqual(
      picked
        .map((i) => nonconformity(Math.round(10_000 * (i + 1) * (1 + i / 100)), 10_000 * (i + 1)))
        .sort((x, y) => x - y),
    );
  });

  it("calibrates each horizon apart once it has 30 scores, and a horizon with fewer from its world and kind's", () => {
    // 40 turns due within a cycle (20 s) that came on time, 40 due in 90 s that came at 300 s;
    // 20 made a minute, each minute's under CALIBRATION_PER_MINUTE
    const made = (i: number) => Math.floor(i / 20) * 60_000;
    const near = Array.from({ length: 40 }, (_, i) => f(`n${i}`, "planner", made(i), 20_000, 0, 10_000_000));
    const far = Array.from({ length: 40 }, (_, i) => f(`f${i}`, "planner", made(i) + 1, 90_000, 0, 10_000_000));
    const ledger = new ForecastLedger();
    ledger.add(
      stored({
        kind: "after_no_sampler",
        from_ms: 0,
        to_ms: 120_000,
        evaluations: [0, 1, 60_000, 60_001].map((now) => ({
          now_ms: now,
          outcomes: [],
          forecasts: [...near, ...far].filter((x) => x.made_ms === now),
        })),
      }),
    );
    ledger.add(
      stored({
        kind: "delta",
        from_ms: 120_000,
        to_ms: 1_000_000,
        evaluations: [
          {
            now_ms: 900_000,
            outcomes: [
              ...near.map((x) => turn(x.target, "planner", x.made_ms + 20_000)),
              ...far.map((x) => turn(x.target, "planner", x.made_ms + 300_000)),
            ],
            forecasts: [],
          },
        ],
      }),
    );
    const cal = ledger.calibration();
    const farScore = nonconformity(300_000, 90_000);
    expect([...cal.get(horizonKey("planner", "merge_wal", 20_000)!)!]).toEqual(Array(40).fill(0));
    expect([...cal.get(horizonKey("planner", "merge_wal", 90_000)!)!]).toEqual(Array(40).fill(farScore));
    // the legacy world's waits are a queue's: not split by horizon, central ranks
    expect(horizonKey("legacy", "merge_wal", 20_000)).toBeNull();
    expect(boundsOf("legacy", [...Array(40).keys()], 0.8)).toEqual(conformalBounds([...Array(40).keys()], 0.8));
    // pooled: 30 of each minute's 40 (CALIBRATION_PER_MINUTE), a horizon's 20 a minute all
    expect(cal.get(calibrationKey("planner", "merge_wal"))).toHaveLength(60);
    // a turn due within a cycle: its own horizon's errors, the interval as narrow as they were
    const nearScores = scoresOf(cal, "planner", "merge_wal", 25_000);
    expect(nearScores).toHaveLength(40);
    expect(intervalOf(25_000, boundsOf("planner", nearScores, 0.8)!)).toEqual({ low_ms: 25_000, high_ms: 25_000 });
    // pooled, the near turns' interval would reach the far ones' errors
    const pooled = boundsOf("planner", cal.get(calibrationKey("planner", "merge_wal"))!, 0.8)!;
    expect(intervalOf(25_000, pooled).high_ms).toBeGreaterThan(90_000);
    // an hour out: no forecast of that horizon yet, its world and kind's
    expect(scoresOf(cal, "planner", "merge_wal", 3_600_001)).toBe(cal.get(calibrationKey("planner", "merge_wal")));
    // a forecast made now keeps the bounds of the scores its interval was set from
    ledger.add(
      stored({
        kind: "delta",
        from_ms: 1_000_000,
        to_ms: 1_060_000,
        evaluations: [
          { now_ms: 1_000_000, outcomes: [], forecasts: [f("later", "planner", 1_000_000, 25_000, 25_000, 25_000)] },
        ],
      }),
    );
    const later = ledger.openFor("planner", "later")[0];
    expect(later.bounds![3]).toEqual(boundsOf("planner", nearScores, 0.8));
  });

  it("hands out one chunk per drain, the first of a term and the first after a lost write marked with the gap", () => {
    const log = new ForecastLog();
    expect(log.drain()).toBeNull();
    log.observe({ now_ms: 1_000, outcomes: [], forecasts: [f("a", "legacy", 1_000, 1, 0, 2)] });
    log.observe({ now_ms: 2_000, outcomes: [], forecasts: [] });
    log.observe({ now_ms: 1_500, outcomes: [turn("a", "legacy", 1_500)], forecasts: [] }); // older: ignored
    const first = log.drain()!;
    expect(first).toMatchObject({ kind: "after_no_sampler", from_ms: 1_000, to_ms: 2_000 });
    expect(first.evaluations.map((e) => e.now_ms)).toEqual([1_000]); // empty evaluations only extend the span
    log.observe({ now_ms: 3_000, outcomes: [], forecasts: [] });
    expect(log.drain()).toMatchObject({ kind: "delta", from_ms: 2_000, to_ms: 3_000, evaluations: [] });
    log.observe({ now_ms: 4_000, outcomes: [], forecasts: [] });
    log.lost("etcd_unavailable");
    log.observe({ now_ms: 5_000, outcomes: [], forecasts: [] });
    expect(log.drain()).toMatchObject({ kind: "after_etcd_unavailable", from_ms: 5_000, to_ms: 5_000 });
  });
});
