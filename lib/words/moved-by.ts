// What moved a table's inputs at a history transition, in words (the `moved_by` of
// GET /scheduler/demand/history points; lib/journal/moved-by.ts): the table page's history
// and the command line's `history <table>` say it the same way.
import type { HistoryPoint } from "../schema/api/history";

type MovedBy = NonNullable<HistoryPoint["moved_by"]>[number];

const CLOCK_WORDS = {
  promotion: "the clock (promoted for its wait)",
  stall: "the clock (the merge stalled)",
  time: "the clock",
};

function causeInWords(c: MovedBy): string {
  switch (c.cause) {
    case "demand":
      return "its own demand";
    case "policy":
      return "a policy";
    case "capacity":
      return `capacity on ${c.executor ?? "an executor"}`;
    case "table_ahead":
      return `${c.target ?? "another table"} went ahead`;
    case "clock":
      return CLOCK_WORDS[c.clock ?? "time"];
    case "write_turn":
      return "the write turn";
  }
}

/** "its own demand, capacity on worker-1" (null: not known). */
export function movedByInWords(m: HistoryPoint["moved_by"]): string | null {
  return m === null || m.length === 0 ? null : m.map(causeInWords).join(", ");
}
