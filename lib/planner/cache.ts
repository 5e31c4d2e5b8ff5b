// The demand cache `P/demand/<hex>` written by the leader each reconcile (§6.1 steps 4–5),
// and TableDemand equality (tests ignore observed_revision and updated_ms, §3.7).
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

export interface CacheRow {
  target: string;
  /** null = the stored row is unparseable */
  record: TableDemand | null;
}

export interface CacheWrites {
  /** changed or missing/unparseable rows, with `updated_ms = now` (target order of `folded`) */
  puts: { target: string; record: TableDemand }[];
  /** parseable rows whose table has no events (an unparseable orphan row is left alone) */
  deletes: string[];
}

export function planCacheWrites(
  folded: ReadonlyMap<string, TableDemand>,
  existing: Iterable<CacheRow>,
  now: number,
): CacheWrites {
  const stored = new Map<string, TableDemand | null>();
  for (const row of existing) stored.set(row.target, row.record);
  const puts: CacheWrites["puts"] = [];
  for (const [target, record] of folded) {
    const current = stored.get(target);
    if (current != null && sameTableDemand(record, current, true)) continue;
    puts.push({ target, record: { ...record, updated_ms: now } });
  }
  const deletes: string[] = [];
  for (const [target, record] of stored) if (record !== null && !folded.has(target)) deletes.push(target);
  return { puts, deletes };
}
