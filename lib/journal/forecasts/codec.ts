// The forecasts' stored form (./records.ts; the key is lib/schema/forecast-keys.ts): one gzip
// of a compact JSON per chunk, version 2, strings interned once per chunk:
// {v: 2, k: kind letter, f: from_ms, t: to_ms, l: level, s: strings,
//  e: [[now_ms, outcomes, forecasts]]}, an outcome [target, world, what, kind, at − now]
// (world 0 legacy / 1 planner, what 0 turn / 1 withdrawn, kind −1 for none) and a forecast
// [target, world, kind, point, low, high, rank, of, calibrated (0/1), level | null, acting (0/1)]
// (level null when it is the chunk's). Version 1 (written before the acting world was kept)
// has rows [… calibrated, level?] without `acting`: its forecasts read as acting, as they
// were scored then. A chunk that does not decode throws ForecastDecodeError; its readers
// leave it out and count it. A later version adds fields at the end of a row or a new `v`:
// versions 1 and 2 stay readable.
import { gunzipSync, gzipSync } from "node:zlib";
import { CHUNK_KIND_LETTER, CHUNK_LETTER_KIND } from "@/lib/schema/keys";
import { FORECAST_WORLDS, type ForecastWorld } from "@/lib/schema/forecast-codes";
import type { ForecastChunk, ForecastEvaluation, OutcomeWhat } from "./records";

export class ForecastDecodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ForecastDecodeError";
  }
}

type StoredOutcome = [number, 0 | 1, 0 | 1, number, number];
type StoredForecast = [number, 0 | 1, number, number, number, number, number, number, 0 | 1, number | null, 0 | 1];
/** version 1: no `acting`, the level only when it differs */
type StoredForecastV1 = [number, 0 | 1, number, number, number, number, number, number, 0 | 1, number?];

interface Stored {
  v: 1 | 2;
  k: string;
  f: number;
  t: number;
  l: number;
  s: string[];
  e: [number, StoredOutcome[], (StoredForecast | StoredForecastV1)[]][];
}

const WHATS: OutcomeWhat[] = ["turn", "withdrawn"];
const worldIndex = (w: ForecastWorld): 0 | 1 => (w === "legacy" ? 0 : 1);

export function encodeForecastChunk(chunk: ForecastChunk): Buffer {
  const strings: string[] = [];
  const index = new Map<string, number>();
  const intern = (s: string) => {
    let i = index.get(s);
    if (i === undefined) index.set(s, (i = strings.push(s) - 1));
    return i;
  };
  const level = chunk.evaluations.find((e) => e.forecasts.length > 0)?.forecasts[0].level ?? 0.8;
  const stored: Stored = {
    v: 2,
    k: CHUNK_KIND_LETTER[chunk.kind],
    f: chunk.from_ms,
    t: chunk.to_ms,
    l: level,
    s: strings,
    e: chunk.evaluations.map((ev) => [
      ev.now_ms,
      ev.outcomes.map((o): StoredOutcome => [
        intern(o.target),
        worldIndex(o.world),
        o.what === "turn" ? 0 : 1,
        o.kind === null ? -1 : intern(o.kind),
        o.at_ms - ev.now_ms,
      ]),
      ev.forecasts.map((f): StoredForecast => [
        intern(f.target),
        worldIndex(f.world),
        intern(f.kind),
        f.point_ms,
        f.low_ms,
        f.high_ms,
        f.rank,
        f.of,
        f.calibrated ? 1 : 0,
        f.level === level ? null : f.level,
        f.acting ? 1 : 0,
      ]),
    ]),
  };
  return gzipSync(JSON.stringify(stored));
}

const isInt = (n: unknown): n is number => Number.isSafeInteger(n);

export function decodeForecastChunk(bytes: Buffer): ForecastChunk {
  let stored: Stored;
  try {
    stored = JSON.parse(gunzipSync(bytes).toString("utf8")) as Stored;
  } catch (e) {
    throw new ForecastDecodeError(`not a forecast chunk: ${(e as Error).message}`);
  }
  const letter = CHUNK_LETTER_KIND.get(stored?.k);
  const kind =
    letter === "delta" || letter === "after_no_sampler" || letter === "after_etcd_unavailable" ? letter : null;
  const version = stored?.v;
  if ((version !== 1 && version !== 2) || kind === null || !Array.isArray(stored.s) || !Array.isArray(stored.e))
    throw new ForecastDecodeError("not a forecast chunk (version 1 or 2)");
  const s = stored.s;
  const str = (i: unknown): string => {
    if (!isInt(i) || typeof s[i] !== "string") throw new ForecastDecodeError(`bad string index ${String(i)}`);
    return s[i];
  };
  const world = (i: unknown): ForecastWorld => {
    if (i !== 0 && i !== 1) throw new ForecastDecodeError(`bad world ${String(i)}`);
    return FORECAST_WORLDS[i];
  };
  const flag = (b: unknown): boolean => {
    if (b !== 0 && b !== 1) throw new ForecastDecodeError(`bad flag ${String(b)}`);
    return b === 1;
  };
  const num = (n: unknown): number => {
    if (typeof n !== "number" || !Number.isFinite(n)) throw new ForecastDecodeError(`bad number ${String(n)}`);
    return n;
  };
  const evaluations = stored.e.map(([now, outcomes, forecasts]): ForecastEvaluation => {
    const now_ms = num(now);
    if (!Array.isArray(outcomes) || !Array.isArray(forecasts)) throw new ForecastDecodeError("bad evaluation");
    return {
      now_ms,
      outcomes: outcomes.map(([t, w, what, k, at]) => {
        if (what !== 0 && what !== 1) throw new ForecastDecodeError(`bad outcome ${String(what)}`);
        return {
          target: str(t),
          world: world(w),
          what: WHATS[what],
          kind: k === -1 ? null : str(k),
          at_ms: now_ms + num(at),
        };
      }),
      forecasts: forecasts.map(([t, w, k, point, low, high, rank, of, calibrated, level, acting]) => ({
        target: str(t),
        world: world(w),
        kind: str(k),
        made_ms: now_ms,
        point_ms: num(point),
        low_ms: num(low),
        high_ms: num(high),
        level: level === undefined || level === null ? num(stored.l) : num(level),
        rank: num(rank),
        of: num(of),
        calibrated: calibrated === 1,
        acting: version === 1 ? true : flag(acting),
      })),
    };
  });
  return { kind, from_ms: num(stored.f), to_ms: num(stored.t), evaluations };
}
