// Split-conformal intervals on the console's own past errors (console-api.md "Forecasts, per
// world, that say how often they come true": a forecast whose stated level is 0.8 contains
// the outcome about 80 % of the time). Pure.
//
// The nonconformity score of a resolved forecast is the log-ratio of the realised wait to
// the predicted one, each plus a floor: s = ln((realised + F) / (point + F)), F = 10 s. The
// log makes an error of "twice as long" weigh the same for a 1 min and a 1 h wait (waits
// span three orders of magnitude), and the floor keeps 0 s (a turn that came at once, a
// prediction of "now") finite and says that seconds near zero are not told apart (the
// journal evaluates about once a second and an outcome is dated by its record).
// Two-sided split conformal: with the n scores of a world and kind sorted, the lower bound
// is the ⌊(n+1)·α/2⌋-th and the upper the ⌈(n+1)·(1−α/2)⌉-th (α = 1 − level), so on
// exchangeable errors a new score falls below the lower or above the upper bound each with
// probability at most α/2: coverage ≥ level, and ≤ level + 2/(n+1) (conformal.test.ts).

/** F: the floor added to both waits before their ratio (ms). */
export const SCORE_FLOOR_MS = 10_000;
/** Below this many resolved forecasts of a world and kind the interval is not calibrated (it says so). */
export const MIN_CALIBRATION = 30;
/** At most this many of the latest resolved forecasts of a world and kind calibrate the next interval. */
export const MAX_CALIBRATION = 2_000;

/** The nonconformity score of a forecast whose point was `pointMs` and whose wait came out `realisedMs`. */
export function nonconformity(realisedMs: number, pointMs: number): number {
  return Math.log((Math.max(0, realisedMs) + SCORE_FLOOR_MS) / (Math.max(0, pointMs) + SCORE_FLOOR_MS));
}

export interface ScoreBounds {
  /** the lower quantile of the scores (−Infinity: none low enough, the interval starts at 0) */
  lo: number;
  /** the upper quantile (+Infinity: too few scores for this level) */
  hi: number;
  /** the scores they rest on */
  n: number;
}

/**
 * The conformal bounds at `level` from `sorted` (ascending) scores; null below
 * MIN_CALIBRATION scores (the interval is then not calibrated).
 */
export function conformalBounds(sorted: ArrayLike<number>, level: number): ScoreBounds | null {
  const n = sorted.length;
  if (n < MIN_CALIBRATION) return null;
  const half = (1 - level) / 2;
  const loRank = Math.floor((n + 1) * half + 1e-9);
  const hiRank = Math.ceil((n + 1) * (1 - half) - 1e-9);
  return {
    lo: loRank < 1 ? -Infinity : sorted[loRank - 1],
    hi: hiRank > n ? Infinity : sorted[hiRank - 1],
    n,
  };
}

/**
 * The shortest window of sorted scores that holds a new exchangeable score with probability
 * at least `level`: of the windows of k = ⌈(n+1)·level⌉ + 1 consecutive scores (a new score
 * falls strictly between the i-th and the (i+k−1)-th with probability (k−1)/(n+1) ≥ level),
 * the narrowest, the first on a tie; unbounded when k > n. Where many forecasts came true to
 * the second (a turn due at a known cycle: many scores tie at 0), the central ranks put half
 * the misses on each side and take the late misses' score for every interval; the shortest
 * window is the tied scores themselves, as narrow as the outcomes were. Chosen from the
 * scores, it covers a little less than the central ranks on a small set (at 0.8: 0.76–0.80
 * with 49 scores, 0.78–0.81 with 199; conformal.test.ts). Null below MIN_CALIBRATION scores.
 */
export function shortestBounds(sorted: ArrayLike<number>, level: number): ScoreBounds | null {
  const n = sorted.length;
  if (n < MIN_CALIBRATION) return null;
  const k = Math.ceil((n + 1) * level - 1e-9) + 1;
  if (k > n) return { lo: -Infinity, hi: Infinity, n };
  let best = 0;
  for (let i = 1; i + k - 1 < n; i++) if (sorted[i + k - 1] - sorted[i] < sorted[best + k - 1] - sorted[best]) best = i;
  return { lo: sorted[best], hi: sorted[best + k - 1], n };
}

/** Whether a realised wait falls in the interval `bounds` sets around `pointMs` (the rule the bounds were made for). */
export function covers(bounds: ScoreBounds, pointMs: number, realisedMs: number): boolean {
  const s = nonconformity(realisedMs, pointMs);
  return s >= bounds.lo && s <= bounds.hi;
}

/** The interval in milliseconds around `pointMs` (whole ms, low ≥ 0; high null when unbounded). */
export function intervalOf(pointMs: number, bounds: ScoreBounds): { low_ms: number; high_ms: number | null } {
  const base = Math.max(0, pointMs) + SCORE_FLOOR_MS;
  const low = bounds.lo === -Infinity ? 0 : Math.max(0, Math.round(base * Math.exp(bounds.lo) - SCORE_FLOOR_MS));
  const high = bounds.hi === Infinity ? null : Math.max(low, Math.round(base * Math.exp(bounds.hi) - SCORE_FLOOR_MS));
  return { low_ms: low, high_ms: high };
}

/**
 * The standard normal quantile (Acklam's rational approximation, relative error < 1.2e-9):
 * the spread of an interval that is not calibrated yet.
 */
export function normalQuantile(p: number): number {
  if (p <= 0) return -Infinity;
  if (p >= 1) return Infinity;
  const a = [
    -39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239,
  ];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [
    -0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968,
    2.938163982698783,
  ];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const tail = (q: number) =>
    (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
    ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  if (p < 0.02425) return tail(Math.sqrt(-2 * Math.log(p)));
  if (p > 1 - 0.02425) return -tail(Math.sqrt(-2 * Math.log(1 - p)));
  const q = p - 0.5;
  const r = q * q;
  return (
    ((((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q) /
    (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1)
  );
}
