// Storage-side join used by every demand publisher with read–join–compare-and-swap
// (scheduler-model.md §3.5). Pure: the CAS loop lives in lib/etcd / lib/sim.
import { parseDemandEvent, SealedTimes, stringifyDemandEvent, type DemandEvent, type Mark } from "@/lib/schema";
import { isGreaterMark, maxMark } from "./mark";

const sealedMark = (e: DemandEvent): Mark => ({ epoch: e.writer_epoch, value: e.sealed_through });
const mergedMark = (e: DemandEvent): Mark | null =>
  e.merged_through === null ? null : { epoch: e.merged_epoch ?? e.writer_epoch, value: e.merged_through };

/** The record's own `(sealed_through → flushed_at_ms)` point, for non-executor sources. */
function seedOwnTime(times: SealedTimes, e: DemandEvent): void {
  if (e.source !== "executor" && e.sealed_through > 0) times.record(e.sealed_through, e.flushed_at_ms);
}

function record(base: DemandEvent, bytes: number, merged: Mark | null, times: SealedTimes): DemandEvent {
  const out: DemandEvent = {
    v: 1,
    shard: base.shard,
    sealed_through: base.sealed_through,
    sealed_bytes_through: bytes,
    merged_through: merged === null ? null : merged.value,
    flushed_at_ms: base.flushed_at_ms,
    writer_epoch: base.writer_epoch,
    source: base.source,
    sealed_times: times,
  };
  if (merged !== null && merged.epoch !== base.writer_epoch) out.merged_epoch = merged.epoch;
  return out;
}

/**
 * `join(stored?, event)`: the new stored record, or "unchanged" (the publisher returns
 * false). Never lowers any watermark; `source`/`flushed_at_ms`/`writer_epoch` stay with
 * whoever set the sealed mark. The caller must not pass a stored record of unknown version
 * (use `joinStoredValue`, which refuses it).
 */
export function joinEvent(stored: DemandEvent | null, event: DemandEvent): DemandEvent | "unchanged" {
  if (stored === null) {
    const times = event.sealed_times?.copy() ?? SealedTimes.empty();
    seedOwnTime(times, event);
    return record(event, event.sealed_bytes_through, mergedMark(event), times.prune());
  }
  const storedSealed = sealedMark(stored);
  const eventSealed = sealedMark(event);
  const sealedWins =
    isGreaterMark(eventSealed, storedSealed) ||
    (eventSealed.value === storedSealed.value &&
      eventSealed.epoch === storedSealed.epoch &&
      event.sealed_bytes_through > stored.sealed_bytes_through);
  const storedMerged = mergedMark(stored);
  const eventMerged = mergedMark(event);
  const mergedWins = eventMerged !== null && (storedMerged === null || isGreaterMark(eventMerged, storedMerged));

  const times = stored.sealed_times?.copy() ?? SealedTimes.empty();
  if (event.sealed_times !== undefined) times.merge(event.sealed_times);
  seedOwnTime(times, stored);
  seedOwnTime(times, event);
  times.prune();
  const timesChanged = !times.equals(stored.sealed_times ?? SealedTimes.empty());

  if (!sealedWins && !mergedWins && !timesChanged) return "unchanged";
  const base = sealedWins ? event : stored;
  const bytes = Math.max(stored.sealed_bytes_through, event.sealed_bytes_through);
  return record(base, bytes, maxMark(storedMerged, eventMerged), times);
}

export type JoinOutcome =
  { kind: "put"; record: DemandEvent; value: string } | { kind: "unchanged" } | { kind: "error"; message: string };

/**
 * Join against the raw stored value (null = key absent). A stored value that is not valid
 * JSON (or not a DemandEvent) is treated as absent and overwritten; a stored unknown `v`
 * is an error and is never overwritten (§3.5).
 */
export function joinStoredValue(storedValue: string | null, event: DemandEvent): JoinOutcome {
  let stored: DemandEvent | null = null;
  if (storedValue !== null) {
    const parsed = parseDemandEvent(storedValue);
    if (parsed.ok) stored = parsed.value;
    else if (parsed.reason === "unknown_version") {
      return { kind: "error", message: `refusing to overwrite demand event: ${parsed.detail}` };
    }
  }
  const joined = joinEvent(stored, event);
  if (joined === "unchanged") return { kind: "unchanged" };
  return { kind: "put", record: joined, value: stringifyDemandEvent(joined) };
}

/** Executor publication after release (§3.5): only `merged` advances on an existing record. */
export function executorMergedEvent(shard: string, merged: number, now: number): DemandEvent {
  return {
    v: 1,
    shard,
    sealed_through: merged,
    sealed_bytes_through: 0,
    merged_through: merged,
    flushed_at_ms: now,
    writer_epoch: 0,
    source: "executor",
  };
}

/** A writer's flush (§2.1): its sealed watermark, bytes and optional per-generation times. */
export function writerEvent(input: {
  shard: string;
  sealed: number;
  bytes?: number;
  epoch: number;
  flushedAtMs: number;
  sealedTimes?: SealedTimes;
}): DemandEvent {
  const event: DemandEvent = {
    v: 1,
    shard: input.shard,
    sealed_through: input.sealed,
    sealed_bytes_through: input.bytes ?? 0,
    merged_through: null,
    flushed_at_ms: input.flushedAtMs,
    writer_epoch: input.epoch,
    source: "writer",
  };
  if (input.sealedTimes !== undefined) event.sealed_times = input.sealedTimes;
  return event;
}
