// One write-turn holder per table (console-api.md fourth version, "One capacity, one write
// turn"): an execution (with its progress), an assignment (bound or orphaned, with its bind
// deadline), the target lock of something else, or none. Decided here, once, from the same
// facts the verdict's blockers read (./blockers.ts checks them in this order), and said in
// these words by the verdict, the table page's lock panel, /shadow and the overview alike.
import type { Assignment } from "@/lib/schema/assignments";
import { formatDuration, formatTime } from "@/lib/schema/format";
import type { PlannerFence } from "./input";
import { lockedExecutionId, type ProgressState, type WriteTurn } from "./write-turn";

export type WriteTurnHolder =
  | {
      type: "execution";
      execution_id: string;
      /** the execution's instance, else its endpoint: where it runs */
      executor: string;
      endpoint: string;
      phase: string;
      progress: ProgressState;
      sequence: number | null;
    }
  | {
      type: "assignment";
      unit_id: string;
      kind: string;
      executor: string;
      /** assigned or bound (shadow rows never hold a turn, §6.2) */
      state: string;
      /** its executor has no live heartbeat */
      orphaned: boolean;
      bind_deadline_ms: number;
    }
  | {
      type: "lock";
      /** the `target-locks/` value: a claim token, or `merge-execution:<id>` of a finished execution */
      value: string;
      execution_id: string | null;
    };

/**
 * The holder, most decisive first as the verdict checks it: the unfinished execution the
 * target lock names, then a live non-shadow assignment of the table, then any other lock.
 */
export function writeTurnHolder(
  turn: WriteTurn | null,
  fence: PlannerFence | undefined,
  liveAssignments: readonly Assignment[] | undefined,
  heartbeats: ReadonlyMap<string, unknown>,
): WriteTurnHolder | null {
  if (turn) {
    return {
      type: "execution",
      execution_id: turn.execution_id,
      executor: turn.instance || turn.endpoint,
      endpoint: turn.endpoint,
      phase: turn.phase,
      progress: turn.progress,
      sequence: turn.sequence,
    };
  }
  const held = liveAssignments?.[0];
  if (held) {
    return {
      type: "assignment",
      unit_id: held.unit_id,
      kind: held.kind,
      executor: held.executor,
      state: held.state,
      orphaned: !heartbeats.has(held.executor),
      bind_deadline_ms: held.bind_deadline_ms,
    };
  }
  const lock = fence?.targetLock;
  if (lock) return { type: "lock", value: lock, execution_id: lockedExecutionId(lock) };
  return null;
}

/** A stable name of the holder for comparing surfaces: `execution:<id>`, `assignment:<unit>`, `lock:<value>`. */
export function holderKey(h: WriteTurnHolder): string {
  return h.type === "execution"
    ? `execution:${h.execution_id}`
    : h.type === "assignment"
      ? `assignment:${h.unit_id}`
      : `lock:${h.value}`;
}

const PROGRESS_WORDS: Record<ProgressState, string> = {
  advancing: "advancing",
  stalled: "stalled",
  unknown: "progress not yet seen",
};

/**
 * The holder in a few words, the same on every surface: "execution exec-1 on worker-1
 * (running, advancing)", "assignment u-1 (merge_wal) on worker-gone (assigned, orphaned)",
 * "the target lock of claim c-9".
 */
export function holderLabel(h: WriteTurnHolder): string {
  if (h.type === "execution")
    return `execution ${h.execution_id} on ${h.executor} (${h.phase}, ${PROGRESS_WORDS[h.progress]})`;
  if (h.type === "assignment")
    return `assignment ${h.unit_id} (${h.kind}) on ${h.executor} (${h.state}${h.orphaned ? ", orphaned: no live heartbeat" : ""})`;
  return h.execution_id === null
    ? `the target lock of claim ${h.value}`
    : `the target lock of execution ${h.execution_id}, which is not running`;
}

/**
 * The holder's deadline as of `now` (console-api.md "every statement about the future
 * carries its deadline"): an unbound assignment past its bind deadline is overdue, by how
 * long. Null for holders without one (executions, locks, bound assignments).
 */
function holderDeadline(h: WriteTurnHolder, now: number): string | null {
  if (h.type !== "assignment" || h.state === "bound") return null;
  const at = formatTime(h.bind_deadline_ms);
  return now > h.bind_deadline_ms
    ? `bind deadline ${at} passed: overdue by ${formatDuration(now - h.bind_deadline_ms)}`
    : `bind deadline ${at}, in ${formatDuration(h.bind_deadline_ms - now)}`;
}

/** "Write turn held by …; bind deadline … passed: overdue by …": the label with its deadline. */
export function holderInWords(h: WriteTurnHolder, now: number): string {
  const deadline = holderDeadline(h, now);
  return `Write turn held by ${holderLabel(h)}${deadline ? `; ${deadline}` : ""}`;
}
