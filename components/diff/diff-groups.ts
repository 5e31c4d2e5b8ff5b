// The groups of a fleet diff as the page lists them: a count, words, and the members, each
// group's members ranked by how much they changed (lib/words/changes.ts, shared with the
// command line's `diff`).
import type { DiffResponse } from "@/lib/client/resources/diff";
import {
  classChangeSize,
  classInWords,
  executorChanges,
  rankByChange,
  verdictChangeSize,
  verdictInWords,
} from "@/lib/words/changes";

type DiffMember = { key: string; text: string; target?: string; executor?: string };

export interface DiffGroup {
  id: string;
  label: string;
  members: DiffMember[];
}

export function diffGroups(d: DiffResponse): DiffGroup[] {
  const byName = <T extends { target: string }>(t: T) => t.target;
  return [
    {
      id: "class_changed",
      label: "tables changed class",
      members: rankByChange(d.tables.class_changed, (c) => classChangeSize(c.before, c.after), byName).map((c) => ({
        key: c.target,
        target: c.target,
        text: `${classInWords(c.before)} → ${classInWords(c.after)}`,
      })),
    },
    {
      id: "verdict_changed",
      label: "tables changed verdict",
      members: rankByChange(d.tables.verdict_changed, (c) => verdictChangeSize(c.before, c.after), byName).map((c) => ({
        key: c.target,
        target: c.target,
        text: `${verdictInWords(c.before)} → ${verdictInWords(c.after)}`,
      })),
    },
    {
      id: "appeared",
      label: "tables with new pending work",
      members: d.tables.appeared.map((t) => ({ key: t, target: t, text: "nothing pending before" })),
    },
    {
      id: "cleared",
      label: "tables cleared of pending work",
      members: d.tables.cleared.map((t) => ({ key: t, target: t, text: "nothing pending after" })),
    },
    {
      id: "executors_added",
      label: "executors added",
      members: d.executors.added.map((id) => ({ key: id, executor: id, text: "new heartbeat" })),
    },
    {
      id: "executors_removed",
      label: "executors removed",
      members: d.executors.removed.map((id) => ({ key: id, executor: id, text: "heartbeat gone" })),
    },
    {
      id: "executors_changed",
      label: "executors changed",
      members: rankByChange(
        d.executors.changed.map((c) => ({ id: c.id, changes: executorChanges(c.before, c.after) })),
        (c) => c.changes.length,
        (c) => c.id,
      ).map((c) => ({ key: c.id, executor: c.id, text: c.changes.join("; ") })),
    },
    {
      id: "policies_changed",
      label: "policies changed",
      members: d.policies.changed.map((t) => ({ key: t, text: t === "_default" ? "the fleet default" : t })),
    },
  ];
}
