// What the soak's records say against the "Done when" (bench/soak.ts): each a figure
// and whether it holds, from the 5-minute records after the warm-up.
import { SHOULD_FALL, trendPerDay } from "../lib/planner/takeover/canary";

export interface SoakRecord {
  minute: number;
  /** the console's resident memory, averaged over the 5 minutes before this record */
  rss_mib: number;
  /** V8's heap in use just after the console's last major GC (its live set) */
  heap_live_mib: number;
  /** at this record: V8's heap (allocated, in use) and the memory outside it that V8 knows of (buffers) */
  memory_mib: { heap_total: number; heap_used: number; external: number };
  etcd_db_mib: number;
  etcd_db_in_use_mib: number;
  /** averages over the 5 minutes before this record (sampled every 30 s) */
  tables_with_pending: number;
  lines: Record<string, number>;
  legacy_queue: number;
  five_xx: number;
  requests: number;
  journal_gaps: { from_ms: number; to_ms: number; reason: string }[];
  /** the shadow comparison's outcome counts, averaged over the 5 minutes */
  outcomes: Record<string, number>;
  /** the canary report (1 h window) read at this record */
  canary: {
    outcomes: Record<
      string,
      { mean: number | null; first: number | null; last: number | null; trend_per_day: number | null }
    >;
    rising: string[];
  } | null;
  /** the 30-s samples since the record before of the outcomes that should fall, outside the `incident/…` tables */
  outside_incidents: { at_ms: number; minute: number; discovery_miss: number; phantom_task: number }[];
  load_average: number[];
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

/** Least-squares slope of (x, y). */
export function slope(points: { x: number; y: number }[]): number {
  const mx = mean(points.map((p) => p.x));
  const my = mean(points.map((p) => p.y));
  let num = 0;
  let den = 0;
  for (const p of points) {
    num += (p.x - mx) * (p.y - my);
    den += (p.x - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

/** Each 5-minute average's distance from the mean of them all, at most (%). */
function spread(values: number[]): { mean: number; max_deviation_pct: number } {
  const m = mean(values);
  const worst = Math.max(0, ...values.map((v) => Math.abs(v - m)));
  return { mean: Math.round(m * 10) / 10, max_deviation_pct: m === 0 ? 0 : Math.round((worst / m) * 1000) / 10 };
}

export function verdicts(records: SoakRecord[], warmupMinutes: number, quotaMib: number) {
  const after = records.filter((r) => r.minute > warmupMinutes);
  const last = records.at(-1)!;
  const kinds = [...new Set(after.flatMap((r) => Object.keys(r.lines)))];
  const stationary = {
    tables_with_pending: spread(after.map((r) => r.tables_with_pending)),
    legacy_queue: spread(after.map((r) => r.legacy_queue)),
    ...Object.fromEntries(kinds.map((k) => [`line_${k}`, spread(after.map((r) => r.lines[k] ?? 0))])),
  };
  const dbSlope = slope(after.map((r) => ({ x: r.minute / 60, y: r.etcd_db_mib })));
  const db24h = last.etcd_db_mib + Math.max(0, dbSlope) * Math.max(0, 24 - last.minute / 60);
  const rssSlope = slope(after.map((r) => ({ x: r.minute / 60, y: r.rss_mib })));
  const rssBase = after[0]?.rss_mib ?? last.rss_mib;
  const lastHalfHour = records.filter((r) => r.minute >= last.minute - 30 && r.canary);
  const canaryRising = lastHalfHour.filter((r) => (r.canary?.rising.length ?? 0) > 0);
  // the canary's own rule (lib/planner/takeover/canary.ts: trend up and last above first) on
  // the same outcomes counted outside the incidents over the last 30 minutes: a warning they
  // do not explain is the seeded incidents' own
  const recent = records.flatMap((r) => r.outside_incidents).filter((s) => s.minute >= last.minute - 30);
  const risesOutside = SHOULD_FALL.filter((o) => {
    const points = recent.map((s) => ({ t: s.at_ms, y: s[o] }));
    const trend = trendPerDay(points);
    return trend !== null && trend > 0 && points.at(-1)!.y > points[0].y;
  });
  const risingNotIncidents = canaryRising.filter((r) =>
    r.canary!.rising.some((o) => risesOutside.includes(o as never)),
  );
  const gaps = last.journal_gaps;
  return {
    five_xx: { count: last.five_xx, of_requests: last.requests, holds: last.five_xx === 0 },
    journal_gaps: { count: gaps.length, reasons: gaps.map((g) => g.reason), holds: gaps.length === 0 },
    stationary: {
      ...stationary,
      holds: Object.values(stationary).every((s) => s.max_deviation_pct <= 20),
    },
    etcd: {
      db_mib_now: last.etcd_db_mib,
      growth_mib_per_hour: Math.round(dbSlope * 10) / 10,
      projected_24h_mib: Math.round(db24h),
      quota_mib: quotaMib,
      holds: db24h < quotaMib / 2,
    },
    rss: {
      mib_after_warmup: rssBase,
      mib_now: last.rss_mib,
      growth_pct_per_hour: Math.round((rssSlope / rssBase) * 1000) / 10,
      live_heap_mib: after.map((r) => r.heap_live_mib),
      live_heap_growth_mib_per_hour:
        Math.round(slope(after.map((r) => ({ x: r.minute / 60, y: r.heap_live_mib }))) * 10) / 10,
      holds: rssSlope / rssBase <= 0.1,
    },
    canary_last_30_min: {
      records: lastHalfHour.length,
      with_rising_warning: canaryRising.map((r) => ({ minute: r.minute, rising: r.canary!.rising })),
      outside_incidents_max: {
        discovery_miss: Math.max(0, ...recent.map((s) => s.discovery_miss)),
        phantom_task: Math.max(0, ...recent.map((s) => s.phantom_task)),
      },
      rising_outside_incidents: risesOutside,
      holds: risingNotIncidents.length === 0,
    },
  };
}
