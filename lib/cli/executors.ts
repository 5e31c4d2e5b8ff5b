// `scheduler-console executors`: the /executors page's rows, with the one headroom the
// verdicts use (`free`) and its parts in the page's order and words (lib/words/capacity.ts).
import { HEADROOM_PARTS, bytesHeadroomText, legacyNote } from "../words/capacity";
import { formatCount, formatDuration, formatTime } from "../words/format";
import type { SlotHeadroom } from "../schema/api/executors";
import type { Executor, ExecutorsResponse } from "../client/api-types";
import { columns, countOf } from "./text";

const state = (e: Executor) => (e.orphan ? "orphan" : e.draining ? "draining" : "live");
const running = (e: Executor) =>
  e.executions.length === 0
    ? "—"
    : e.executions
        .map((x) => `${x.execution_id} ${x.target} (${x.progress === "stalled" ? "stalled" : x.phase})`)
        .join(", ");
const bytes = (e: Executor) => (e.orphan && e.bytes.total === 0 ? "—" : bytesHeadroomText(e.bytes));

interface HeadroomLine {
  executor: string;
  kind: string;
  h: SlotHeadroom;
}

/** The headroom table: one line per executor and kind, the parts as the pages' columns. */
function headroomTable(lines: HeadroomLine[]): string {
  return columns(lines, [
    { title: "EXECUTOR", cell: (l) => l.executor },
    { title: "SLOT KIND", cell: (l) => l.kind },
    ...HEADROOM_PARTS.map(({ part, label }) => ({
      title: label.toUpperCase(),
      cell: (l: HeadroomLine) => formatCount(l.h[part]),
      align: "right" as const,
    })),
  ]);
}

/** Relative times count from the answer's `now_ms` (console-api.md "One answer, as of its moment"). */
export function executorsText(r: ExecutorsResponse): string {
  const t = r.totals;
  const fleet = Object.entries(t.slots).map(([kind, h]) => ({ executor: "all accepting", kind, h }));
  const header = `${countOf(t.executors, "executor")} (${formatCount(t.draining)} draining), ${countOf(t.orphans, "orphan")} (revision ${r.revision}, as of ${formatTime(r.now_ms)})`;
  if (r.executors.length === 0) return `${header}\nNo executor has a heartbeat or an assignment.`;
  const body = columns(r.executors, [
    { title: "ID", cell: (e) => e.id },
    { title: "KIND", cell: (e) => e.kind },
    { title: "STATE", cell: state },
    { title: "BYTES", cell: bytes },
    { title: "ASSIGNMENTS", cell: (e) => formatCount(e.assignments), align: "right" },
    {
      title: "HEARTBEAT",
      cell: (e) => (e.heartbeat_age_ms === null ? "none" : `${formatDuration(e.heartbeat_age_ms)} ago`),
    },
    { title: "RUNNING", cell: running },
  ]);
  const perExecutor = r.executors.flatMap((e) =>
    Object.entries(e.slots).map(([kind, h]) => ({ executor: e.id, kind, h })),
  );
  const notes = [
    ...Object.entries(t.slots).map(([kind, h]) => legacyNote(kind, h)),
    ...r.executors.flatMap((e) =>
      Object.entries(e.slots).map(([kind, h]) => {
        const note = legacyNote(kind, h);
        return note && `${e.id}: ${note}`;
      }),
    ),
  ].filter((n): n is string => n !== null);
  return [
    header,
    body,
    "",
    "Free capacity (free = total − reserved: what every verdict uses; shadow rows and legacy running are not counted):",
    headroomTable([...fleet, ...perExecutor]),
    `bytes (all accepting, with a byte budget): ${t.bytes.total === 0 ? "no executor has a byte budget" : bytesHeadroomText(t.bytes)}`,
    ...notes,
  ].join("\n");
}
