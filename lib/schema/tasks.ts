// Legacy task-queue records (§2.8): TaskRecord (`P/tasks/`, `P/queue/`, `P/running/`) and
// TaskCooldown (`P/cooldown/<kind-label>/<hex>`). Neither carries `v`.
import { z } from "zod";
import { TaskKindSchema } from "./kinds";
import { I64Schema, U32Schema } from "./numbers";
import { parsePlain, type Parsed } from "./parse";

const TASK_STATES = ["queued", "running", "done", "failed"] as const;
const TaskStateSchema = z.enum(TASK_STATES);

const TaskRecordSchema = z.object({
  id: z.string(),
  kind: TaskKindSchema,
  target: z.string(),
  state: TaskStateSchema,
  error: z.string().nullable().optional(),
  /** free-form detail (string in practice; kept as given) */
  detail: z.unknown().optional(),
  enqueued_at: I64Schema,
  started_at: I64Schema.nullable().optional(),
  finished_at: I64Schema.nullable().optional(),
  depends_on: z.array(z.string()).default([]),
});
export type TaskRecord = z.infer<typeof TaskRecordSchema>;

export function parseTaskRecord(value: string): Parsed<TaskRecord> {
  return parsePlain(TaskRecordSchema, value);
}

/** §9.2: `until_ms` is null while failures are below the threshold. Never for merge_wal. */
const TaskCooldownSchema = z.object({
  kind: TaskKindSchema,
  target: z.string(),
  failures: U32Schema,
  until_ms: I64Schema.nullable().default(null),
  last_error: z.string().default(""),
});
export type TaskCooldown = z.infer<typeof TaskCooldownSchema>;

export function parseTaskCooldown(value: string): Parsed<TaskCooldown> {
  return parsePlain(TaskCooldownSchema, value);
}
