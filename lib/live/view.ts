// What a view of the fleet is: one revision's records, their folded tables and what the
// process remembers of each execution, as the API serves it (immutable). lib/live/cache.ts
// keeps the live view and makes the pinned ones.
import type { SequenceClock } from "@/lib/planner/progress";
import type { TableDemand } from "@/lib/schema/demand";
import type { FirstSeen } from "@/lib/snapshot/planner-input";
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
  /** when the merge-progress sequence of each execution was last seen to move */
  sequenceClocks: ReadonlyMap<string, SequenceClock>;
  /** when this process first saw each execution, and its sequence then (lib/snapshot/planner-input.ts) */
  firstSeen: FirstSeen;
  /**
   * Equal for two views whose fleet content is the same (a newer revision that only
   * changed keys the console does not read keeps it), so plans can be shared.
   */
  contentId: string;
}

/** A pinned view of `fleet` (read in full or put back), with the process's memory as of then. */
export function pinnedView(
  fleet: Fleet,
  revision: number,
  memory: Pick<FleetView, "sequenceClocks" | "firstSeen">,
): FleetView {
  const { snapshot, tables } = fleet;
  return {
    snapshot,
    tables,
    revision,
    readAtMs: snapshot.readAtMs,
    live: false,
    pinned: true,
    ...memory,
    contentId: `rev:${revision}`,
  };
}
