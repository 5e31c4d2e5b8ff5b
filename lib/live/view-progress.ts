import "server-only";
// Each view's running merges with their last progress (console-api.md fourth version, "The
// same answer from any replica, at any uptime"): where etcd's history says each last
// progressed (./progress-history.ts), dated by the revision clock (lib/time/revision-clock.ts)
// as a pinned page dates its own revision. lib/live/cache.ts hands out no view without it:
// live, put back, read in full or held by a plan, the same revision gets the same progress.
import type { EtcdClient } from "@/lib/etcd/client";
import type { ExecutionProgress } from "@/lib/planner/plan/input";
import { etcdAway, type RevisionClock } from "@/lib/time/revision-clock";
import { ProgressHistory, type ProgressPoint } from "./progress-history";
import { sameProgress, UNRESOLVED, withProgress, type FleetView } from "./view";

export interface DatedProgress {
  progress: ReadonlyMap<string, ExecutionProgress>;
  /** every date is final (a revision newer than the clock's last sample narrows as samples arrive) */
  settled: boolean;
}

export async function datedProgress(points: readonly ProgressPoint[], clock: RevisionClock): Promise<DatedProgress> {
  const times = await Promise.all(points.map((p) => clock.timeOfHeld(p.revision)));
  const progress = new Map<string, ExecutionProgress>();
  points.forEach((p, i) =>
    progress.set(p.executionId, {
      sequence: p.sequence,
      last_progress_revision: p.revision,
      last_progress_ms: times[i].at_ms,
      last_progress_bound: p.bound,
    }),
  );
  return { progress, settled: points.every((p) => clock.isSettled(p.revision)) };
}

export class ViewProgress {
  /** where each execution last progressed in etcd's history (what the watch brings only makes it faster) */
  readonly history: ProgressHistory;

  constructor(
    client: EtcdClient,
    prefix: string,
    private readonly clock: RevisionClock,
  ) {
    this.history = new ProgressHistory(client, prefix);
  }

  /**
   * `view` with each unfinished execution's last progress. A view whose progress nothing can
   * change any more (every answer a key's creation, every date final) comes back as it is; any
   * other is looked at again each time (a date narrows as samples arrive, a compaction takes
   * an increase): the same object while nothing changed.
   */
  async resolved(view: FleetView): Promise<FleetView> {
    if (view.progressSettled) return view;
    let found: Awaited<ReturnType<ProgressHistory["pointsOf"]>>;
    try {
      found = await this.history.pointsOf(view.snapshot);
    } catch (e) {
      // etcd away: a view resolved before still answers with what it had (the last good data)
      if (view.progress !== UNRESOLVED && etcdAway(e)) return view;
      throw e;
    }
    const dated = await datedProgress(found.points, this.clock);
    const settled = found.final && dated.settled;
    if (!settled && view.progress !== UNRESOLVED && sameProgress(view.progress, dated.progress)) return view;
    return withProgress(view, dated.progress, settled);
  }
}
