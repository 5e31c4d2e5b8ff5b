import "server-only";
// A pinned view near the live one, put back from it instead of read in full (lib/live/cache.ts
// asks when its change log, ./change-log.ts, holds every change since the revision): each key
// changed after the revision gets its value then, applied to a copy of the live store with the
// read's own parsers, and the tables they touch are re-folded. The `tasks/` window is the
// pinned read's: the records the live store dropped since are read at the revision. The same
// snapshot and tables as a full read at that revision (test/integration/foundation/rewind.test.ts).
import type { EtcdClient } from "@/lib/etcd/client";
import { readKeyRangePaged, type RawKv } from "@/lib/etcd/paged-read";
import type { WatchChange } from "@/lib/etcd/watch";
import { familyStartKey } from "@/lib/snapshot/build";
import { DemandIndex } from "@/lib/snapshot/demand-index";
import { FAMILIES, familyPrefix } from "@/lib/snapshot/families";
import { LiveStore } from "@/lib/snapshot/store";
import type { Fleet } from "./view";

const TASKS = FAMILIES.find((f) => f.name === "tasks")!;
const NO_VALUE = Buffer.alloc(0);

export interface Rewind {
  revision: number;
  /** every key changed after `revision`, with its value then (null: it did not exist) */
  values: readonly { key: string; value: RawKv | null }[];
  /** the pinned read's task window starts here */
  tasksSinceMs: number;
  /** the live store holds the `tasks/` records from here on */
  heldTasksSinceMs: number;
  readAtMs: number;
}

/** The fleet at `r.revision`, from `live` (the view the change log's values lead back from). */
export async function rewoundView(client: EtcdClient, prefix: string, live: Fleet, r: Rewind): Promise<Fleet> {
  const cutMs = Math.max(r.tasksSinceMs, r.heldTasksSinceMs);
  const cut = familyStartKey(prefix, TASKS, cutMs)!;
  // the window's start the live store no longer holds, as it was at the revision
  const older =
    r.tasksSinceMs < r.heldTasksSinceMs
      ? await readKeyRangePaged(client, familyStartKey(prefix, TASKS, r.tasksSinceMs)!, cut, {
          revision: r.revision,
          probePrefix: prefix,
        })
      : [];
  const cutKey = cut.toString("utf8");
  const tasksPrefix = familyPrefix(prefix, TASKS);
  const changes: WatchChange[] = [];
  for (const { key, value } of r.values) {
    if (key < cutKey && key.startsWith(tasksPrefix)) continue; // outside the window, or in `older`
    changes.push(
      value ? { type: "put", kv: value } : { type: "delete", kv: { key, value: NO_VALUE, modRevision: 0, lease: "0" } },
    );
  }
  for (const kv of older) changes.push({ type: "put", kv });
  const store = new LiveStore(live.snapshot, r.readAtMs);
  store.trimWindows(cutMs);
  const applied = store.rewindTo(r.revision, changes);
  const demand = new DemandIndex(live.tables);
  for (const target of applied.changedTargets) demand.touch(target);
  const snapshot = store.snapshot();
  return { snapshot, tables: demand.tables(snapshot) };
}
