import "server-only";
// The live snapshot cache. The first full read (at process start, lib/process/background.ts) reads
// the fleet at one revision through the one fleet reader (lib/snapshot/read.ts); then ONE etcd
// watch on the prefix (from that revision + 1) patches it, so a request costs no etcd read while
// nothing changed and a change costs work proportional to it (the touched keys are re-parsed, the
// touched tables re-folded). A broken watch (compaction, etcd restart) triggers one re-read and a
// new watch. `?revision=R` reads are pinned snapshots kept in an LRU bounded by their estimated
// bytes (CONSOLE_MEMORY_MIB, ./pinned-views.ts). Without etcd, requests fail fast (typed 503).
import pLimit, { type LimitFunction } from "p-limit";
import type { EtcdClient as Etcd3 } from "@/lib/etcd/client";
import { etcdClient, etcdPrefix } from "@/lib/etcd/client";
import { watchPrefix, type PrefixWatch, type WatchBatch, type WatchBreak } from "@/lib/etcd/watch";
import { pingEtcd } from "./etcd-ping";
import { Admission, HEAVY_WORK } from "./admission";
import { OffloadPool, offloadOptions, readHintsGiven } from "./offload-pool";
import { RevisionWaiters } from "./revision-waiters";
import { ChangeLog } from "./change-log";
import { HeldViews } from "./held-views";
import { PinnedViews } from "./pinned-views";
import { UNRESOLVED, type FleetView } from "./view";
import type { CacheMemory, CacheStatus } from "./cache-figures";
import { ViewProgress } from "./view-progress";
import { RevisionClock, revisionClock } from "@/lib/live/revision-clock";
import { TASKS_WINDOW_MS } from "@/lib/snapshot/build";
import { DemandIndex } from "@/lib/snapshot/demand-index";
import { countedReads, type CountedRead, recordSkipped } from "./counted-read";
import { consoleEnv } from "@/lib/config/env";
import { memoryShares } from "./memory-budget";
import { metrics } from "@/lib/metrics";
import { LiveStore } from "@/lib/snapshot/store";

export type { FleetView };

/** a live watch is trusted this long without any sign of life before we ping etcd */
const TRUST_WATCH_MS = 10_000;
/** how often the live store drops `tasks/` records older than its 24 h window */
const TRIM_EVERY_MS = 60_000;
/**
 * Whole fleets of other moments read and planned at once for the points of histories, all
 * requests together: one's etcd read overlaps the other's plan on the one thread, and two
 * histories at once hold no more fleets than one (a pool per request bounded nothing).
 */
const WHOLE_FLEETS_AT_ONCE = 2;

interface LiveState {
  /** distinguishes the states of successive full reads */
  id: number;
  store: LiveStore;
  demand: DemandIndex;
  watch: PrefixWatch | null;
  live: boolean;
  /** last time etcd proved the cache current (watch message or ping) */
  confirmedMs: number;
  view: FleetView | null;
  /** when the store last dropped records that left the `tasks/` window */
  trimmedMs: number;
  /** the store holds the `tasks/` records from the UUIDv7 of this time on */
  tasksSinceMs: number;
  /** the last changes applied since the read, each with the value before it (a pinned read near the live view is put back with them) */
  changes: ChangeLog;
}

export interface LiveCacheOptions {
  /** a pinned read with more keys changed between it and the live view than this is read in full */
  rewindMaxKeys?: number;
  /** the revision clock of the same etcd and prefix, which dates each execution's progress (default: one of its own) */
  clock?: RevisionClock;
  /** CONSOLE_MEMORY_MIB in bytes (default 1 GiB): bounds the pinned views and the change log (./memory-budget.ts) */
  memoryBudgetBytes?: number;
  /** the offload worker's bundle: other moments are answered there (./offload-pool.ts); none: on this thread */
  offloadWorkerFile?: string;
  /** the offload worker's own cache: pinned views only, never a live view or a watch */
  pinnedOnly?: boolean;
}

