// Folded demand per table (scheduler-model.md §3.6): THE fold of the console. The fleet
// read folds each `demand-events/` page as it arrives; the live cache then keeps it
// incrementally: a watch event on one table marks that table, and the next hand-out
// re-folds it alone from its events, which sit contiguously in the key-sorted snapshot
// list. A table exists when it has a parsed event or an unknown-version one (the master
// creates the entry before folding). Pure: no I/O.
import { emptyTableDemand, type TableDemand } from "@/lib/schema/demand";
import { keys } from "@/lib/schema/keys";
import { foldEvent } from "@/lib/planner/fold";
import { LayeredMapWriter } from "@/lib/planner/layered-map";
import { entriesAt, keyedListOf } from "./patched-list";
import type { DemandEventEntry, FleetSnapshot } from "./types";

/** The events of one table: a contiguous run of the key-sorted demand-events list. */
export function eventsOfTarget(snapshot: FleetSnapshot, target: string): DemandEventEntry[] {
  return entriesAt(keyedListOf(snapshot, "demandEvents"), keys.demandEventsOf(snapshot.prefix, target), true);
}

function hasUnknownVersion(snapshot: FleetSnapshot, target: string): boolean {
  return snapshot.skipped.some((s) => s.family === "demand-events" && s.target === target);
}

export class DemandIndex {
  /** the tables; each hand-out shares the unchanged ones with the last (lib/planner/layered-map.ts) */
  private folded: LayeredMapWriter<string, TableDemand>;
  private dirty = new Set<string>();
  /** tables re-folded since creation (the initial fold excluded) */
  refolds = 0;

  private lastTarget: string | null = null;
  private lastTable: TableDemand | null = null;

  /**
   * Starts from `seed` (the tables a read folded; they are never mutated, a re-fold makes
   * a new table) or empty, with events arriving through `add` (a read in progress).
   */
  constructor(seed?: ReadonlyMap<string, TableDemand>) {
    this.folded = new LayeredMapWriter(seed ?? new Map());
  }

  /** Fold one more event of the initial read (any order: the fold is order-independent). */
  add(e: DemandEventEntry): void {
    if (e.target !== this.lastTarget) {
      this.lastTarget = e.target;
      this.lastTable = this.folded.get(e.target) ?? null;
      if (this.lastTable === null) this.folded.set(e.target, (this.lastTable = emptyTableDemand()));
    }
    // entries are shared with snapshots: the fold never adopts an event's time map
    foldEvent(this.lastTable!, e.event, e.modRevision, 0);
  }

  /** §3.6: a table whose only events have an unknown version still exists, with zero shards. */
  addUnknownVersions(snapshot: FleetSnapshot): void {
    for (const s of snapshot.skipped) {
      if (s.family === "demand-events" && s.target !== undefined && this.folded.get(s.target) === undefined)
        this.folded.set(s.target, emptyTableDemand());
    }
  }

  /** A `demand-events/` key of `target` changed: re-fold it at the next hand-out. */
  touch(target: string): void {
    this.dirty.add(target);
  }

  /** Every table of `snapshot` (a new map after a change, never mutated). */
  tables(snapshot: FleetSnapshot): ReadonlyMap<string, TableDemand> {
    for (const target of this.dirty) {
      const events = eventsOfTarget(snapshot, target);
      if (events.length === 0 && !hasUnknownVersion(snapshot, target)) {
        this.folded.delete(target);
        continue;
      }
      const table = emptyTableDemand();
      for (const e of events) foldEvent(table, e.event, e.modRevision, 0);
      this.folded.set(target, table);
    }
    this.refolds += this.dirty.size;
    this.dirty.clear();
    return this.folded.publish();
  }
}

/** One-shot fold of a whole snapshot (what the read does page by page). */
export function foldSnapshot(snapshot: FleetSnapshot): ReadonlyMap<string, TableDemand> {
  const index = new DemandIndex();
  for (const e of snapshot.demandEvents) index.add(e);
  index.addUnknownVersions(snapshot);
  return index.tables(snapshot);
}
