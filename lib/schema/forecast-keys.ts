// The forecasts' chunks under `P/console/forecasts/` (console-api.md "Forecasts …": the
// journal resolves forecasts; lib/journal/forecasts/codec.ts is the value). A key of their
// own beside the decision journal's `P/console/journal/`, so neither's readers see the
// other's chunks. The key names the chunk's span, kind, counts and size, so trims and
// rollups are planned from a keys-only read.
import { CHUNK_KIND_LETTER, CHUNK_LETTER_KIND, matchChunkKey, timeKey, type ChunkMeta } from "./keys";

export const forecastPrefix = (prefix: string) => `${prefix}/console/forecasts/`;

/** What a forecast chunk's key says: the journal's chunk fields (`entries`: forecasts) and its outcomes. */
export interface ForecastChunkMeta extends ChunkMeta {
  outcomes: number;
}

/** `<from>-<to>-<kind>-<forecasts>-<outcomes>-<bytes>-<writer>`: key order is time order (15-digit times). */
export function forecastChunkKey(prefix: string, meta: Omit<ForecastChunkMeta, "key">, writer: string): string {
  return `${forecastPrefix(prefix)}${timeKey(meta.from_ms)}-${timeKey(meta.to_ms)}-${CHUNK_KIND_LETTER[meta.kind]}-${meta.entries}-${meta.outcomes}-${meta.bytes}-${writer}`;
}

const TAIL = /^(\d{15})-(\d{15})-([dnu])-(\d+)-(\d+)-(\d+)-[A-Za-z0-9]+$/;

/** A forecast chunk key's fields, or null for a key that is not one. */
export function parseForecastChunkKey(prefix: string, key: string): ForecastChunkMeta | null {
  const matched = matchChunkKey(forecastPrefix(prefix), key, TAIL);
  if (!matched) return null;
  const { m, from, to } = matched;
  return {
    key,
    kind: CHUNK_LETTER_KIND.get(m[3])!,
    from_ms: from,
    to_ms: to,
    entries: Number(m[4]),
    outcomes: Number(m[5]),
    bytes: Number(m[6]),
  };
}

/** The first key of the chunks starting at `ms` or later. */
export const forecastTimeKey = (prefix: string, ms: number) =>
  `${forecastPrefix(prefix)}${timeKey(Math.max(0, Math.floor(ms)))}`;