export class LiveCache {
  private state: LiveState | null = null;
  private refreshing: Promise<LiveState> | null = null;
  /** the pinned views: put back from the live view or read, kept within their share of the budget */
  private readonly pinned: PinnedViews;
  private readonly changeLogBytes: number;
  private retryTimer: NodeJS.Timeout | null = null;
  /** the one fleet reader's full reads, counted */
  private readonly read: CountedRead;
  private lastRefolds = 0;
  private reads = 0;
  /** the recent live views and those other modules still hold (see holdViews) */
  private readonly held = new HeldViews();
  /** requests waiting for the live view to reach a revision (awaitRevision), woken by the watch */
  private waiters = new RevisionWaiters();
  /** when a re-read after a broken watch last failed (etcd away); 0: never. The journal names its gaps by it. */
  lastUnavailableMs = 0;
  /** when etcd was last found away (health found no member answering, or a request answered 503): a live view confirmed before it asks etcd again */
  private doubtedMs = 0;
  /** each view's running merges with their last progress, from etcd's history (./view-progress.ts) */
  private readonly progress: ViewProgress;
  /** the one gate of heavy work in this process (reads and plans of other moments; lib/http/handler.ts admits through it) */
  readonly heavyWork = new Admission(HEAVY_WORK);
  /** the one bound on whole fleets of other moments read and planned at once (history points) */
  readonly wholeFleets: LimitFunction = pLimit(WHOLE_FLEETS_AT_ONCE);
  /** where requests for other moments are answered, off this thread (null: on it) */
  readonly offload: OffloadPool | null;

  constructor(
    private readonly client: Etcd3,
    readonly prefix: string,
    private readonly opts: LiveCacheOptions = {},
  ) {
    this.read = countedReads(client, prefix, readHintsGiven()); // the offload worker's: the request thread's hints
    const shares = memoryShares(opts.memoryBudgetBytes ?? 1024 * 1_048_576);
    this.changeLogBytes = shares.changeLog;
    this.pinned = new PinnedViews(
      {
        client,
        prefix,
        live: () => {
          const s = this.state;
          if (!s || !s.live) return null;
          return {
            revision: s.store.revision,
            changes: s.changes,
            tasksSinceMs: s.tasksSinceMs,
            view: () => this.viewOf(s),
          };
        },
        resolved: (view) => this.resolved(view),
        ping: () => this.ping(),
        read: (at) => this.read("pinned", at),
        rewindMaxKeys: opts.rewindMaxKeys ?? Infinity,
      },
      shares.pinnedViews,
    );
    this.progress = new ViewProgress(client, prefix, opts.clock ?? new RevisionClock(client, prefix));
    const readHints = () => this.read.hints(); // each new worker's reader starts from them
    this.offload = opts.offloadWorkerFile ? new OffloadPool(opts.offloadWorkerFile, { readHints }) : null;
  }

  /** The fleet at the newest revision this replica knows to be current. */
  async current(): Promise<FleetView> {
    if (this.opts.pinnedOnly)
      throw new Error("the offload worker keeps no live view: only pinned moments are sent to it");
    let s = this.state;
    if (!s || !s.live) s = await this.refresh("watch_broken");
    else if (Date.now() - s.confirmedMs > TRUST_WATCH_MS || this.doubtedMs > s.confirmedMs) {
      await this.ping();
      s.confirmedMs = Date.now();
    }
    return this.resolved(this.viewOf(s), s);
  }

  /**
   * `view` with each unfinished execution's last progress (./view-progress.ts): every view
   * handed out goes through here. `s`: the live state whose view it is, which keeps the result.
   */
  private async resolved(view: FleetView, s?: LiveState): Promise<FleetView> {
    const out = await this.progress.resolved(view);
    if (out !== view && s && s.view !== null && s.view.revision === out.revision && s.view.live === out.live)
      s.view = { ...out, readAtMs: s.view.readAtMs };
    return out;
  }

  /**
   * The fleet at a pinned revision (time travel); the live view when it is that revision.
   * `tasksSinceMs`: where its `tasks/` window starts (the revision's time − 24 h);
   * `keep: false`: not kept among the pinned views (one of many read once).
   */
  async at(revision: number, opts: { tasksSinceMs?: number; keep?: boolean } = {}): Promise<FleetView> {
    // a revision the live cache holds (or held recently) needs no read; it is still a pinned answer
    const known = this.known(revision);
    if (known) return this.resolved({ ...known, live: false, pinned: true });
    return this.pinned.at(revision, opts);
  }

