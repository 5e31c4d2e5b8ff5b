// GET /api/v1/scheduler/assignments: live assignments (state != released), console-api.md.
import { z } from "zod";
import {
  nowMsParamSchema,
  nowChoiceParamSchema,
  revisionParamSchema,
  snapshotMetaSchema,
  targetParamSchema,
} from "./common";

export const assignmentsQuerySchema = z.object({
  revision: revisionParamSchema,
  now_ms: nowMsParamSchema,
  now: nowChoiceParamSchema,
  target: targetParamSchema.optional(),
  executor: z.string().min(1).max(512).optional(),
});
export type AssignmentsQuery = z.output<typeof assignmentsQuerySchema>;

const assignmentRowSchema = z.object({
  unit_id: z.string(),
  kind: z.string(),
  target: z.string(),
  executor: z.string(),
  state: z.string(),
  reserved_slots: z.record(z.string(), z.number()),
  reserved_bytes: z.number(),
  created_ms: z.number(),
  bind_deadline_ms: z.number(),
  age_ms: z.number(),
  /** past bind_deadline_ms and not bound; never for shadow rows (they are never bound in P1) */
  overdue: z.boolean(),
  /** how long past bind_deadline_ms (null: not overdue) */
  overdue_ms: z.number().nullable(),
});
export type AssignmentRow = z.infer<typeof assignmentRowSchema>;

export const assignmentsResponseSchema = snapshotMetaSchema.extend({
  now_ms: z.number().int(),
  assignments: z.array(assignmentRowSchema),
});
export type AssignmentsResponse = z.infer<typeof assignmentsResponseSchema>;
