// The write-turn holder in words (console-api.md fourth version, "One capacity, one write
// turn"): one table, one holder, named the same by the verdict (the planner writes its
// message with these very functions), the table page, /shadow, the overview and the command line.
export { holderInWords, holderKey, holderLabel } from "../planner/plan/write-turn-holder";

/** What every surface says when nothing holds the turn. */
export const NO_HOLDER_WORDS = "Write turn free: no execution, assignment or lock holds it";
