// Execution — value of `P/merge-executions/<hex(target)>`, the execution fence (§2.8).
import { z } from "zod";
import { U32Schema, U64Schema } from "./numbers";
import { parsePlain, type Parsed } from "./parse";

const MAINTENANCE_KINDS = ["compact", "index_id", "repair"] as const;
const EXECUTION_PHASES = ["reserved", "running", "uncertain", "recovering", "recovered", "finished"] as const;
const ExecutionPhaseSchema = z.enum(EXECUTION_PHASES);

const ExecutionSchema = z.object({
  /** omitted for worker merges */
  maintenance: z.enum(MAINTENANCE_KINDS).nullable().optional(),
  id: z.string(),
  target: z.string(),
  endpoint: z.string(),
  instance: z.string().default(""),
  timeout_secs: U64Schema.default(0),
  queue_timeout_secs: U64Schema.default(600),
  idle_timeout_secs: U64Schema.default(600),
  phase: ExecutionPhaseSchema,
  reclaimed: z.boolean().default(false),
  error: z.string().nullable().default(null),
  /** omitted when 0; new executions use 2 */
  protocol: U32Schema.default(0),
});
export type Execution = z.infer<typeof ExecutionSchema>;

export function parseExecution(value: string): Parsed<Execution> {
  return parsePlain(ExecutionSchema, value);
}
