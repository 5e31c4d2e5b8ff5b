// Legacy task records for the forecast tests: a queued merge by default.
import type { TaskRecord } from "@/lib/schema/tasks";
import { NOW } from "../../plan/__fixtures__/fleet";

export const task = (id: string, target: string, extra: Partial<TaskRecord> = {}): TaskRecord => ({
  id,
  kind: "merge_wal",
  target,
  state: "queued",
  enqueued_at: NOW - 600_000,
  depends_on: [],
  ...extra,
});
