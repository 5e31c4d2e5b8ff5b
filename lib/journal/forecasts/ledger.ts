// Reading the forecasts back (console-api.md "Forecasts …": "The journal resolves
// forecasts"): chunks in key order go in; out come each forecast's fate (./fate.ts) and the
// calibration the next interval is set from (lib/planner/forecast/conformal.ts): per world
// and kind, and per horizon group within them (lib/planner/forecast/calibration.ts). Pure.
//
// The calibration at a moment T is a function of the stored chunks alone: T is the newest
// chunk's `to_ms`, and the scores are those of the forecasts of each world and kind made in
// the CALIBRATION_WINDOW_MS before T whose wait is known by T: the realised wait's log-ratio
// once the outcome came, or, late without an outcome (the interval ended), the time waited
// so far (a lower bound, beyond the interval already). Withdrawn, lost and open ones are
// left out. At most CALIBRATION_PER_MINUTE of each minute's forecasts (the first made), and
// at most the newest MAX_CALIBRATION in all: the forecasts of one minute share that minute's
// rate and its error, so a set of thousands made in the same minute would say the next
// interval can be as narrow as one minute's spread; the minutes apart say how much the
// estimate's own error moves from one minute to the next. (The forecasts of the last few
// minutes that resolved already are the quick ones; their slow siblings join once late, and
// over a 6 h window that lean is small. Waiting for every interval to end instead starves a
// first calibration whose intervals are too wide.) The writer (lib/live/forecast-journal.ts) and the one-table answer
// both set their intervals from the chunks stored at the live revision (one fold per process,
// lib/scheduler/forecast-ledger.ts).
// Only a world's acting forecasts calibrate it (made while it acted on the table, records.ts
// `acting`): a what-if ("if the planner ran this table") resolves on another world's terms —
// a legacy table's planner what-if mostly withdrawn, the rest when the legacy queue merges it
// — so its errors say nothing of how the world's own forecasts miss. What-ifs are still shown,
// their interval set from the acting forecasts' scores of that world and kind.
import { RELIABILITY_LEVELS } from "@/lib/schema/forecast-codes";
import { boundsOf, calibrationKey, horizonKey, scoresKey, type Calibration } from "@/lib/planner/forecast/calibration";
import { MAX_CALIBRATION, nonconformity, type ScoreBounds } from "@/lib/planner/forecast/conformal";
import { knownWait, type ForecastRecord } from "./fate";
import type { ForecastChunk, SampledForecast } from "./records";

/** Forecasts made this long before the calibration moment calibrate the next interval. */
export const CALIBRATION_WINDOW_MS = 6 * 3_600_000;
/** At most this many forecasts made in one minute calibrate (per world and kind). */
const CALIBRATION_PER_MINUTE = 30;
/** A forecast with no outcome this long after it was made stops being looked for (it stays `late`). */
const OPEN_FOR_MS = 24 * 3_600_000;

const openKey = (world: string, target: string) => `${world}\u0000${target}`;

/**
 * The scores of `records` (in made order) whose wait is known at `atMs`: of each minute's, at
 * most CALIBRATION_PER_MINUTE, evenly spaced in the order made (the first ones of a minute
 * are the tables first in line: taking those alone would favour short waits).
 */
function minuteScores(records: readonly ForecastRecord[], atMs: number): number[] {
  const scores: number[] = [];
  let start = 0;
  while (start < records.length) {
    const minute = Math.floor(records[start].f.made_ms / 60_000);
    let end = start;
    const known: number[] = [];
    for (; end < records.length && Math.floor(records[end].f.made_ms / 60_000) === minute; end++) {
      const wait = knownWait(records[end], atMs);
      if (wait !== null) known.push(nonconformity(wait.ms, records[end].f.point_ms));
    }
    const take = Math.min(known.length, CALIBRATION_PER_MINUTE);
    for (let j = 0; j < take; j++) scores.push(known[Math.floor((j * known.length) / take)]);
    start = end;
  }
  return scores;
}

export interface LedgerOptions {
  /** keep every record made at or after this (for a report); default: only what calibration needs */
  keepFromMs?: number;
}

