// Hand-written validator for the hot path: `demand-events/` holds ~27,000 records read on
// every refresh, and zod's generic record walk costs ~10× JSON.parse there. It accepts and
// rejects exactly what DemandEventSchema does (property test in demand.test.ts) and
// returns the same output shape; the zod schema stays the reference and the source of the type.
import type { DemandEvent } from "./demand-event";
import { SealedTimes } from "./sealed-times";

const SOURCES: Record<string, true> = { writer: true, executor: true, scan: true };

const isU64 = (n: unknown): n is number => typeof n === "number" && Number.isInteger(n) && n >= 0;
const isI64 = (n: unknown): n is number => typeof n === "number" && Number.isInteger(n);

function isDecimal(k: string): boolean {
  const n = k.length;
  if (n === 0) return false;
  for (let i = 0; i < n; i++) {
    const c = k.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/**
 * Validate a parsed JSON object as a DemandEvent, in place (defaults filled, `sealed_times`
 * replaced by its compact `SealedTimes`; the object is reused as the result). Returns a
 * one-line error (`path: message`) or the event.
 */
export function validateDemandEvent(body: Record<string, unknown>): DemandEvent | string {
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
    const map = times as Record<string, unknown>;
    const generations = Object.keys(map);
    for (let i = 0; i < generations.length; i++) {
      const k = generations[i];
      if (!isDecimal(k)) return `sealed_times.${k}: generation keys must be decimal strings`;
      if (!isI64(map[k])) return `sealed_times.${k}: expected an integer`;
    }
    body.sealed_times = SealedTimes.fromRecord(map as Record<string, number>);
  }
  return body as unknown as DemandEvent;
}
