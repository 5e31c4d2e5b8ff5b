// LeaderRecord — value of `P/leader` (§2.3). `P/leader-token` is a bare string (no schema).
import { z } from "zod";
import { I64Schema, U32Schema } from "./numbers";
import { parseVersioned, type Parsed } from "./parse";

const LeaderRecordSchema = z.object({
  v: U32Schema.default(1),
  token: z.string(),
  /** this master's executor id */
  instance: z.string(),
  since_ms: I64Schema,
});
export type LeaderRecord = z.infer<typeof LeaderRecordSchema>;

/** Strict version rule: v must be 1 (absent read as 1). */
export function parseLeader(value: string): Parsed<LeaderRecord> {
  return parseVersioned(LeaderRecordSchema, value, "strict");
}