export class ForecastLedger {
  private readonly open = new Map<string, ForecastRecord[]>();
  /** per calibration key, the records made within the calibration window, in made order */
  private readonly recent = new Map<string, ForecastRecord[]>();
  /** records kept for a report, in made order */
  readonly kept: ForecastRecord[] = [];
  private cal: Map<string, Float64Array> = new Map();
  private bounds = new Map<string, readonly (ScoreBounds | null)[]>();
  /** the newest chunk's end (null: none yet) */
  lastToMs: number | null = null;

  constructor(private readonly opts: LedgerOptions = {}) {}

  /** One stored chunk, in key order. */
  add(chunk: ForecastChunk): void {
    if (chunk.kind !== "delta") this.gap(this.lastToMs ?? chunk.from_ms);
    for (const ev of chunk.evaluations) {
      for (const o of ev.outcomes) {
        const list = this.open.get(openKey(o.world, o.target));
        if (!list) continue;
        const left = list.filter((r) => {
          if (o.kind !== null && o.kind !== r.f.kind) return true;
          if (o.what === "turn") r.outcome = o.at_ms;
          else r.withdrawn = o.at_ms;
          return false;
        });
        if (left.length > 0) this.open.set(openKey(o.world, o.target), left);
        else this.open.delete(openKey(o.world, o.target));
      }
      for (const f of ev.forecasts) this.enter(f);
    }
    this.lastToMs = Math.max(this.lastToMs ?? chunk.to_ms, chunk.to_ms);
    this.recalibrate(this.lastToMs);
  }

  private enter(f: SampledForecast): void {
    const key = calibrationKey(f.world, f.kind);
    const group = horizonKey(f.world, f.kind, f.point_ms);
    const r: ForecastRecord = {
      f,
      end: f.made_ms + f.high_ms,
      outcome: null,
      withdrawn: null,
      lost: null,
      // the scores its interval was set from
      bounds: this.bounds.get(scoresKey(this.cal, f.world, f.kind, f.point_ms)) ?? null,
    };
    const k = openKey(f.world, f.target);
    const list = this.open.get(k);
    if (list) list.push(r);
    else this.open.set(k, [r]);
    if (this.opts.keepFromMs !== undefined && f.made_ms >= this.opts.keepFromMs) this.kept.push(r);
    if (!f.acting) return;
    for (const k of group === null ? [key] : [key, group]) {
      let recent = this.recent.get(k);
      if (!recent) this.recent.set(k, (recent = []));
      recent.push(r);
    }
  }

  /** A gap in the journal from `fromMs`: every forecast still open is lost there. */
  private gap(fromMs: number): void {
    for (const list of this.open.values()) for (const r of list) r.lost = fromMs;
    this.open.clear();
  }

  private recalibrate(atMs: number): void {
    const cal = new Map<string, Float64Array>();
    const bounds = new Map<string, readonly (ScoreBounds | null)[]>();
    for (const [key, records] of this.recent) {
      let drop = 0;
      while (drop < records.length && records[drop].f.made_ms < atMs - CALIBRATION_WINDOW_MS) drop++;
      if (drop > 0) records.splice(0, drop);
      const scores = minuteScores(records, atMs);
      if (scores.length > MAX_CALIBRATION) scores.splice(0, scores.length - MAX_CALIBRATION);
      if (records.length === 0) {
        this.recent.delete(key);
        continue;
      }
      const sorted = Float64Array.from(scores).sort();
      cal.set(key, sorted);
      const world = records[0].f.world; // a key's records are of one world
      bounds.set(
        key,
        RELIABILITY_LEVELS.map((level) => boundsOf(world, sorted, level)),
      );
    }
    this.cal = cal;
    this.bounds = bounds;
    for (const [k, list] of this.open) {
      const left = list.filter((r) => r.f.made_ms >= atMs - OPEN_FOR_MS);
      if (left.length === 0) this.open.delete(k);
      else if (left.length < list.length) this.open.set(k, left);
    }
  }

  /** The calibration at the newest chunk's end (sorted scores per world and kind). */
  calibration(): Calibration {
    return this.cal;
  }

  /** The forecasts of a table in a world that are still waiting for their outcome, oldest first. */
  openFor(world: string, target: string): readonly ForecastRecord[] {
    return this.open.get(openKey(world, target)) ?? [];
  }
}
