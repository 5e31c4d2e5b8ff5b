// `scheduler-console shadow`: the §6.2 comparison with the legacy queue, as the /shadow page.
import { OUTCOME_MEANING } from "../words/outcomes";
import { PLACEMENT_NAMES } from "../words/codes";
import { formatCount } from "../words/format";
import type { OutcomeName, ShadowResponse } from "../client/api-types";
import { columns, countOf, listOf, moreOf } from "./text";
import { holderLabel } from "../words/write-turn";

/** How many discovery misses the words name (`--json` has them all). */
const MISSES_SHOWN = 50;

export function shadowText(r: ShadowResponse): string {
  const outcomes = Object.entries(r.outcomes) as Array<[OutcomeName, number]>;
  const table = columns(outcomes, [
    { title: "OUTCOME", cell: ([o]) => OUTCOME_MEANING[o]?.label ?? o },
    { title: "TABLES", cell: ([, n]) => formatCount(n), align: "right" },
    { title: "HEALTHY WHEN", cell: ([o]) => OUTCOME_MEANING[o]?.healthy ?? "" },
  ]);
  const p = r.placements;
  const mismatch = p.executor_mismatch.flatMap((m) => [
    `    ${m.target}: console ${m.console}, master ${m.master}`,
    `      ${m.reason}`,
  ]);
  const holders = new Map(r.write_turn_holders.map((h) => [h.target, h.holder]));
  const misses = r.tables.discovery_miss;
  const named = misses.slice(0, MISSES_SHOWN).map((target) => {
    const holder = holders.get(target);
    return `  ${target}${holder ? `: write turn held by ${holderLabel(holder)}` : ""}`;
  });
  return [
    `Shadow comparison at revision ${r.revision}: ${countOf(r.disagreements, "disagreement")} (discovery_miss + phantom_task)`,
    table,
    ...(misses.length === 0
      ? ["Discovery misses: none"]
      : [
          `Discovery misses (${formatCount(misses.length)}), with the write-turn holder their table page names:`,
          ...named,
          ...(misses.length > MISSES_SHOWN ? [`  ${moreOf(misses.length, MISSES_SHOWN)}`] : []),
          ...(r.miss_beside_execution.length > 0
            ? [
                `  ${countOf(r.miss_beside_execution.length, "miss stands", "misses stand")} beside a running merge: the master's comparison reads only queue/ and running/ (§6.2), not merge-executions/.`,
              ]
            : []),
        ]),
    `Placements by ${PLACEMENT_NAMES.master}: ${p.agree ? "the console and the master agree" : "the console and the master differ"} (console ${formatCount(p.console.length)}, master ${formatCount(p.master.length)}); table verdicts follow ${PLACEMENT_NAMES.design}`,
    `  only the console placed: ${listOf(p.only_console)}`,
    `  only the master placed: ${listOf(p.only_master)}`,
    `  placed on different executors: ${mismatch.length === 0 ? "none" : countOf(p.executor_mismatch.length, "table")}`,
    ...mismatch,
  ].join("\n");
}
