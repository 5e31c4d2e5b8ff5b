import "server-only";
// Folded demand per table (scheduler-model.md §3.6), kept incrementally: a watch event on
// one table's `demand-events/` re-folds that table only. A table exists when it has a
// parsed event or an unknown-version one (the master creates the entry before folding).
import { emptyTableDemand, type TableDemand } from "@/lib/schema/demand";
import { foldEvent } from "@/lib/planner/fold";
import type { DemandEventEntry, FleetSnapshot } from "@/lib/snapshot/types";

export class DemandIndex {
  private events = new Map<string, Map<string, DemandEventEntry>>();
  private unknownVersion = new Map<string, Set<string>>();
  private folded = new Map<string, TableDemand>();
  private dirty = new Set<string>();
  private published: ReadonlyMap<string, TableDemand> | null = null;
  /** tables re-folded since creation (the initial fold excluded) */
  refolds = 0;

  constructor(snapshot: FleetSnapshot) {
    for (const e of snapshot.demandEvents) this.setEvent(e.key, e.target, e);
    for (const s of snapshot.skipped) if (s.family === "demand-events" && s.target !== undefined) this.setUnknown(s.key, s.target, true);
    for (const target of this.dirty) this.fold(target);
    this.dirty.clear();
  }

  setEvent(key: string, target: string, entry: DemandEventEntry | null): void {
    let byKey = this.events.get(target);
    if (entry) {
      if (!byKey) this.events.set(target, (byKey = new Map()));
      byKey.set(key, entry);
    } else if (byKey) {
      byKey.delete(key);
      if (byKey.size === 0) this.events.delete(target);
    }
    this.touch(target);
  }

  setUnknown(key: string, target: string, present: boolean): void {
    let keys = this.unknownVersion.get(target);
    if (present) {
      if (!keys) this.unknownVersion.set(target, (keys = new Set()));
      keys.add(key);
    } else if (keys) {
      keys.delete(key);
      if (keys.size === 0) this.unknownVersion.delete(target);
    }
    this.touch(target);
  }

  private touch(target: string): void {
    this.dirty.add(target);
    this.published = null;
  }

  private fold(target: string): void {
    const byKey = this.events.get(target);
    if (!byKey && !this.unknownVersion.has(target)) {
      this.folded.delete(target);
      return;
    }
    const table = emptyTableDemand();
    // entries are shared with snapshots: never let the fold adopt an event's time map
    if (byKey) for (const e of byKey.values()) foldEvent(table, e.event, e.modRevision, 0);
    this.folded.set(target, table);
  }

  /** Every table at the current state (a new map after a change; treat it as read-only). */
  tables(): ReadonlyMap<string, TableDemand> {
    if (this.published) return this.published;
    for (const target of this.dirty) this.fold(target);
    this.refolds += this.dirty.size;
    this.dirty.clear();
    this.published = new Map(this.folded);
    return this.published;
  }
}

/** One-shot fold of a snapshot (pinned revisions). */
export function foldSnapshot(snapshot: FleetSnapshot): ReadonlyMap<string, TableDemand> {
  return new DemandIndex(snapshot).tables();
}
