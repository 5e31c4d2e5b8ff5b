// The groups of a fleet diff as the page lists them: a count, words, and the members.
import type { DiffResponse } from "@/lib/client/resources/diff";

export type DiffMember = { key: string; text: string; target?: string; executor?: string };

export interface DiffGroup {
  id: string;
  label: string;
  members: DiffMember[];
}

const verdictWords = (v: { state: string; code: string | null }) => (v.state === "would_place" ? "placed" : `skipped (${v.code})`);
const words = (s: DiffResponse["executors"]["changed"][number]["before"]) =>
  `${s.draining ? "draining" : "accepting"}, ${Object.entries(s.slots_total).map(([k, n]) => `${k} ${n}`).join(" / ") || "no slots"}`;

export function diffGroups(d: DiffResponse): DiffGroup[] {
  return [
    { id: "class_changed", label: "tables changed class", members: d.tables.class_changed.map((c) => ({ key: c.target, target: c.target, text: `${c.before} → ${c.after}` })) },
    { id: "verdict_changed", label: "tables changed verdict", members: d.tables.verdict_changed.map((c) => ({ key: c.target, target: c.target, text: `${verdictWords(c.before)} → ${verdictWords(c.after)}` })) },
    { id: "appeared", label: "tables with new pending work", members: d.tables.appeared.map((t) => ({ key: t, target: t, text: "nothing pending before" })) },
    { id: "cleared", label: "tables cleared of pending work", members: d.tables.cleared.map((t) => ({ key: t, target: t, text: "nothing pending after" })) },
    { id: "executors_added", label: "executors added", members: d.executors.added.map((id) => ({ key: id, executor: id, text: "new heartbeat" })) },
    { id: "executors_removed", label: "executors removed", members: d.executors.removed.map((id) => ({ key: id, executor: id, text: "heartbeat gone" })) },
    { id: "executors_changed", label: "executors changed", members: d.executors.changed.map((c) => ({ key: c.id, executor: c.id, text: `${words(c.before)} → ${words(c.after)}` })) },
    { id: "policies_changed", label: "policies changed", members: d.policies.changed.map((t) => ({ key: t, text: t === "_default" ? "the fleet default" : t })) },
  ];
}
