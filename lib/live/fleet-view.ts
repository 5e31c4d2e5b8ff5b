import "server-only";
// The fleet view a request asked for (pinned `?revision=` or live) and the time it is
// evaluated at (./evaluation.ts), for route handlers:
// they import the HTTP shell, the services, this file and lib/schema only (.dependency-cruiser.cjs "api-handlers-are-thin").
// A pinned read's task window is the 24 h before the revision's own time (console-api.md
// "Fairness is live" as of then, "A pinned read is evaluated as of its own time").
import { TASKS_WINDOW_MS } from "@/lib/snapshot/build";
import { fleetView as cachedView, liveCache, type FleetView } from "@/lib/live/cache";
import { etcdAway, revisionClock } from "@/lib/live/revision-clock";

export type { FleetView };
/** and the clock the request's answer is evaluated at (`?now_ms`, the revision's time, or the server's) */
export { evaluate } from "@/lib/live/evaluation";

/** `keep: false`: a pinned view read once (a history point), not kept among the pages' pinned views. */
export async function fleetView(revision?: number, opts: { keep?: boolean } = {}): Promise<FleetView> {
  if (revision === undefined) return cachedView();
  // held in memory: no read, so neither the compaction check nor the task window's start is needed
  if (liveCache().known(revision)) return cachedView(revision);
  let atMs: number | null = null;
  try {
    atMs = (await revisionClock().timeOf(revision)).at_ms;
  } catch (e) {
    // etcd away: a revision the cache holds in memory (or puts back from the live view) is
    // immutable and still answers; any other would need a read, so the 503 is answered now
    if (!etcdAway(e) || !liveCache().holds(revision)) throw e;
  }
  return cachedView(revision, { tasksSinceMs: atMs === null ? undefined : atMs - TASKS_WINDOW_MS, keep: opts.keep });
}
