// Hand-written validator for the hot path: `demand-events/` holds ~27,000 records read on
// every refresh, and zod's generic record walk costs ~10× JSON.parse there. It accepts and
// rejects exactly what DemandEventSchema does (property test in demand.test.ts) and
// returns the same output shape; the zod schema stays the reference and the source of the type.
import type { DemandEvent } from "./demand";

const SOURCES: Record<string, true> = { writer: true, executor: true, scan: true };

const isU64 = (n: unknown): n is number => typeof n === "number" && Number.isInteger(n) && n >= 0;
const isI64 = (n: unknown): n is number => typeof n === "number" && Number.isInteger(n);

/** Canonical decimal (no leading zeros) → 1, other all-digit → 2, not decimal → 0. */
function generationKeyKind(k: string): 0 | 1 | 2 {
  const n = k.length;
  if (n === 0) return 0;
  for (let i = 0; i < n; i++) {
    const c = k.charCodeAt(i);
    if (c < 48 || c > 57) return 0;
  }
  return n > 1 && k.charCodeAt(0) === 48 ? 2 : 1;
}

/** Side output of `validateDemandEvent`: entries in `sealed_times` (0 when absent). */
export interface DemandEventStats {
  timesCount: number;
}

/**
 * Validate a parsed JSON object as a DemandEvent, in place (defaults filled; the object
 * is reused as the result). Returns a one-line error (`path: message`) or the event.
 * `stats.timesCount` lets the fold skip re-counting the time map (JSON.parse gives these
 * integer-keyed objects dictionary elements, where every key walk is costly).
 */
export function validateDemandEvent(body: Record<string, unknown>, stats?: DemandEventStats): DemandEvent | string {
  const v = body.v;
  if (v === undefined) body.v = 1;
  else if (!isU64(v) || v > 4_294_967_295) return "v: expected a u32";
  if (typeof body.shard !== "string") return "shard: expected string";
  if (!isU64(body.sealed_through)) return "sealed_through: expected a non-negative integer";
  const bytes = body.sealed_bytes_through;
  if (bytes === undefined) body.sealed_bytes_through = 0;
  else if (!isU64(bytes)) return "sealed_bytes_through: expected a non-negative integer";
  const merged = body.merged_through;
  if (merged === undefined) body.merged_through = null;
  else if (merged !== null && !isU64(merged)) return "merged_through: expected a non-negative integer or null";
  const mergedEpoch = body.merged_epoch;
  if (mergedEpoch !== undefined && mergedEpoch !== null && !isU64(mergedEpoch)) {
    return "merged_epoch: expected a non-negative integer or null";
  }
  if (!isI64(body.flushed_at_ms)) return "flushed_at_ms: expected an integer";
  if (!isU64(body.writer_epoch)) return "writer_epoch: expected a non-negative integer";
  if (typeof body.source !== "string" || SOURCES[body.source] !== true) {
    return 'source: expected one of "writer"|"executor"|"scan"';
  }
  const times = body.sealed_times;
  if (times !== undefined) {
    if (times === null || typeof times !== "object" || Array.isArray(times)) {
      return "sealed_times: expected an object";
    }
    let canonical = true;
    const map = times as Record<string, unknown>;
    const generations = Object.keys(map);
    for (let i = 0; i < generations.length; i++) {
      const k = generations[i];
      const kind = generationKeyKind(k);
      if (kind === 0) return `sealed_times.${k}: generation keys must be decimal strings`;
      if (kind === 2) canonical = false;
      if (!isI64(map[k])) return `sealed_times.${k}: expected an integer`;
    }
    if (stats !== undefined) stats.timesCount = generations.length;
    if (!canonical) {
      const out: Record<string, number> = {};
      let count = 0;
      for (const k of generations) {
        const g = String(Number(k));
        const t = map[k] as number;
        if (out[g] === undefined) count++;
        if (out[g] === undefined || t < out[g]) out[g] = t;
      }
      body.sealed_times = out;
      if (stats !== undefined) stats.timesCount = count;
    }
  } else if (stats !== undefined) stats.timesCount = 0;
  return body as unknown as DemandEvent;
}
