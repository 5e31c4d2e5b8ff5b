// What a view of the fleet is: one revision's records, their folded tables and each
// unfinished execution's progress as etcd's history tells it, as the API serves it
// (immutable). lib/live/cache.ts keeps the live view and makes the pinned ones.
import type { ExecutionProgress } from "@/lib/planner/plan/input";
import type { TableDemand } from "@/lib/schema/demand";
import type { FleetSnapshot } from "@/lib/snapshot/types";

/** A fleet at one revision: its records and their folded tables. */
export interface Fleet {
  snapshot: FleetSnapshot;
  tables: ReadonlyMap<string, TableDemand>;
}

/** One revision of the fleet as the API serves it (immutable). */
export interface FleetView extends Fleet {
  revision: number;
  /** when this revision's data was read or last confirmed current */
  readAtMs: number;
  /** served by a connected watch (false: pinned, or the watch is down) */
  live: boolean;
  pinned: boolean;
  /**
   * Each unfinished execution's last progress, from etcd's history and dated by the revision
   * clock (./view-progress.ts): a function of etcd at the revision, whatever this process watched.
   */
  progress: ReadonlyMap<string, ExecutionProgress>;
  /** false: `progress` is not resolved yet, or may still change (a date narrows, a compaction takes an increase): the cache looks again */
  progressSettled: boolean;
  /**
   * Equal for two views whose fleet content is the same (a newer revision that only
   * changed keys the console does not read keeps it), so plans can be shared.
   */
  contentId: string;
}

/** What a view carries before its progress is resolved (lib/live/cache.ts resolves it before handing a view out). */
export const UNRESOLVED: ReadonlyMap<string, ExecutionProgress> = new Map();

/** A pinned view of `fleet` (read in full or put back); its progress is resolved by the cache. */
export function pinnedView(fleet: Fleet, revision: number): FleetView {
  const { snapshot, tables } = fleet;
  return {
    snapshot,
    tables,
    revision,
    readAtMs: snapshot.readAtMs,
    live: false,
    pinned: true,
    progress: UNRESOLVED,
    progressSettled: false,
    contentId: `rev:${revision}`,
  };
}

/** The same progress for every execution (what a re-dating compares). */
export function sameProgress(
  a: ReadonlyMap<string, ExecutionProgress>,
  b: ReadonlyMap<string, ExecutionProgress>,
): boolean {
  if (a.size !== b.size) return false;
  for (const [id, x] of a) {
    const y = b.get(id);
    if (
      !y ||
      x.sequence !== y.sequence ||
      x.last_progress_revision !== y.last_progress_revision ||
      x.last_progress_ms !== y.last_progress_ms ||
      x.last_progress_bound !== y.last_progress_bound
    )
      return false;
  }
  return true;
}

/**
 * `view` with `progress`: the content id names the progress too (a date that narrowed plans
 * anew), so two views share plans only when their progress is the same.
 */
export function withProgress(
  view: FleetView,
  progress: ReadonlyMap<string, ExecutionProgress>,
  settled: boolean,
): FleetView {
  const base = view.contentId.split("|")[0];
  const tag = [...progress]
    .map(([id, p]) => `${id}:${p.sequence}:${p.last_progress_revision}:${p.last_progress_ms}:${p.last_progress_bound}`)
    .join(",");
  return { ...view, progress, progressSettled: settled, contentId: tag === "" ? base : `${base}|${tag}` };
}
