import "server-only";
// The fields every read response carries: its revision, when it was read, and the cache
// that served it (console-api.md "Conventions"; issue 4: cache revision and age).
import type { FleetView } from "@/lib/live/cache";

export function snapshotMeta(view: FleetView, now = Date.now()) {
  return {
    revision: view.revision,
    read_at_ms: view.readAtMs,
    snapshot: { revision: view.revision, age_ms: Math.max(0, now - view.readAtMs), live: view.live, pinned: view.pinned },
  };
}

/** `?now_ms=T` or the server clock. */
export function planNow(nowMs: number | undefined): number {
  return nowMs ?? Date.now();
}
