// One capacity in one set of words (console-api.md fourth version, "One capacity, one write
// turn"): `free` is the figure every verdict uses, named only so, and its parts are said
// beside it in one order, on the overview, /executors, the table pages and the command line.
import type { ByteHeadroom, SlotHeadroom } from "../schema/api/executors";
import { formatBytes, formatCount } from "./format";

type Part = keyof SlotHeadroom;

/** The parts in the one order every surface says them, each with its one label. */
export const HEADROOM_PARTS: readonly { part: Part; label: string; title: string }[] = [
  { part: "free", label: "free", title: "total − reserved: what every verdict uses" },
  { part: "total", label: "total", title: "the executor's slots (its heartbeat)" },
  {
    part: "reserved",
    label: "reserved",
    title: "live assignments, assigned or bound (the master's shadow rows left out)",
  },
  {
    part: "shadow",
    label: "shadow rows",
    title: "the master's last shadow pass: replaced by its next pass, so not counted (scheduler-model.md §6.2 step 3)",
  },
  {
    part: "legacy_running",
    label: "legacy running",
    title: "executions running here outside any assignment: P1's planner does not count them",
  },
];

/** "4 free · 4 total · 0 reserved · 4 shadow rows · 6 legacy running": every part, in the one order. */
export function headroomText(h: SlotHeadroom): string {
  return HEADROOM_PARTS.map(({ part, label }) => `${formatCount(h[part])} ${label}`).join(" · ");
}

/** The bytes in the same parts and order: "6.0 GiB free · 8.0 GiB total · 2.0 GiB reserved · 2.0 GiB shadow rows". */
export function bytesHeadroomText(b: ByteHeadroom): string {
  if (b.total === 0) return "no byte budget (not byte-checked)";
  return HEADROOM_PARTS.filter(({ part }) => part !== "legacy_running")
    .map(({ part, label }) => `${formatBytes(b[part as keyof ByteHeadroom])} ${label}`)
    .join(" · ");
}

/**
 * The plain note where legacy executions outnumber the free slots: the figure the verdict
 * uses leaves them out (P1), and the design gives them their own executor kind
 * (scheduler-model.md §5.4). Null where they do not.
 */
export function legacyNote(kind: string, h: SlotHeadroom): string | null {
  if (h.legacy_running <= h.free || h.legacy_running === 0) return null;
  const n = formatCount(h.legacy_running);
  return (
    `${n} legacy ${kind} execution${h.legacy_running === 1 ? " runs" : "s run"} here outside any assignment, ` +
    `more than the ${formatCount(h.free)} free ${kind} slot${h.free === 1 ? "" : "s"}: P1's planner does not count them, ` +
    `so a verdict may still place work here. In the design, legacy workers become their own executor kind with their ` +
    `own slots (scheduler-model.md §5.4), and then they count.`
  );
}
