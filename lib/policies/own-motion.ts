import "server-only";
// Whether a difference between a reviewed effect and the fresh one is the tables' own motion
// (console-api.md third version: stale means material). On a live fleet every writer flush
// moves its table, and through the placement rule (largest free bytes first, scheduler-model
// §5.4) a moved table can shift where later tables fit: a table whose records stood still can
// gain or lose a placement without anything the admin reviewed changing. The question asked
// is: would the reviewed fleet, with only what is not a table's own record as it is now (the
// executors, the stored policies, the leader), decide what the admin reviewed? If so, what
// differs came from the tables' own records, and it is not material.
import type { FleetView } from "@/lib/live/cache";
import type { FleetSnapshot } from "@/lib/snapshot/types";

/** The families that are not one table's own records: an executor, a policy, the leader. */
const NOT_A_TABLES_OWN = [
  "executors",
  "policies",
  "leader",
  "leaderToken",
] as const satisfies readonly (keyof FleetSnapshot)[];

/** The reviewed view with the executors, policies and leader of `now`: every table as reviewed. */
export function reviewedTablesWithNowElse(reviewed: FleetView, now: FleetView): FleetView {
  const snapshot: FleetSnapshot = { ...reviewed.snapshot };
  for (const family of NOT_A_TABLES_OWN) Object.assign(snapshot, { [family]: now.snapshot[family] });
  return { ...reviewed, snapshot, contentId: `${reviewed.contentId}+${now.contentId}` };
}
