import "server-only";
// GET /api/v1/revisions/time (console-api.md "Time"): the service over the process's revision
// clock (lib/live/revision-clock.ts), which the live views date their revisions by.
import type { RevisionTime, RevisionTimeQuery } from "@/lib/schema/api/revisions";
import { revisionClock } from "@/lib/live/revision-clock";

/** `?revision=R` → its time; `?at_ms=T` → the newest revision written by T. */
export function revisionTimeOf(q: RevisionTimeQuery): Promise<RevisionTime> {
  return q.revision !== undefined ? revisionClock().timeOf(q.revision) : revisionClock().revisionAt(q.at_ms!);
}
