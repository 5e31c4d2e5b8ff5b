// The elected sampler's journal in memory, between etcd writes (console-api.md "The decision
// journal"): every evaluated plan goes in; only the tables whose entry changed are kept;
// `drain` hands out the chunks to write at most once per flush period (the sampler's loop
// decides when; one txn per drain keeps the write load small). Pure: times are parameters.
//
// A writer that starts (won the election) or lost a write begins again with a checkpoint
// of every table, marked with why the journal has a gap before it; it never continues a
// journal it could not write, so no entry stands for a moment nobody evaluated.
import { diffStates, type PlanEvaluation, type StateDiff, type TableState } from "./entry";
import type { ChunkKind, JournalChunk } from "./codec";
import type { InputMarks } from "./inputs";

export interface LogOptions {
  /** a periodic checkpoint at least this often (bounds what one moment's read decodes) */
  checkpointEveryMs: number;
  /** with nothing changed, an empty chunk extends the covered span this often */
  idleExtendMs: number;
  /** a chunk is closed past this many entries (keeps each etcd value well under the request limit) */
  maxChunkEntries: number;
}

type Restart = Extract<ChunkKind, "after_no_sampler" | "after_etcd_unavailable">;

export class JournalLog {
  /** the tables' entries as the journal (written and pending) says them; null: start again with a checkpoint */
  private state: ReadonlyMap<string, TableState> | null = null;
  private restart: Restart = "after_no_sampler";
  private closed: JournalChunk[] = [];
  private open: JournalChunk | null = null;
  private openEntries = 0;
  /** the newest evaluation seen (it extends the covered span even when nothing changed) */
  private tip: PlanEvaluation | null = null;
  /** the end of the last chunk handed out */
  private handedTo: number | null = null;
  private lastCheckpointMs = Number.NEGATIVE_INFINITY;
  private lastDrainMs = Number.NEGATIVE_INFINITY;

  constructor(private readonly opts: LogOptions) {}

  /**
   * One evaluated plan. An evaluation older than the newest seen is ignored (plans are only
   * entered forward). `tables` is kept, not copied: hand a new map when any entry changed
   * (planStates does); the same map again says that none did.
   * `marks`: the table's input marks at this evaluation (./inputs.ts), set on each delta entry
   * (a checkpoint's rows restate every table and are not marked: marking them all costs more).
   */
  observe(ev: PlanEvaluation, tables: ReadonlyMap<string, TableState>, marks?: (target: string) => InputMarks): void {
    const tip = this.tip;
    if (tip && (ev.now_ms < tip.now_ms || (ev.now_ms === tip.now_ms && ev.revision <= tip.revision))) return;
    if (this.state !== null && ev.now_ms - this.lastCheckpointMs < this.opts.checkpointEveryMs) {
      this.enter(ev, tables, marks);
      return;
    }
    const kind: ChunkKind = this.state === null ? this.restart : "restated";
    // a periodic checkpoint's evaluation goes into the deltas first, so they hold every
    // evaluation, and the checkpoint after them only restates the state they reach: a reader
    // already folding from an earlier checkpoint skips it unread (./window.ts `chunkRuns`).
    // Key order holds (lib/schema/keys.ts): the evaluation before this one is at an earlier
    // ms (at the same ms it would have been the one due), so the delta ending here starts
    // before the restatement, and the delta after it starts at it ("d" sorts after "b").
    // the restatement's rows: every entry, those the delta marked as it marked them
    const rows = new Map(tables);
    if (kind === "restated")
      for (const [target, marked] of this.enter(ev, tables, marks, true)) rows.set(target, marked);
    this.closeOpen(); // the chunk before ends at the previous evaluation (a restatement: at this one)
    this.tip = ev;
    this.state = tables;
    this.open = {
      kind,
      from_ms: ev.now_ms,
      to_ms: ev.now_ms,
      evaluations: [{ ...ev, changed: rows, removed: [] }],
    };
    this.openEntries = rows.size;
    this.lastCheckpointMs = ev.now_ms;
    if (kind === "restated") this.closeOpen(); // it stands alone: what follows is a new delta
  }

  /**
   * `ev` as a delta: the tables whose entry changed since the last evaluation entered. An
   * evaluation that changed nothing only extends the delta's span, unless `always` (a
   * restatement's: the deltas then name the very evaluation the restatement does). Returns
   * the entries it entered (marked with their inputs when `marks` is given: copies, the
   * entries handed in are never changed; a plan's entries are kept by the sampler for the
   * next plan's, lib/journal/entry.ts planStates).
   */
  private enter(
    ev: PlanEvaluation,
    tables: ReadonlyMap<string, TableState>,
    marks?: (target: string) => InputMarks,
    always = false,
  ): ReadonlyMap<string, TableState> {
    // the very entries entered last (the same plan, evaluated at a newer revision): nothing changed
    const diff: StateDiff =
      tables === this.state ? { changed: new Map(), removed: [] } : diffStates(this.state!, tables);
    this.state = tables;
    const entries = diff.changed.size + diff.removed.length;
    if (entries === 0 && !always) {
      this.tip = ev;
      if (this.open) this.open.to_ms = ev.now_ms;
      return diff.changed;
    }
    if (marks) for (const [target, st] of diff.changed) diff.changed.set(target, { ...st, inputs: marks(target) });
    // a full chunk ends at the evaluation before this one, which starts the next
    if (this.open && this.openEntries + entries > this.opts.maxChunkEntries) this.closeOpen();
    this.tip = ev;
    const from = this.closed.at(-1)?.to_ms ?? this.handedTo ?? ev.now_ms;
    this.open ??= { kind: "delta", from_ms: from, to_ms: ev.now_ms, evaluations: [] };
    this.open.evaluations.push({ ...ev, ...diff });
    this.open.to_ms = ev.now_ms;
    this.openEntries += entries;
    return diff.changed;
  }

  /**
   * The chunks to write now (empty: nothing to write yet). They are handed out once: the
   * caller writes them all in one txn, and calls `lost` when that fails.
   */
  drain(wallMs: number): JournalChunk[] {
    this.closeOpen();
    if (
      this.closed.length === 0 &&
      this.tip &&
      this.handedTo !== null &&
      this.tip.now_ms > this.handedTo &&
      wallMs - this.lastDrainMs >= this.opts.idleExtendMs
    ) {
      // nothing changed for a while: say so, so the coverage reaches the present
      this.closed.push({ kind: "delta", from_ms: this.handedTo, to_ms: this.tip.now_ms, evaluations: [] });
    }
    const out = this.closed;
    if (out.length === 0) return out;
    this.closed = [];
    this.handedTo = out.at(-1)!.to_ms;
    this.lastDrainMs = wallMs;
    return out;
  }

  /** A write failed or etcd could not be read: what was not written is dropped, and the journal starts again after a gap. */
  lost(reason: "etcd_unavailable" | "no_sampler"): void {
    this.restart = reason === "etcd_unavailable" ? "after_etcd_unavailable" : "after_no_sampler";
    this.state = null;
    this.closed = [];
    this.open = null;
    this.openEntries = 0;
    this.handedTo = null;
    this.lastCheckpointMs = Number.NEGATIVE_INFINITY;
  }

  private closeOpen(): void {
    if (!this.open) return;
    if (this.tip && this.tip.now_ms > this.open.to_ms) this.open.to_ms = this.tip.now_ms;
    this.closed.push(this.open);
    this.open = null;
    this.openEntries = 0;
  }
}
