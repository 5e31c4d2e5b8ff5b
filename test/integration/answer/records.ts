// Record builders for the "one answer" integration tests: the wire forms of
// scheduler-model.md §2, written straight into the test's etcd prefix.
import type { Etcd3 } from "etcd3";
import { uuidv7 } from "@/lib/schema/task-id";
import type { TaskRecord } from "@/lib/schema/tasks";
import { keys } from "@/lib/schema/keys";

export const GiB = 1024 ** 3;

export async function put(client: Etcd3, key: string, value: unknown): Promise<number> {
  const res = await client
    .put(key)
    .value(typeof value === "string" ? value : JSON.stringify(value))
    .exec();
  return Number(res.header.revision);
}

export function heartbeat(instance: string, extra: Record<string, unknown> = {}) {
  return {
    v: 1,
    kind: "worker",
    instance,
    version: "1.0.0",
    kinds: ["merge_wal", "compact"],
    slots_total: { merge_wal: 2, compact: 1 },
    bytes_total: 0,
    bytes_free_sample: 0,
    draining: false,
    heartbeat_ms: Date.now(),
    ...extra,
  };
}

export function assignment(target: string, unitId: string, executor: string, extra: Record<string, unknown> = {}) {
  return {
    v: 1,
    unit_id: unitId,
    kind: "merge_wal",
    target,
    needs_write_turn: true,
    executor,
    planner_token: "leader-token",
    reserved_slots: { merge_wal: 1 },
    reserved_bytes: 2 * GiB,
    state: "shadow",
    created_ms: 0,
    bind_deadline_ms: 30_000,
    ...extra,
  };
}

/**
 * One shard with `pending` generations after merged 100: generation 101 flushed at
 * `oldestMs`, each next one `stepMs` later (the newest at oldest + (pending − 1) × step).
 */
export async function demandTable(
  client: Etcd3,
  prefix: string,
  target: string,
  pending: number,
  oldestMs: number,
  stepMs = 1000,
): Promise<number> {
  const times: Record<string, number> = {};
  for (let g = 101; g <= 100 + Math.min(pending, 60); g++) times[String(g)] = oldestMs + (g - 101) * stepMs;
  return put(client, keys.demandEvent(prefix, target, "aaaaaaaa-0000-4000-8000-000000000001"), {
    v: 1,
    shard: "aaaaaaaa-0000-4000-8000-000000000001",
    sealed_through: 100 + pending,
    sealed_bytes_through: 0,
    merged_through: 100,
    flushed_at_ms: oldestMs + (pending - 1) * stepMs,
    writer_epoch: 1,
    source: "writer",
    sealed_times: times,
  });
}

let taskN = 0;
/** A `tasks/` record with a UUIDv7 id of its enqueue time (console-api.md "Fairness is live"). */
export async function task(client: Etcd3, prefix: string, t: Omit<TaskRecord, "id" | "depends_on">): Promise<string> {
  const id = uuidv7(t.enqueued_at, ++taskN);
  await put(client, `${prefix}/tasks/${id}`, { id, ...t });
  return id;
}
