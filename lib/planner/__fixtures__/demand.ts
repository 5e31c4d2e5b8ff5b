// Test fixtures following the §10 helper conventions.
import fc from "fast-check";
import { emptyTableDemand, SealedTimes, type DemandEvent, type DemandSource, type TableDemand } from "@/lib/schema";
import { foldEvent } from "../fold";
import { joinEvent } from "../join";

const SOURCE: Record<string, DemandSource> = { W: "writer", Ex: "executor", Scan: "scan" };

/** `ev(shard, sealed, merged?, epoch, source)`: bytes = sealed × 1000, flushed = sealed × 10. */
export function ev(
  shard: string,
  sealed: number,
  merged: number | null,
  epoch: number,
  source: "W" | "Ex" | "Scan",
): DemandEvent {
  return {
    v: 1,
    shard,
    sealed_through: sealed,
    sealed_bytes_through: sealed * 1000,
    merged_through: merged,
    flushed_at_ms: sealed * 10,
    writer_epoch: epoch,
    source: SOURCE[source],
  };
}

/** A deep copy (structuredClone would drop the time map's class). */
export function cloneDemandEvent(event: DemandEvent): DemandEvent {
  const out = { ...event };
  if (event.sealed_times !== undefined) out.sealed_times = event.sealed_times.copy();
  return out;
}

/** A deep copy (structuredClone would drop the time maps' class). */
export function cloneTableDemand(table: TableDemand): TableDemand {
  const shards: TableDemand["shards"] = {};
  for (const [id, s] of Object.entries(table.shards)) {
    const copy = {
      sealed: { ...s.sealed },
      merged: s.merged && { ...s.merged },
      sealed_bytes: s.sealed_bytes,
      sealed_times: s.sealed_times.copy(),
    };
    Object.defineProperty(shards, id, { value: copy, enumerable: true, writable: true, configurable: true }); // "__proto__" too
  }
  return { ...table, shards };
}

export function foldAll(events: readonly DemandEvent[], now = 0): TableDemand {
  const table = emptyTableDemand();
  events.forEach((e, i) => foldEvent(table, cloneDemandEvent(e), i + 1, now));
  return table;
}

/** Join the events per shard into stored records (in the given order), then fold those. */
export function rebuild(events: readonly DemandEvent[], now = 0): TableDemand {
  const stored = new Map<string, DemandEvent>();
  for (const e of events) {
    const joined = joinEvent(stored.get(e.shard) ?? null, cloneDemandEvent(e));
    if (joined !== "unchanged") stored.set(e.shard, joined);
  }
  return foldAll([...stored.values()], now);
}

/** Equality view: observed_revision and updated_ms zeroed (§3.7). */
export function content(table: TableDemand): TableDemand {
  return { ...cloneTableDemand(table), observed_revision: 0, updated_ms: 0 };
}

/** `demand(pending, oldest)`: one shard `s`, generations 1..pending (writer, epoch 1,
 * bytes g × 1,000,000, flushed oldest + g, revision g). */
export function demand(pending: number, oldest: number): TableDemand {
  const table = emptyTableDemand();
  for (let g = 1; g <= pending; g++) {
    foldEvent(
      table,
      {
        v: 1,
        shard: "s",
        sealed_through: g,
        sealed_bytes_through: g * 1_000_000,
        merged_through: null,
        flushed_at_ms: oldest + g,
        writer_epoch: 1,
        source: "writer",
      },
      g,
      0,
    );
  }
  return table;
}

export function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [items.slice()];
  const out: T[][] = [];
  items.forEach((item, i) => {
    for (const rest of permutations([...items.slice(0, i), ...items.slice(i + 1)])) out.push([item, ...rest]);
  });
  return out;
}

/** Any demand event of shards a–c (bytes grow with sealed; up to 80 times, so the 64-cap is exercised). */
export const eventArb: fc.Arbitrary<DemandEvent> = fc
  .record({
    shard: fc.constantFrom("a", "b", "c"),
    sealed: fc.nat({ max: 120 }),
    merged: fc.option(fc.nat({ max: 120 }), { nil: null }),
    mergedEpoch: fc.option(fc.nat({ max: 3 }), { nil: undefined }),
    flushed: fc.integer({ min: 1000, max: 1100 }),
    epoch: fc.nat({ max: 3 }),
    source: fc.constantFrom("writer", "executor", "scan") as fc.Arbitrary<DemandEvent["source"]>,
    // up to 80 times so the 64-cap is exercised
    times: fc.option(
      fc.dictionary(fc.nat({ max: 150 }).map(String), fc.integer({ min: 900, max: 1100 }), { maxKeys: 80 }),
      {
        nil: undefined,
      },
    ),
  })
  .map((r) => {
    const e: DemandEvent = {
      v: 1,
      shard: r.shard,
      sealed_through: r.sealed,
      // bytes grow with the sealed value (§10 helper convention); see the join note below
      sealed_bytes_through: r.sealed * 1000,
      merged_through: r.merged,
      flushed_at_ms: r.flushed,
      writer_epoch: r.epoch,
      source: r.source,
    };
    if (r.merged !== null && r.mergedEpoch !== undefined) e.merged_epoch = r.mergedEpoch;
    if (r.times !== undefined) e.sealed_times = SealedTimes.fromRecord(r.times);
    return e;
  });
