import "server-only";
// Folded demand per table (scheduler-model.md §3.6), kept incrementally: a watch event on
// one table's `demand-events/` marks that table, and the next hand-out re-folds it alone
// from its events, which sit contiguously in the key-sorted snapshot list. A table exists
// when it has a parsed event or an unknown-version one (the master creates the entry
// before folding).
import { emptyTableDemand, type TableDemand } from "@/lib/schema/demand";
import { hex } from "@/lib/schema/keys";
import { foldEvent } from "@/lib/planner/fold";
import type { DemandEventEntry, FleetSnapshot } from "@/lib/snapshot/types";
import { lowerBoundByKey } from "./key-order";

/** The events of one table: a contiguous run of the key-sorted demand-events list. */
export function eventsOfTarget(snapshot: FleetSnapshot, target: string): DemandEventEntry[] {
  const prefix = `${snapshot.prefix}/demand-events/${hex(target)}/`;
  const list = snapshot.demandEvents;
  const out: DemandEventEntry[] = [];
  for (let i = lowerBoundByKey(list, prefix); i < list.length && list[i].key.startsWith(prefix); i++) out.push(list[i]);
  return out;
}

function hasUnknownVersion(snapshot: FleetSnapshot, target: string): boolean {
  return snapshot.skipped.some((s) => s.family === "demand-events" && s.target === target);
}

export class DemandIndex {
  private folded = new Map<string, TableDemand>();
  private dirty = new Set<string>();
  private published: ReadonlyMap<string, TableDemand> | null = null;
  /** tables re-folded since creation (the initial fold excluded) */
  refolds = 0;

  private lastTarget: string | null = null;
  private lastTable: TableDemand | null = null;

  /** Folds every event of `snapshot`; without one, events arrive through `add` (a read in progress). */
  constructor(snapshot?: FleetSnapshot) {
    if (!snapshot) return;
    for (const e of snapshot.demandEvents) this.add(e);
    this.addUnknownVersions(snapshot);
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
    this.published = null;
  }

  /** §3.6: a table whose only events have an unknown version still exists, with zero shards. */
  addUnknownVersions(snapshot: FleetSnapshot): void {
    for (const s of snapshot.skipped) {
      if (s.family === "demand-events" && s.target !== undefined && !this.folded.has(s.target)) this.folded.set(s.target, emptyTableDemand());
    }
    this.published = null;
  }

  /** A `demand-events/` key of `target` changed: re-fold it at the next hand-out. */
  touch(target: string): void {
    this.dirty.add(target);
    this.published = null;
  }

  /** Every table of `snapshot` (a new map after a change; treat it as read-only). */
  tables(snapshot: FleetSnapshot): ReadonlyMap<string, TableDemand> {
    if (this.published) return this.published;
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
    this.published = new Map(this.folded);
    return this.published;
  }
}

/** One-shot fold of a snapshot (pinned revisions). */
export function foldSnapshot(snapshot: FleetSnapshot): ReadonlyMap<string, TableDemand> {
  return new DemandIndex(snapshot).tables(snapshot);
}
