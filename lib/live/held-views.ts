import "server-only";
// The views a live cache (./cache.ts) still has in memory besides its live one: the last few
// live views, and those other modules hold (lib/live/plan.ts: the views of its plans). A
// pinned request or a cursor at one of their revisions needs no read. Data in a registry the
// cache owns: the cache never calls back into its holders.
import { LRUCache } from "lru-cache";
import type { FleetView } from "./view";

/** live views kept for `?revision=` besides those a plan still holds */
const RECENT_LIVE = 2;

export class HeldViews {
  private readonly recent = new LRUCache<number, FleetView>({ max: RECENT_LIVE });
  /** the views other modules hold, by holder */
  private readonly byHolder = new Map<string, readonly FleetView[]>();

  /** A live view as it was made: kept a little while after the live view moves on. */
  remember(view: FleetView): void {
    this.recent.set(view.revision, view);
  }

  /** `holder` now holds exactly `views`. */
  hold(holder: string, views: readonly FleetView[]): void {
    if (views.length === 0) this.byHolder.delete(holder);
    else this.byHolder.set(holder, views);
  }

  /** The view of `revision`, if one is held. */
  find(revision: number): FleetView | undefined {
    const recent = this.recent.get(revision);
    if (recent) return recent;
    for (const views of this.byHolder.values()) {
      const view = views.find((v) => v.revision === revision);
      if (view) return view;
    }
    return undefined;
  }

  /** Distinct revisions the holders keep besides `live`'s (GET /api/v1/health `held_views`). */
  count(live: FleetView | null): number {
    const held = [...this.byHolder.values()].flat().filter((v) => v !== live && v.revision !== live?.revision);
    return new Set(held.map((v) => v.revision)).size;
  }
}
