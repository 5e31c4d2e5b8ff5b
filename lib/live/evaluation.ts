import "server-only";
// The fields every read response carries (console-api.md "Conventions" and "Time"): its
// revision, when it was read, the cache that served it, and the clock it was evaluated at.
import type { NowBasis, RevisionTime } from "@/lib/schema/api/revisions";
import type { FleetView } from "@/lib/live/cache";
import { revisionClock } from "./revision-clock";

/** What a request asked for: `?now_ms=T`, or `?now=server` on a pinned read. */
export interface NowChoice {
  now_ms?: number;
  now?: "server";
}

/** The wall time a response is evaluated at, and why that one. */
export interface Evaluation {
  now: number;
  now_basis: NowBasis;
  /** the pinned revision's own time (null for live reads) */
  revision_time: RevisionTime | null;
}

/**
 * A pinned request without `?now_ms` that falls back to the server clock (its revision's
 * time is unknown, or `?now=server`) plans at the clock rounded down to NOW_STEP_MS, so its
 * pages and repeats share one plan; the response's `now_ms` says which.
 */
const NOW_STEP_MS = 2000;

function defaultNow(): number {
  return Math.floor(Date.now() / NOW_STEP_MS) * NOW_STEP_MS;
}

/**
 * console-api.md "A pinned read is evaluated as of its own time": `?now_ms` wins
 * (`request`); a pinned view runs at its revision's `at_ms` (`revision_time`) unless
 * `?now=server` or nothing tells its time; a live view runs at the server clock.
 * `live` is the server clock of a live read (its plan picks its own `now`).
 */
export async function evaluate(view: FleetView, choice: NowChoice = {}, live = Date.now()): Promise<Evaluation> {
  // the view is in memory: its time needs no compaction check, and etcd being away only makes it unknown
  const revision_time = view.pinned ? await revisionClock().timeOfHeld(view.revision) : null;
  if (choice.now_ms !== undefined) return { now: choice.now_ms, now_basis: "request", revision_time };
  if (!view.pinned) return { now: live, now_basis: "server_clock", revision_time };
  if (choice.now !== "server" && revision_time?.at_ms != null)
    return { now: revision_time.at_ms, now_basis: "revision_time", revision_time };
  return { now: defaultNow(), now_basis: "server_clock", revision_time };
}

/**
 * `snapshot.age_ms` is how old the snapshot was at the clock the answer is evaluated at
 * (`now` of its evaluation, else its read time): 0 when it was read or confirmed current
 * at or after that clock. So the answer's bytes follow from its view and evaluation alone
 * and one encoding serves every repeat (lib/http/encoded-response.ts); how old the data is when a
 * reader looks is that reader's clock minus `read_at_ms`, and the console's own live cache
 * age is `GET /api/v1/health` `snapshot.age_ms`.
 */
export function snapshotMeta(view: FleetView, evaluation?: Evaluation) {
  const at = evaluation?.now ?? view.readAtMs;
  return {
    revision: view.revision,
    read_at_ms: view.readAtMs,
    snapshot: {
      revision: view.revision,
      age_ms: Math.max(0, Math.round(at - view.readAtMs)),
      live: view.live,
      pinned: view.pinned,
    },
    now_basis: evaluation?.now_basis ?? ("server_clock" as NowBasis),
    revision_time: evaluation?.revision_time ?? null,
  };
}
