import "server-only";
// GET /api/v1/fleet/facts?window_ms= (console-api.md "The takeover gate and the canary
// evidence"): the table count and hot share, the generation size distribution, task
// durations and failure shares per kind from `tasks/` records finished in the window
// (nearest-rank), and what they imply for the policy (lib/planner/takeover/facts.ts).
import { implications, loadFacts, taskFacts } from "@/lib/planner/takeover/facts";
import { parseTaskRecord, type TaskRecord } from "@/lib/schema/tasks";
import { KEY_DIRS, keys } from "@/lib/schema/keys";
import { uuidv7Prefix } from "@/lib/schema/task-id";
import type { FactsResponse } from "@/lib/schema/api/fleet";
import type { ReadQuery } from "@/lib/schema/api/common";
import { etcdClient } from "@/lib/etcd/client";
import { toEtcdError } from "@/lib/etcd/errors";
import { readPrefixPaged } from "@/lib/etcd/paged-read";
import { TASKS_WINDOW_MS } from "@/lib/snapshot/build";
import { fleetView, type FleetView } from "@/lib/live/fleet-view";
import { planFor } from "@/lib/live/plan";

/**
 * The task records a window needs: the view's own (its read covers the last 24 h of ids)
 * when the window fits in them, else one read of `tasks/` at the view's revision from the
 * ids of a day before the window (a task finishes after it is enqueued, ids are enqueue times).
 */
async function tasksFor(view: FleetView, fromMs: number, nowMs: number): Promise<TaskRecord[]> {
  if (fromMs >= nowMs - TASKS_WINDOW_MS + 3_600_000) return view.snapshot.tasks.map((t) => t.task);
  const prefix = view.snapshot.prefix;
  try {
    const { kvs } = await readPrefixPaged(etcdClient(), keys.dir(prefix, KEY_DIRS.tasks), {
      revision: view.revision,
      startKey: Buffer.from(keys.task(prefix, uuidv7Prefix(fromMs - TASKS_WINDOW_MS))),
      probePrefix: prefix,
    });
    return kvs.flatMap((kv) => {
      const parsed = parseTaskRecord(kv.value.toString("utf8"));
      return parsed.ok ? [parsed.value] : [];
    });
  } catch (e) {
    throw toEtcdError(e, "read tasks");
  }
}

export async function fleetFacts(query: ReadQuery & { window_ms: number }): Promise<FactsResponse> {
  const planned = await planFor(await fleetView(query.revision), query);
  const { plan, view } = planned;
  const toMs = planned.evaluation.now;
  const fromMs = toMs - query.window_ms;
  const load = loadFacts(plan.tables);
  const tasks = taskFacts(await tasksFor(view, fromMs, toMs), fromMs, toMs);
  const { count, p50, p90, p99, max } = load.generation_bytes;
  return {
    revision: view.revision,
    now_ms: toMs,
    from_ms: fromMs,
    to_ms: toMs,
    tables: load.tables,
    hot_share: load.hot_share,
    generation_bytes: { count, p50, p90, p99, max },
    ...tasks,
    implies: implications(load.pending_generations, p99, tasks.task_seconds.merge_wal?.p99 ?? null),
  };
}
