// `scheduler-console shadow`: the §6.2 comparison with the legacy queue, as the /shadow page.
import { OUTCOME_MEANING } from "../../components/shadow/outcome-meaning";
import { formatCount } from "../../components/ui/format";
import type { OutcomeName, ShadowResponse } from "../client/api-types";
import { columns, countOf, listOf } from "./text";

export function shadowText(r: ShadowResponse): string {
  const outcomes = Object.entries(r.outcomes) as Array<[OutcomeName, number]>;
  const table = columns(outcomes, [
    { title: "OUTCOME", cell: ([o]) => o },
    { title: "TABLES", cell: ([, n]) => formatCount(n), align: "right" },
    { title: "HEALTHY WHEN", cell: ([o]) => OUTCOME_MEANING[o]?.healthy ?? "" },
  ]);
  const p = r.placements;
  const mismatch = p.executor_mismatch.flatMap((m) => [`    ${m.target}: console ${m.console}, master ${m.master}`, `      ${m.reason}`]);
  return [
    `Shadow comparison at revision ${r.revision}: ${countOf(r.disagreements, "disagreement")} (discovery_miss + phantom_task)`,
    table,
    `Placements: ${p.agree ? "the console and the master agree" : "the console and the master differ"} (console ${formatCount(p.console.length)}, master ${formatCount(p.master.length)})`,
    `  only the console placed: ${listOf(p.only_console)}`,
    `  only the master placed: ${listOf(p.only_master)}`,
    `  placed on different executors: ${mismatch.length === 0 ? "none" : countOf(p.executor_mismatch.length, "table")}`,
    ...mismatch,
  ].join("\n");
}
