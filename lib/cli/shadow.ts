// `scheduler-console shadow`: the §6.2 comparison with the legacy queue, as the /shadow page.
import { OUTCOME_MEANING } from "../words/outcomes";
import { PLACEMENT_NAMES } from "../words/codes";
import { formatCount } from "../words/format";
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
  const mismatch = p.executor_mismatch.flatMap((m) => [
    `    ${m.target}: console ${m.console}, master ${m.master}`,
    `      ${m.reason}`,
  ]);
  const beside = r.miss_beside_execution.flatMap((m) => [
    `    ${m.target}: merge ${m.phase}, ${m.execution_id} on ${m.executor}`,
    `      ${m.explanation}`,
  ]);
  return [
    `Shadow comparison at revision ${r.revision}: ${countOf(r.disagreements, "disagreement")} (discovery_miss + phantom_task)`,
    table,
    ...(beside.length === 0
      ? []
      : [`Discovery misses beside a running merge (${formatCount(beside.length / 2)}):`, ...beside]),
    `Placements by ${PLACEMENT_NAMES.master}: ${p.agree ? "the console and the master agree" : "the console and the master differ"} (console ${formatCount(p.console.length)}, master ${formatCount(p.master.length)}); table verdicts follow ${PLACEMENT_NAMES.design}`,
    `  only the console placed: ${listOf(p.only_console)}`,
    `  only the master placed: ${listOf(p.only_master)}`,
    `  placed on different executors: ${mismatch.length === 0 ? "none" : countOf(p.executor_mismatch.length, "table")}`,
    ...mismatch,
  ].join("\n");
}
