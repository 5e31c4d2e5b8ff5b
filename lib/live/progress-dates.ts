import "server-only";
// Each execution's last progress (./progress-history.ts: a revision) dated by the revision
// clock (lib/time/revision-clock.ts), as a pinned page dates its own revision (console-api.md
// fourth version: "dated by the revision clock"). A revision newer than the clock's last
// sample has a date that narrows as samples arrive: the view says so (`settled: false`)
// and the cache dates it again when it is asked for next.
import type { ExecutionProgress } from "@/lib/planner/plan/input";
import type { RevisionClock } from "@/lib/time/revision-clock";
import type { ProgressPoint } from "./progress-history";

export interface DatedProgress {
  progress: ReadonlyMap<string, ExecutionProgress>;
  /** every date is final */
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
