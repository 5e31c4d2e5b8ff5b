// TaskKind (snake_case JSON enum) and the hyphenated labels used inside legacy keys
// (scheduler-model.md §1.2: `compact`, `merge-wal`, `index-id`, `repair`).
import { z } from "zod";

export const TASK_KINDS = ["compact", "merge_wal", "index_id", "repair"] as const;
export const TaskKindSchema = z.enum(TASK_KINDS);
export type TaskKind = z.infer<typeof TaskKindSchema>;

export type KindLabel = "compact" | "merge-wal" | "index-id" | "repair";

const LABEL_OF: Record<TaskKind, KindLabel> = {
  compact: "compact",
  merge_wal: "merge-wal",
  index_id: "index-id",
  repair: "repair",
};
const KIND_OF: Record<string, TaskKind> = {
  compact: "compact",
  "merge-wal": "merge_wal",
  "index-id": "index_id",
  repair: "repair",
};

export function kindLabel(kind: TaskKind): KindLabel {
  return LABEL_OF[kind];
}

/** Exact label → kind; anything else (including the snake_case form) → null. */
export function kindFromLabel(label: string): TaskKind | null {
  return Object.hasOwn(KIND_OF, label) ? KIND_OF[label] : null;
}