  /**
   * `holder` (lib/live/plan.ts: the views of its plans) now holds exactly `views`, so a
   * pinned request or a cursor at one of their revisions needs no read while only it keeps
   * them. Data in a registry the cache owns: the cache never calls back into its holders.
   */
  holdViews(holder: string, views: readonly FleetView[]): void {
    this.held.hold(holder, views);
  }

  /**
   * Resolves true once the live view holds `revision` (a write this replica must reflect),
   * false after `timeoutMs` (the caller reads pinned, or answers what it has). Event-driven:
   * the watch batch that reaches the revision, or a new full read past it, wakes the waiter.
   */
  awaitRevision(revision: number, timeoutMs: number): Promise<boolean> {
    const s = this.state;
    if (s && s.live && s.store.revision >= revision) return Promise.resolve(true);
    return this.waiters.wait(revision, timeoutMs);
  }

  /** Wakes the waiters whose revision the live view (`s`, connected) has now reached. */
  private wakeWaiters(s: LiveState): void {
    if (!s.live || this.state !== s) return;
    this.waiters.wake(s.store.revision);
  }

  /** The view of `revision` when this process holds it in memory (no read needed). */
  known(revision: number): FleetView | undefined {
    const s = this.state;
    return s && s.store.revision === revision ? this.viewOf(s) : this.held.find(revision);
  }

  /** Whether `revision` answers without etcd: held in memory, kept, being read, or put back from the live view. */
  holds(revision: number): boolean {
    return this.known(revision) !== undefined || this.pinned.holds(revision);
  }

  /** The offload worker to read or plan `revision` in, unless this process holds it or puts it back from the live view. */
  offloadFor(revision: number): OffloadPool | null {
    if (this.offload === null || this.known(revision) !== undefined || this.pinned.rewindable(revision)) return null;
    return this.offload;
  }

  /** What the cache keeps now (GET /api/v1/health `memory`). */
  memory(): CacheMemory {
    const worker = this.offload?.memory();
    const pinned = this.pinned.memory();
    return {
      held_views: this.held.count(this.state?.view ?? null) + (worker?.held_views ?? 0),
      pinned_views: pinned.views + (worker?.pinned_views ?? 0),
      pinned_bytes: pinned.bytes + (worker?.pinned_bytes ?? 0),
    };
  }

  status(): CacheStatus {
    const s = this.state;
    if (!s) return { revision: null, age_ms: null, live: false };
    return { revision: s.store.revision, age_ms: Math.max(0, Date.now() - s.confirmedMs), live: s.live };
  }

  /** Forgets the changes kept to put back recent revisions (a cache by bytes that fills as etcd is written). */
  forgetChanges(): void {
    this.state?.changes.forget();
  }

  /** etcd just answered (health probe: a member with a leader): a connected watch is therefore current. */
  confirm(): void {
    if (this.state?.live) this.state.confirmedMs = Date.now();
  }

  /** etcd was found away (health: no member answers; or a request's 503): the next live answer asks etcd first. */
  doubt(): void {
    this.doubtedMs = Date.now();
  }

  /** Stop watching (tests, shutdown). */
  async close(): Promise<void> {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    await this.offload?.close();
    await this.state?.watch?.cancel();
    this.state = null;
  }

  private async ping(): Promise<number> {
    return pingEtcd(this.client, this.prefix);
  }

  private viewOf(s: LiveState): FleetView {
    if (s.view && s.view.revision === s.store.revision && s.view.live === s.live) {
      if (s.view.readAtMs !== s.confirmedMs) s.view = { ...s.view, readAtMs: s.confirmedMs };
      return s.view;
    }
    const snapshot = s.store.snapshot();
    const tables = s.demand.tables(snapshot);
    metrics().tableRefolds.inc(s.demand.refolds - this.lastRefolds);
    recordSkipped(snapshot);
    this.lastRefolds = s.demand.refolds;
    s.view = {
      snapshot,
      tables,
      revision: s.store.revision,
      readAtMs: s.confirmedMs,
      live: s.live,
      pinned: false,
      progress: UNRESOLVED,
      progressSettled: false,
      contentId: `${s.id}:${s.store.contentVersion}`,
    };
    this.held.remember(s.view);
    return s.view;
  }

