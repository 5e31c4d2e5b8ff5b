// What moved a table's inputs at a transition of its history (issue 23 "History from the
// journal": "each transition says what moved its inputs at that revision: its own demand,
// a policy, capacity on a named executor, a table that went ahead of it, the clock
// (promotion, stall), or the write turn"). Pure: the caller reads which of the table's own
// keys and which executors changed between the two revisions (lib/time/history-moved-by.ts),
// and the journal says which other tables were placed at the same evaluation.
import { CLASS_NAMES } from "../schema/codes";

type MovedByCause = "demand" | "policy" | "capacity" | "table_ahead" | "clock" | "write_turn";

export interface MovedBy {
  cause: MovedByCause;
  /** `capacity`: the executor whose capacity moved */
  executor: string | null;
  /** `table_ahead`: the table placed ahead of this one */
  target: string | null;
  /** `clock`: a promotion at the wait floor, a stall at the idle timeout, or time otherwise (a cooldown running out) */
  clock: "promotion" | "stall" | "time" | null;
}

/** The table's side of a transition (null: not in the plan). */
export interface TransitionState {
  class: string;
  state: string;
  code: string | null;
  write_turn: "held" | "stalled" | null;
}

/** What changed in (previous revision, revision]. */
export interface InputsMoved {
  /** the families of the table's own keys that changed */
  own: ReadonlySet<"demand" | "policy" | "write_turn">;
  /** executors whose capacity (slots, bytes, draining, presence) changed */
  executors: readonly string[];
  /** other tables the same evaluation placed (journal points only) */
  placedWith: readonly string[];
}

/** Verdict codes that say another table took what this one needed. */
const CONTENTION = new Set(["cycle_limit", "no_free_slot", "insufficient_bytes", "turn_limit"]);
/** at most this many tables named as having gone ahead */
const MAX_AHEAD = 3;

const rank = (c: string | undefined) => {
  const i = (CLASS_NAMES as readonly string[]).indexOf(c ?? "idle");
  return i < 0 ? CLASS_NAMES.length : i;
};
const cause = (c: MovedByCause, extra: Partial<MovedBy> = {}): MovedBy => ({
  cause: c,
  executor: null,
  target: null,
  clock: null,
  ...extra,
});

function clockOf(before: TransitionState | null, after: TransitionState | null): MovedBy {
  const stalled = (s: TransitionState | null) => s?.write_turn === "stalled" || s?.code === "write_turn_stalled";
  if (stalled(after) && !stalled(before)) return cause("clock", { clock: "stall" });
  if (before && after && rank(after.class) < rank(before.class)) return cause("clock", { clock: "promotion" });
  return cause("clock", { clock: "time" });
}

/**
 * The causes of one transition, in a fixed order (own demand, policy, write turn, capacity
 * by executor, tables ahead). Same revision on both sides: only the clock moved. A new
 * revision where none of the inputs read changed: the clock too (time passed between them).
 */
export function movedBy(
  t: { previousRevision: number; revision: number; before: TransitionState | null; after: TransitionState | null },
  moved: InputsMoved,
): MovedBy[] {
  if (t.revision === t.previousRevision) return [clockOf(t.before, t.after)];
  const out: MovedBy[] = [];
  for (const family of ["demand", "policy", "write_turn"] as const) if (moved.own.has(family)) out.push(cause(family));
  for (const executor of [...moved.executors].sort()) out.push(cause("capacity", { executor }));
  // another table went ahead only where the verdict says capacity or a turn went to others: a
  // table that stopped being placed for a reason of its own (its merge running, a cooldown) lost nothing to them
  const lostOut = t.after?.state === "would_skip" && CONTENTION.has(t.after.code ?? "");
  if (lostOut)
    for (const target of [...moved.placedWith].sort().slice(0, MAX_AHEAD)) out.push(cause("table_ahead", { target }));
  return out.length > 0 ? out : [clockOf(t.before, t.after)];
}
