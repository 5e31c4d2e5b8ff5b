// What the forecast journal keeps (lib/live/forecast-journal.ts trims in the flush's txn),
// from chunk keys alone: chunks that ended before the retention horizon go, then the oldest
// while the stored bytes pass the cap. Unlike the decision journal (../coverage.ts) there are
// no segments: every chunk reads on its own (a forecast whose chunk went is simply not
// there; an outcome without its forecast matches nothing). The newest chunk always stays.
import type { ForecastChunkMeta } from "@/lib/schema/forecast-keys";

/** The first key to keep (everything before it goes), or null: nothing to trim. `metas` in key order. */
export function forecastTrim(
  metas: readonly ForecastChunkMeta[],
  nowMs: number,
  retentionMs: number,
  maxBytes: number,
) {
  let keep = 0;
  while (keep < metas.length - 1 && metas[keep].to_ms < nowMs - retentionMs) keep++;
  let bytes = metas.slice(keep).reduce((n, m) => n + m.bytes, 0);
  while (keep < metas.length - 1 && bytes > maxBytes) bytes -= metas[keep++].bytes;
  return keep > 0 ? metas[keep].key : null;
}