  /** One full read + a new watch; concurrent callers share it. */
  private refresh(reason: string): Promise<LiveState> {
    this.refreshing ??= this.readAndWatch(reason).finally(() => (this.refreshing = null));
    return this.refreshing;
  }

  private async readAndWatch(reason: string): Promise<LiveState> {
    await this.ping(); // fail fast when etcd is down, before a full read
    const m = metrics();
    const { snapshot, tables } = await this.read("full", {}, this.state ? reason : "initial");
    const old = this.state;
    const s: LiveState = {
      id: ++this.reads,
      store: new LiveStore(snapshot),
      demand: new DemandIndex(tables),
      watch: null,
      live: false,
      confirmedMs: Date.now(),
      view: null,
      trimmedMs: Date.now(),
      tasksSinceMs: snapshot.readAtMs - TASKS_WINDOW_MS,
      changes: new ChangeLog(snapshot.revision, this.changeLogBytes),
    };
    this.lastRefolds = 0;
    await old?.watch?.cancel();
    this.state = s;
    recordSkipped(snapshot);
    try {
      s.watch = await watchPrefix(this.client, `${this.prefix}/`, {
        fromRevision: snapshot.revision + 1,
        previousValues: true, // each change's value before it, so a revision near the live one can be put back
        onBatch: (batch) => this.onBatch(s, batch),
        onBreak: (why) => this.onBreak(s, why),
      });
      s.live = this.state === s;
      this.wakeWaiters(s);
    } catch {
      this.scheduleRetry(s);
    }
    m.snapshotRevision.set(s.store.revision);
    m.snapshotLive.set(s.live ? 1 : 0);
    return s;
  }

  private onBatch(s: LiveState, batch: WatchBatch): void {
    if (this.state !== s) return;
    const m = metrics();
    const now = Date.now();
    if (now - s.trimmedMs >= TRIM_EVERY_MS) {
      s.trimmedMs = now;
      s.store.trimWindows(now - TASKS_WINDOW_MS);
      s.tasksSinceMs = now - TASKS_WINDOW_MS;
    }
    const applied = s.store.apply(batch, (family, change) => {
      m.watchEvents.inc({ type: change.type });
      s.changes.record(change.kv.modRevision, change.kv.key, change.prev);
      this.progress.learn(s.store, family, change);
    });
    for (const target of applied.changedTargets) s.demand.touch(target);
    s.confirmedMs = now;
    m.snapshotRevision.set(s.store.revision);
    this.wakeWaiters(s);
  }

  private onBreak(s: LiveState, why: WatchBreak): void {
    if (this.state !== s) return;
    s.live = false;
    s.watch = null;
    s.view = null;
    metrics().watchRestarts.inc({ reason: why.reason });
    metrics().snapshotLive.set(0);
    this.scheduleRetry(s);
  }

  /** Re-read once and resume in the background; back off while etcd stays away. */
  private scheduleRetry(s: LiveState, delayMs = 200): void {
    if (this.retryTimer || this.state !== s) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (this.state !== s || s.live) return;
      this.refresh("watch_broken").catch(() => {
        this.lastUnavailableMs = Date.now();
        this.scheduleRetry(s, Math.min(delayMs * 2, 5000));
      });
    }, delayMs);
    this.retryTimer.unref();
  }
}

let configured: LiveCache | undefined;

/** The process's cache for the configured etcd and prefix. */
export function liveCache(): LiveCache {
  return (configured ??= new LiveCache(etcdClient(), etcdPrefix(), {
    clock: revisionClock(),
    memoryBudgetBytes: consoleEnv().memoryBudgetBytes,
    ...offloadOptions(consoleEnv().offload),
  }));
}

/** Drops the process's cache (closing it), so the next `liveCache()` starts cold (benchmarks of cold answers). */
export async function dropLiveCache(): Promise<void> {
  const dropped = configured;
  configured = undefined;
  await dropped?.close();
}

/** The view a request asked for: pinned (`?revision=`) or live. */
export function fleetView(revision?: number, opts: { tasksSinceMs?: number; keep?: boolean } = {}): Promise<FleetView> {
  return revision === undefined ? liveCache().current() : liveCache().at(revision, opts);
}
