import "server-only";
// The decision journal's writer, run by the elected sampler (./sampler.ts; console-api.md
// "The decision journal"). Two loops while this replica holds the election:
// * evaluate (CONSOLE_JOURNAL_EVAL_MS): the live plan's entries go into the in-memory log
//   (lib/journal/log.ts), which keeps only the tables whose entry changed; the cadence
//   enters time-driven changes (promotion at the wait floor, stall at the idle timeout) at
//   the evaluation that first sees them, not at the next etcd change;
// * flush (CONSOLE_JOURNAL_FLUSH_MS): the drained chunks, and once a minute the trim of
//   what retention and the byte cap drop, in ONE guarded txn — the console is a guest in
//   the master's etcd.
// * rollup: once per flush, the deltas of one closed period (ROLLUP_MS) become one chunk
//   (lib/journal/rollup.ts), in a txn of its own guarded by the election and by the parts
//   still being there — a 6 h read then opens dozens of chunks, not thousands.
// A failed write keeps what it held and writes it first at the next flush (a chunk put again
// is the same key and value), and a failed evaluation is made again at the next period: a
// slow or briefly absent etcd loses nothing, so it leaves no gap. Only when etcd keeps
// failing for FAILING_GAP_MS is what was not written dropped, and the journal starts again
// with a checkpoint marked `etcd_unavailable`. A new leader starts with one marked
// `no_sampler`. So a gap is recorded whenever entries were lost, and only then, and no
// entry stands for an unevaluated moment.
import type { EtcdClient } from "@/lib/etcd/client";
import type { Election } from "@/lib/etcd/election";
import { readJournalKeys, readJournalValues, replaceJournalChunks } from "@/lib/etcd/journal-store";
import { journalPrefix, parseChunkKey, trimmedKey } from "@/lib/schema/keys";
import {
  chunkKey,
  decodeChunk,
  encodeChunk,
  JournalDecodeError,
  type ChunkMeta,
  type JournalChunk,
} from "@/lib/journal/codec";
import { nextRollup, rollUp } from "@/lib/journal/rollup";
import { trimPlan } from "@/lib/journal/coverage";
import type { PlanEvaluation, TableState } from "@/lib/journal/entry";
import type { InputMarks } from "@/lib/journal/inputs";
import { JournalLog } from "@/lib/journal/log";

export interface JournalEvaluation extends PlanEvaluation {
  tables: ReadonlyMap<string, TableState>;
  /** a table's input marks at this evaluation (absent: entries are not marked) */
  marks?: (target: string) => InputMarks;
}

export interface JournalOptions {
  /** the live plan's entries now; null when there is no new plan since the last call */
  evaluate: () => Promise<JournalEvaluation | null>;
  retentionMs: number;
  maxBytes: number;
  flushMs: number;
  evalMs: number;
  checkpointMs: number;
  /** how often the trim is considered (default one minute) */
  trimEveryMs?: number;
  /** the period whose deltas are rolled up into one chunk once closed (default ROLLUP_MS) */
  rollupMs?: number;
}

/** a closed 10 min of deltas (120 flushes) becomes one chunk: 36 chunks for a 6 h read */
export const ROLLUP_MS = 600_000;
/** a rollup's parts at most: their stored bytes (well under etcd's 1.5 MiB request) and count */
const ROLLUP_MAX_BYTES = 768 * 1024;
const ROLLUP_MAX_PARTS = 2_000;

/** a delta chunk is closed past this many entries (a few hundred KB at most once compressed) */
const MAX_CHUNK_ENTRIES = 20_000;

/**
 * etcd failing the journal's writes (or the live view its evaluations) this long is etcd
 * unreachable: what was held is dropped and a gap recorded. Shorter failures are retried.
 */
const FAILING_GAP_MS = 30_000;

export class JournalWriter {
  private log: JournalLog;
  private lastTrimMs = Number.NEGATIVE_INFINITY;
  /**
   * The stored chunks' keys as this term knows them: read once per term, then kept by this
   * writer's own puts and deletes (only the election holder writes), so a trim check is not
   * a read of every key each minute. null: read on the next trim.
   */
  private metas: ChunkMeta[] | null = null;
  private readonly writer: string;

  constructor(
    private readonly client: EtcdClient,
    private readonly prefix: string,
    private readonly election: Election,
    readonly opts: JournalOptions,
  ) {
    this.writer = election.replica.replace(/[^A-Za-z0-9]/g, "").slice(0, 8);
    this.log = this.newLog();
  }

  private newLog(): JournalLog {
    return new JournalLog({
      checkpointEveryMs: this.opts.checkpointMs,
      idleExtendMs: Math.max(60_000, this.opts.flushMs),
      maxChunkEntries: MAX_CHUNK_ENTRIES,
    });
  }

  /** Leadership won or lost: what follows starts with a checkpoint after a gap with this reason. */
  restart(reason: "no_sampler" | "etcd_unavailable"): void {
    this.log.lost(reason);
    this.metas = null;
    this.unwritten = [];
    this.failingSinceMs = null;
  }

  /** when an evaluation or write of this journal last failed on etcd (0: never) */
  lastFailureMs = 0;
  /** since when evaluations or writes fail without one succeeding (null: they do not) */
  private failingSinceMs: number | null = null;
  /** chunks drained whose write failed: put first at the next flush */
  private unwritten: { key: string; value: string | Buffer }[] = [];

