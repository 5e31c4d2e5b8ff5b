// Assignment — value of `P/assignments/<hex(target)>/<unit-id>` (§2.5, flat as in code).
// Only `v == 1` records are kept; absent `v` is read as 1 (see parse.ts).
import { z } from "zod";
import { TaskKindSchema } from "./kinds";
import { SlotMapSchema } from "./executors";
import { I64Schema, U32Schema, U64Schema } from "./numbers";
import { parseVersioned, type Parsed } from "./parse";

const ASSIGNMENT_STATES = ["shadow", "assigned", "bound", "released"] as const;
const AssignmentStateSchema = z.enum(ASSIGNMENT_STATES);

/** Shadow assignments expire this long after creation (§2.5, §6.2). */
export const SHADOW_BIND_DEADLINE_MS = 30_000;

const AssignmentSchema = z.object({
  v: U32Schema.default(1),
  unit_id: z.string(),
  kind: TaskKindSchema,
  target: z.string(),
  needs_write_turn: z.boolean().default(false),
  executor: z.string(),
  planner_token: z.string().default(""),
  reserved_slots: SlotMapSchema.default({}),
  reserved_bytes: U64Schema.default(0),
  state: AssignmentStateSchema,
  created_ms: I64Schema,
  bind_deadline_ms: I64Schema,
});
export type Assignment = z.infer<typeof AssignmentSchema>;

export function parseAssignment(value: string): Parsed<Assignment> {
  return parseVersioned(AssignmentSchema, value, "strict");
}
