// In-memory fold of one DemandEvent into a TableDemand (scheduler-model.md §3.2): every
// dimension is an independent max, so the result is order-independent and idempotent.
import { SealedTimes, type DemandEvent, type ShardDemand, type TableDemand } from "@/lib/schema";

export type FoldResult = "Changed" | "NotNewer" | "UnknownVersion";

/** Event versions the fold understands (§2: absent/0 are read as 1). */
function isKnownDemandVersion(v: number): boolean {
  return v === 1 || v === 0;
}

/**
 * Fold `event` into `table` (mutates it). A caller that owns a freshly parsed event (no
 * one else holds it) passes `ownsEvent`, and a new shard adopts the event's time map
 * instead of copying it.
 */
export function foldEvent(
  table: TableDemand,
  event: DemandEvent,
  revision: number,
  now: number,
  ownsEvent = false,
): FoldResult {
  if (!isKnownDemandVersion(event.v)) return "UnknownVersion"; // step 1: no shard created
  const shards = table.shards;
  // shard ids are raw key text: never let one resolve to an Object.prototype member
  let shard = Object.hasOwn(shards, event.shard) ? shards[event.shard] : undefined;
  let changed = false;
  let added = false;
  if (shard === undefined) {
    // step 2 (creating the entry alone is not a change, as in the master's entry API)
    const given = event.sealed_times;
    const times = given === undefined ? SealedTimes.empty() : ownsEvent ? given : given.copy();
    shard = { sealed: { epoch: 0, value: 0 }, merged: null, sealed_bytes: 0, sealed_times: times };
    setShard(shards, event.shard, shard);
    if (times.size > 0) changed = added = true; // step 6, second half, into an empty map
  } else if (event.sealed_times !== undefined) {
    const merged = shard.sealed_times.merge(event.sealed_times); // step 6, second half
    changed = merged.changed;
    added = merged.added;
  }
  // step 3: sealed, by (value, epoch)
  const sealed = shard.sealed;
  if (
    event.sealed_through > sealed.value ||
    (event.sealed_through === sealed.value && event.writer_epoch > sealed.epoch)
  ) {
    sealed.epoch = event.writer_epoch; // the shard owns its marks: update in place
    sealed.value = event.sealed_through;
    changed = true;
  }
  // step 4: bytes
  if (event.sealed_bytes_through > shard.sealed_bytes) {
    shard.sealed_bytes = event.sealed_bytes_through;
    changed = true;
  }
  // step 5: merged (only if present)
  if (event.merged_through !== null) {
    const epoch = event.merged_epoch ?? event.writer_epoch;
    const merged = shard.merged;
    if (merged === null) {
      shard.merged = { epoch, value: event.merged_through };
      changed = true;
    } else if (event.merged_through > merged.value || (event.merged_through === merged.value && epoch > merged.epoch)) {
      merged.epoch = epoch;
      merged.value = event.merged_through;
      changed = true;
    }
  }
  // step 6, first half: the publisher's own flush time (a lower sealed value still teaches one)
  if (event.source !== "executor" && event.sealed_through > 0) {
    const r = shard.sealed_times.record(event.sealed_through, event.flushed_at_ms);
    if (r !== "same") changed = true;
    if (r === "added") added = true;
  }
  if (!changed) return "NotNewer"; // step 7
  if (added) shard.sealed_times.prune(); // step 8
  if (revision > table.observed_revision) table.observed_revision = revision;
  table.updated_ms = now;
  return "Changed";
}

/** `shards[id] = shard`, except that `__proto__` becomes an ordinary own entry. */
function setShard(shards: TableDemand["shards"], id: string, shard: ShardDemand): void {
  if (id === "__proto__") {
    Object.defineProperty(shards, id, { value: shard, enumerable: true, writable: true, configurable: true });
  } else shards[id] = shard;
}
