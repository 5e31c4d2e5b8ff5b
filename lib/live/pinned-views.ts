import "server-only";
// The views of pinned revisions (`?revision=`) a live cache keeps (./cache.ts): put back from
// the live view when its change log holds every change since (./rewind.ts), else read in
// full, and kept in an LRU bounded by their estimated bytes (CONSOLE_MEMORY_MIB's share,
// ./memory-budget.ts). Concurrent requests for one revision share one read.
import { LRUCache } from "lru-cache";
import type { EtcdClient } from "@/lib/etcd/client";
import { TASKS_WINDOW_MS } from "@/lib/snapshot/build";
import type { FleetRead } from "@/lib/snapshot/read";
import { metrics } from "@/lib/metrics";
import type { ChangeLog } from "./change-log";
import { viewBytes } from "./memory-budget";
import { rewoundView } from "./rewind";
import { pinnedView, type Fleet, type FleetView } from "./view";

/** pinned views kept at most, whatever their bytes (each also counts against the budget) */
const PINNED_MAX = 8;

/** The live view as a pinned revision is put back from it. */
interface LiveNow {
  revision: number;
  /** the changes since the live view's read, each with the value before it */
  changes: ChangeLog;
  /** the live store holds the `tasks/` records from this time on */
  tasksSinceMs: number;
  view: () => FleetView;
}

/** What the pinned views ask of the live cache that holds them. */
export interface PinnedSource {
  client: EtcdClient;
  prefix: string;
  /** the live view now, or null while it is not live */
  live: () => LiveNow | null;
  /** a view with each unfinished execution's last progress */
  resolved: (view: FleetView) => Promise<FleetView>;
  /** fails fast when etcd is down */
  ping: () => Promise<unknown>;
  /** one full read at `revision`, counted in the read metrics */
  read: (opts: { revision: number; tasksSinceMs?: number }) => Promise<FleetRead>;
  /** a pinned read with more keys changed between it and the live view than this is read in full */
  rewindMaxKeys: number;
}

export class PinnedViews {
  /** least recently handed out first out; a view's place is renewed when `at` hands it out again */
  private readonly kept: LRUCache<number, FleetView>;
  /** pinned reads in flight: concurrent requests for one revision share one read */
  private readonly reading = new Map<number, Promise<FleetView>>();

  constructor(
    private readonly source: PinnedSource,
    maxBytes: number,
  ) {
    // a view over its share is not kept (lru-cache stores nothing past maxEntrySize = maxSize)
    this.kept = new LRUCache({
      max: PINNED_MAX,
      maxSize: maxBytes,
      // a view put back from the live one is set with its own size (see readPinned)
      sizeCalculation: (view) => viewBytes(view.snapshot),
    });
  }

  /**
   * The view at `revision`, kept, in flight or made now. `tasksSinceMs`: where its `tasks/`
   * window starts; `keep: false`: not kept (one of many read once).
   */
  async at(revision: number, opts: { tasksSinceMs?: number; keep?: boolean }): Promise<FleetView> {
    const kept = this.kept.get(revision); // most recently used now
    if (kept) {
      const view = await this.source.resolved(kept); // a date still open is looked at again
      if (view !== kept && this.kept.peek(revision) === kept)
        this.kept.set(revision, view, { size: this.kept.info(revision)?.size });
      return view;
    }
    const inFlight = this.reading.get(revision);
    if (inFlight) return inFlight;
    // `keep: false` (a history point): read it without pushing the pages' pinned views out
    if (opts.keep === false) return (await this.readPinned(revision, opts.tasksSinceMs)).view;
    const read = this.readPinned(revision, opts.tasksSinceMs).then(({ view, bytes }) => {
      this.kept.set(revision, view, { size: bytes });
      return view;
    });
    this.reading.set(revision, read);
    const forget = () => this.reading.get(revision) === read && this.reading.delete(revision);
    read.then(forget, forget);
    return read;
  }

  /** Whether `revision` is kept, being read, or put back from the live view: answered without a read of its own. */
  holds(revision: number): boolean {
    return this.kept.has(revision) || this.reading.has(revision) || this.rewindable(revision);
  }

  /** Whether `revision` is put back from the live view (./rewind.ts), not read in full. */
  rewindable(revision: number): boolean {
    return this.valuesAt(revision) !== null;
  }

  /** How many views are kept and their estimated bytes. */
  memory(): { views: number; bytes: number } {
    return { views: this.kept.size, bytes: this.kept.calculatedSize };
  }

  /** The values to put `revision` back with, from the live view's change log; null: read it in full. */
  private valuesAt(revision: number) {
    const live = this.source.live();
    if (live === null || revision >= live.revision) return null;
    const values = live.changes.valuesAt(revision);
    return values !== null && values.length <= this.source.rewindMaxKeys ? { live, values } : null;
  }

  /** The view at `revision` (put back or read) and its estimated bytes (./memory-budget.ts). */
  private async readPinned(
    revision: number,
    tasksSinceMs: number | undefined,
  ): Promise<{ view: FleetView; bytes: number }> {
    const { source } = this;
    const started = performance.now();
    const rewinding = this.rewound(revision, tasksSinceMs); // from the live view as it is now
    const rewound = await rewinding?.fleet.catch(() => null);
    if (rewound && rewinding) {
      metrics().snapshotReadSeconds.observe({ mode: "rewound" }, (performance.now() - started) / 1000);
      metrics().pinnedViews.inc({ path: "rewound" });
      const view = await source.resolved(pinnedView(rewound, revision));
      return { view, bytes: viewBytes(rewound.snapshot, rewinding.valueBytes) };
    }
    await source.ping(); // fail fast when etcd is down
    const read = await source.read({ revision, tasksSinceMs });
    metrics().pinnedViews.inc({ path: "read" });
    const view = await source.resolved(pinnedView(read, revision));
    return { view, bytes: viewBytes(read.snapshot) };
  }

  /** The fleet at `revision` put back from the live view when the change log holds every change since; null: read it in full. */
  private rewound(
    revision: number,
    tasksSinceMs: number | undefined,
  ): { fleet: Promise<Fleet>; valueBytes: number } | null {
    const at = this.valuesAt(revision);
    if (at === null) return null;
    const { live, values } = at;
    const readAtMs = Date.now();
    const fleet = rewoundView(this.source.client, this.source.prefix, live.view(), {
      revision,
      values,
      readAtMs,
      tasksSinceMs: tasksSinceMs ?? readAtMs - TASKS_WINDOW_MS,
      heldTasksSinceMs: live.tasksSinceMs,
    });
    return { fleet, valueBytes: values.reduce((n, v) => n + (v.value?.value.length ?? 0), 0) };
  }
}