  /**
   * An evaluation or a write failed at `now`: kept for the next period, or, once etcd has
   * failed for FAILING_GAP_MS, dropped with a gap (`etcd_unavailable`).
   */
  private failed(now: number): void {
    this.lastFailureMs = now;
    this.metas = null;
    this.failingSinceMs ??= now;
    if (now - this.failingSinceMs < FAILING_GAP_MS) return;
    this.log.lost("etcd_unavailable");
    this.unwritten = [];
    this.failingSinceMs = null;
  }

  async evaluate(): Promise<void> {
    let ev: JournalEvaluation | null;
    try {
      ev = await this.opts.evaluate();
    } catch (e) {
      this.failed(Date.now());
      throw e;
    }
    this.failingSinceMs = null;
    if (ev && this.election.isHolder) {
      const at: PlanEvaluation = { revision: ev.revision, now_ms: ev.now_ms };
      if (ev.capacities) at.capacities = ev.capacities;
      this.log.observe(at, ev.tables, ev.marks);
    }
  }

  async flush(): Promise<void> {
    const now = Date.now();
    const chunks = this.log.drain(now);
    const written: { key: string; value: string | Buffer }[] = [
      ...this.unwritten,
      ...chunks.map((chunk) => {
        const value = encodeChunk(chunk);
        return { key: chunkKey(this.prefix, chunk, value.length, this.writer), value };
      }),
    ];
    this.unwritten = [];
    const puts = [...written];
    const deletes: { from: string; to: string }[] = [];
    try {
      if (now - this.lastTrimMs >= (this.opts.trimEveryMs ?? 60_000)) {
        this.lastTrimMs = now;
        this.metas ??= (await readJournalKeys(this.client, journalPrefix(this.prefix)))
          .map((k) => parseChunkKey(this.prefix, k))
          .filter((m): m is ChunkMeta => m !== null);
        // stored chunks only: the newest stored segment stays, so the delete never meets this txn's puts
        const plan = trimPlan(this.metas, now, this.opts.retentionMs, this.opts.maxBytes);
        if (plan.keepFromKey) deletes.push({ from: journalPrefix(this.prefix), to: plan.keepFromKey });
        if (plan.trimmedToMs !== null)
          puts.push({ key: trimmedKey(this.prefix), value: JSON.stringify({ to_ms: plan.trimmedToMs }) });
      }
      if (puts.length === 0 && deletes.length === 0) return await this.rollupQuietly(now);
      if (!(await this.election.writeIfHolder(puts, deletes))) {
        this.log.lost("no_sampler");
        this.metas = null;
        return;
      }
      this.failingSinceMs = null;
      if (this.metas) {
        const kept = deletes.length === 0 ? this.metas : this.metas.filter((m) => m.key >= deletes[0].to);
        // a chunk written again (its first write timed out yet took) is known already
        const known = new Set(kept.map((m) => m.key));
        this.metas = [
          ...kept,
          ...puts.flatMap((p) => (known.has(p.key) ? [] : (parseChunkKey(this.prefix, p.key) ?? []))),
        ];
      }
    } catch (e) {
      this.unwritten = written;
      this.failed(now);
      throw e;
    }
    await this.rollupQuietly(now);
  }

  /** not before this (a rollup that failed is tried again a period later, not every flush) */
  private rollupAfterMs = 0;

  /**
   * A rollup failing costs nothing written (the entries are stored already), so it is no
   * journal gap: the stored keys are read again, and it is tried again a period later.
   */
  private async rollupQuietly(now: number): Promise<void> {
    if (now < this.rollupAfterMs) return;
    try {
      await this.rollup(now);
    } catch {
      this.metas = null;
      this.rollupAfterMs = now + (this.opts.rollupMs ?? ROLLUP_MS);
    }
  }

  /**
   * One closed period's deltas as one chunk (lib/journal/rollup.ts), when there is one. The
   * stored keys are this term's (read once, then kept by its own writes); a rollup that did
   * not happen (deposed, or the parts changed under it) reads them again next time.
   */
  private async rollup(now: number): Promise<void> {
    if (!this.election.isHolder) return;
    const base = journalPrefix(this.prefix);
    this.metas ??= (await readJournalKeys(this.client, base))
      .map((k) => parseChunkKey(this.prefix, k))
      .filter((m): m is ChunkMeta => m !== null);
    const run = nextRollup(this.metas, now - this.opts.flushMs, {
      periodMs: this.opts.rollupMs ?? ROLLUP_MS,
      maxBytes: ROLLUP_MAX_BYTES,
      maxParts: ROLLUP_MAX_PARTS,
    });
    if (run === null) return;
    const last = run[run.length - 1].key;
    const kvs = await readJournalValues(this.client, base, run[0].key, `${last}\u0000`);
    if (kvs.length !== run.length || kvs.some((kv, i) => kv.key !== run[i].key)) {
      this.metas = null; // the stored keys are not what this term thought
      return;
    }
    let chunk: JournalChunk;
    try {
      chunk = rollUp(kvs.map((kv) => decodeChunk(kv.value)));
    } catch (e) {
      if (!(e instanceof JournalDecodeError)) throw e;
      return; // a part this console cannot read stays as it is (its readers count it and re-plan around it)
    }
    const value = encodeChunk(chunk);
    const key = chunkKey(this.prefix, chunk, value.length, this.writer);
    const done = await replaceJournalChunks(
      this.client,
      this.election,
      run.map((m) => m.key),
      { key, value },
    );
    if (!done) {
      this.metas = null;
      return;
    }
    const rolled = new Set(run.map((m) => m.key));
    this.metas = [...this.metas.filter((m) => !rolled.has(m.key)), parseChunkKey(this.prefix, key)!].sort((a, b) =>
      a.key < b.key ? -1 : a.key > b.key ? 1 : 0,
    );
  }
}
