import "server-only";
// One etcd watch on a prefix, for the console's live snapshot (lib/live). Each etcd watch
// response is delivered as ONE batch with its header revision, so the cache applies whole
// transactions and always sits at a single revision. etcd3's own reconnect is NOT used:
// it restarts from the create response's header revision and can drop the events in
// between; a break (compaction, stream error, etcd restart) is reported once and the
// owner re-reads and re-watches from a known revision.
import type { IWatchResponse, Watcher } from "etcd3";
import type { EtcdClient } from "./client";
import { raw } from "./raw";
import type { WatchBreak } from "@/lib/schema/watch-break";
import { DeadlineExceeded, LOOP_STEP_MS, withDeadline } from "@/lib/util/deadline";
import type { RawKv } from "./paged-read";
import { EtcdTimeout, toEtcdError } from "./errors";

export interface WatchChange {
  type: "put" | "delete";
  kv: RawKv;
  /**
   * With `previousValues`: the key's value just before this change (null: the key did not
   * exist). Undefined when not asked for, or when etcd left it out of an event that had one
   * (it does so silently when it cannot read it, e.g. compacted meanwhile).
   */
  prev?: RawKv | null;
}

export interface WatchBatch {
  /** etcd header revision of the response: the store is at least here */
  revision: number;
  changes: WatchChange[];
}

export type { WatchBreak };

export interface PrefixWatch {
  cancel(): Promise<void>;
}

export interface WatchOptions {
  /** first revision to deliver (the snapshot's revision + 1) */
  fromRevision: number;
  onBatch(batch: WatchBatch): void;
  /** called at most once; the watch is already cancelled */
  onBreak(why: WatchBreak): void;
  /** how long creating the watch may take before EtcdTimeout (default 2,000 ms) */
  createTimeoutMs?: number;
  /** deliver each change's previous value (`WatchChange.prev`) */
  previousValues?: boolean;
}

type EventKv = IWatchResponse["events"][number]["kv"];

const toRaw = (kv: EventKv): RawKv => ({
  key: kv.key.toString("utf8"),
  value: kv.value,
  modRevision: Number(kv.mod_revision),
  lease: String(kv.lease),
});

function toChange(ev: IWatchResponse["events"][number]): WatchChange {
  return { type: ev.type === "Delete" ? "delete" : "put", kv: toRaw(ev.kv) };
}

/**
 * The change with its previous value. A put of version 1 created the key (nothing before
 * it); any other put, and every delete, had a value before: when etcd sent none, it is not
 * known (undefined), never taken for "did not exist".
 */
function withPrev(ev: IWatchResponse["events"][number]): WatchChange {
  const change = toChange(ev);
  if (ev.prev_kv) change.prev = toRaw(ev.prev_kv);
  else if (ev.type !== "Delete" && Number(ev.kv.version) === 1) change.prev = null;
  return change;
}

/** Watches `prefix` from `fromRevision`; resolves once etcd confirmed the watch. */
export async function watchPrefix(etcd: EtcdClient, prefix: string, opts: WatchOptions): Promise<PrefixWatch> {
  const client = raw(etcd);
  const builder = client.watch().prefix(prefix).startRevision(String(opts.fromRevision));
  if (opts.previousValues) builder.withPreviousKV();
  const convert = opts.previousValues ? withPrev : toChange;
  let watcher: Watcher | null = null;
  let broken = false;
  let creating = true;
  const stop = async (w: Watcher | null) => {
    if (!w) return;
    w.removeAllListeners("data");
    await withDeadline(w.cancel(), 500, "watch cancel").catch(() => undefined);
  };
  const fail = (why: WatchBreak) => {
    if (broken) return;
    broken = true;
    const w = watcher;
    void stop(w);
    if (!creating) opts.onBreak(why);
  };

  const w = builder.watcher();
  watcher = w;
  w.on("data", (res: IWatchResponse) => {
    if (broken) return;
    if (res.canceled) return; // reported through "error" below
    opts.onBatch({ revision: Number(res.header.revision), changes: res.events.map(convert) });
  });
  w.on("error", (e: Error) => {
    const detail = e.message;
    // etcd cancels a watch whose start revision was compacted with an empty cancel reason
    fail(
      /compact/i.test(detail) || /Watcher canceled: $/.test(detail)
        ? { reason: "compacted", detail }
        : { reason: "cancelled", detail },
    );
  });
  w.on("disconnected", (e: Error) => fail({ reason: "disconnected", detail: e?.message ?? "stream closed" }));

  const timeoutMs = opts.createTimeoutMs ?? 2000;
  try {
    const created = new Promise<void>((resolve, reject) => {
      w.once("connected", () => resolve());
      w.once("error", (e: Error) => reject(e));
      w.once("disconnected", (e: Error) =>
        reject(toEtcdError(e ?? new Error("watch stream closed"), `watch ${prefix}`)),
      );
    });
    // in event-loop time: a watch created while the thread was held is not etcd failing
    await withDeadline(created, timeoutMs, `watch ${prefix}`, { loopStepMs: LOOP_STEP_MS }).catch((e: unknown) => {
      created.catch(() => undefined);
      throw e instanceof DeadlineExceeded ? new EtcdTimeout(`watch ${prefix} not created within ${timeoutMs} ms`) : e;
    });
  } catch (e) {
    broken = true;
    await stop(w);
    throw e;
  }
  creating = false;
  if (broken) throw new Error(`watch ${prefix} broke while being created`);
  return {
    async cancel() {
      if (broken) return;
      broken = true;
      await stop(w);
    },
  };
}
