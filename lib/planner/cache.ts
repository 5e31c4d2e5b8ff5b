// TableDemand equality (§3.7: ignoring observed_revision and updated_ms): how the console
// tells whether the master's demand cache row `P/demand/<hex>` (§6.1 steps 4–5) agrees
// with its own fold. The console only reads that cache; the leader writes it.
import type { ShardDemand, TableDemand } from "@/lib/schema";

function sameMark(a: { epoch: number; value: number } | null, b: { epoch: number; value: number } | null): boolean {
  if (a === null || b === null) return a === b;
  return a.epoch === b.epoch && a.value === b.value;
}

function sameShard(a: ShardDemand, b: ShardDemand): boolean {
  return (
    sameMark(a.sealed, b.sealed) &&
    sameMark(a.merged, b.merged) &&
    a.sealed_bytes === b.sealed_bytes &&
    a.sealed_times.equals(b.sealed_times)
  );
}

/**
 * Content equality of two tables. `updated_ms` is always ignored; `observed_revision` too
 * unless `compareRevision` (the reconcile compares it, §6.1 step 4).
 */
export function sameTableDemand(a: TableDemand, b: TableDemand, compareRevision = false): boolean {
  if (
    a.fragment_count !== b.fragment_count ||
    a.index_stale !== b.index_stale ||
    a.uncovered_fragments !== b.uncovered_fragments ||
    a.missing_fragments !== b.missing_fragments ||
    (compareRevision && a.observed_revision !== b.observed_revision)
  ) {
    return false;
  }
  let n = 0;
  for (const id in a.shards) {
    if (!Object.hasOwn(b.shards, id) || !sameShard(a.shards[id], b.shards[id])) return false;
    n++;
  }
  for (const _ in b.shards) n--;
  return n === 0;
}
