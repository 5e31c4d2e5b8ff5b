// How a table's history reached its verdicts, in words (console-api.md "Time", "The decision
// journal"; fourth version: a point is never a verdict the pinned page would not give, and a
// point past what one request plans whole carries the table's own figures without one).
import type { HistoryResponse } from "../schema/api/history";
import { formatCount } from "./format";

export function historyBasisInWords(
  h: Pick<HistoryResponse, "verdict_basis" | "points" | "fleet_plan_points">,
): string {
  if (h.verdict_basis === "journal")
    return "Verdicts come from the decision journal: each change as the live plan entered it, equal to the table page pinned at that revision and time.";
  const journalled = h.points.filter((p) => p.basis === "journal").length;
  const part =
    journalled > 0
      ? `${formatCount(journalled)} of the changes come from the decision journal; the rest, where it does not cover the window, are re-planned. `
      : "";
  if (h.verdict_basis === "fleet_plan")
    return (
      part +
      "Re-planned verdicts come from the whole fleet planned at each change, as the table page pinned there shows them."
    );
  const fits = h.fleet_plan_points;
  const figures = h.points.filter((p) => p.basis === "figures_only").length;
  return (
    part +
    `${formatCount(figures)} change${figures === 1 ? "" : "s"} show the table's own figures (pending generations, wait, class, score) without a verdict: ` +
    "more changes than one request plans with the whole fleet, and a verdict weighed without the tables ahead in line could differ from the table page's. " +
    (fits >= 10
      ? `A window of ${formatCount(fits)} changes or fewer is planned whole; or pin a revision for the table page's verdict there.`
      : "Pin a revision for the table page's verdict there.")
  );
}
