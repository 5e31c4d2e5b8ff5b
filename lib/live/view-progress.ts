import "server-only";
// Each view's running merges with their last progress (console-api.md fourth version, "The
// same answer from any replica, at any uptime"): where etcd's history says each last
// progressed (./progress-history.ts), dated by the revision clock (lib/live/revision-clock.ts)
// as a pinned page dates its own revision. lib/live/cache.ts hands out no view without it:
// live, put back, read in full or held by a plan, the same revision gets the same progress.
import type { EtcdClient } from "@/lib/etcd/client";
import type { ExecutionProgress } from "@/lib/planner/plan/input";
import { etcdAway, type RevisionClock } from "@/lib/live/revision-clock";
import { COMPACTION_RECHECK_MS, ProgressHistory, type ProgressPoint } from "./progress-history";
import type { LiveStore, OnChange } from "@/lib/snapshot/store";
import type { FamilyName } from "@/lib/snapshot/types";
import { sameProgress, UNRESOLVED, withProgress, type FleetView } from "./view";

export interface DatedProgress {
  progress: ReadonlyMap<string, ExecutionProgress>;
  /** every date is final (a revision newer than the clock's last sample narrows as samples arrive) */
  settled: boolean;
}

type Found = Awaited<ReturnType<ProgressHistory["pointsOf"]>>;

async function datedProgress(points: readonly ProgressPoint[], clock: RevisionClock): Promise<DatedProgress> {
  // each revision once, one at a time: merges started together share a revision, and a revision
  // older than the clock's samples is dated from the records current at it (a few reads each)
  const times = new Map<number, number | null>();
  for (const revision of new Set(points.map((p) => p.revision)))
    times.set(revision, (await clock.timeOfHeld(revision)).at_ms);
  const progress = new Map<string, ExecutionProgress>();
  for (const p of points)
    progress.set(p.executionId, {
      sequence: p.sequence,
      last_progress_revision: p.revision,
      last_progress_ms: times.get(p.revision)!,
      last_progress_bound: p.bound,
    });
  return { progress, settled: points.every((p) => clock.isSettled(p.revision)) };
}

export class ViewProgress {
  /** where each execution last progressed in etcd's history (what the watch brings only makes it faster) */
  private readonly history: ProgressHistory;
  /**
   * The last progress found and dated, by the lists of executions and progress records it was
   * for: a view with the same lists reuses it for as long as the compaction check is reused
   * (a date or a compaction is looked at again after that), so a burst of requests costs one.
   */
  private last: { executions: object; progress: object; atMs: number; found: Found; dated: DatedProgress } | null =
    null;

  constructor(
    client: EtcdClient,
    prefix: string,
    private readonly clock: RevisionClock,
  ) {
    this.history = new ProgressHistory(client, prefix);
  }

  /**
   * A live watch's change of `family` (the store has applied it): the watch sends each change's
   * previous value, so where an execution last progressed, or started, follows without a walk.
   */
  learn(store: LiveStore, family: FamilyName, change: Parameters<OnChange>[1]): void {
    if (change.type === "delete") return;
    if (family === "merge-progress") {
      const p = store.entry("mergeProgress", change.kv.key);
      if (p) this.history.learn("progress", p.executionId, change.kv, change.prev);
    } else if (family === "merge-executions") {
      const e = store.entry("mergeExecutions", change.kv.key);
      if (e) this.history.learn("start", e.execution.id, change.kv, change.prev);
    }
  }

  /**
   * `view` with each unfinished execution's last progress. A view whose progress nothing can
   * change any more (every answer a key's creation, every date final) comes back as it is; any
   * other is looked at again each time (a date narrows as samples arrive, a compaction takes
   * an increase): the same object while nothing changed.
   */
  async resolved(view: FleetView): Promise<FleetView> {
    if (view.progressSettled) return view;
    const { mergeExecutions: executions, mergeProgress: progress } = view.snapshot;
    let last = this.last;
    if (
      !last ||
      last.executions !== executions ||
      last.progress !== progress ||
      Date.now() - last.atMs >= COMPACTION_RECHECK_MS
    ) {
      const atMs = Date.now();
      const sameRecords = last !== null && last.executions === executions && last.progress === progress ? last : null;
      try {
        const found = await this.history.pointsOf(view.snapshot);
        last = this.last = { executions, progress, atMs, found, dated: await datedProgress(found.points, this.clock) };
      } catch (e) {
        if (!etcdAway(e)) throw e;
        // etcd away: what was found for these same records still answers (the last good data,
        // also in a view made again from them, as after the watch broke); so does a view
        // resolved before; any other has nothing to answer with
        if (sameRecords === null) {
          if (view.progress !== UNRESOLVED) return view;
          throw e;
        }
        last = sameRecords;
      }
    }
    const { found, dated } = last;
    const settled = found.final && dated.settled;
    if (!settled && view.progress !== UNRESOLVED && sameProgress(view.progress, dated.progress)) return view;
    return withProgress(view, dated.progress, settled);
  }
}
