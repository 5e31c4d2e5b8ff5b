import "server-only";
// The forecast journal's writer, run by the elected sampler beside the decision journal
// (lib/live/sampler.ts; console-api.md "Forecasts …": the journal samples forecasts, at most
// one a minute per table, and resolves them when the outcome happens). While this replica
// holds the election:
// * evaluate (with the decision journal's cadence): the live plan's forecasts sampled and the
//   outcomes seen (lib/journal/forecasts/sampler.ts), intervals set from the calibration the
//   answers read at the live revision (handed in with the inputs: one fold of the stored
//   chunks per process, lib/scheduler/forecast-ledger.ts, not a second one kept here);
// * flush (once a minute): the evaluations as one chunk under `P/console/forecasts/`, and
//   the trim of what retention and the byte cap drop, in ONE guarded txn;
// * rollup: a closed hour's chunks become one (lib/journal/rollup.ts `nextRollup`, the
//   decision journal's rule), so a 7-day read opens ~170 chunks, not ~10,000.
// A failed evaluation or write drops what was not written: the next chunk is marked with the
// gap before it, and the forecasts open across it are `lost`, never resolved by a guess.
import type { EtcdClient } from "@/lib/etcd/client";
import type { Election } from "@/lib/etcd/election";
import { readChunkKeys, readChunkValues } from "@/lib/etcd/forecast-store";
import { currentRevision } from "@/lib/etcd/paged-read";
import { replaceJournalChunks } from "@/lib/etcd/journal-store";
import { decodeForecastChunk, encodeForecastChunk } from "@/lib/journal/forecasts/codec";
import { ForecastLog } from "@/lib/journal/forecasts/log";
import {
  FORECAST_FLUSH_MS,
  FORECAST_ROLLUP_MS,
  forecastCount,
  outcomeCount,
  type ForecastChunk,
} from "@/lib/journal/forecasts/records";
import { ForecastSampler, type SamplerInputs } from "@/lib/journal/forecasts/sampler";
import { nextRollup } from "@/lib/journal/rollup";
import { forecastTrim } from "@/lib/journal/forecasts/trim";
import {
  forecastChunkKey,
  forecastPrefix,
  parseForecastChunkKey,
  type ForecastChunkMeta,
} from "@/lib/schema/forecast-keys";

export interface ForecastJournalOptions {
  /** the live moment's inputs (plan, legacy queue, task lookup, the calibration at its revision); null when nothing new was planned */
  evaluate: () => Promise<SamplerInputs | null>;
  retentionMs: number;
  maxBytes: number;
  /** one chunk per this period at most (default FORECAST_FLUSH_MS, a minute; tests write faster) */
  flushMs?: number;
}

const ROLLUP_MAX_BYTES = 768 * 1024;

export class ForecastWriter {
  private readonly log = new ForecastLog();
  private readonly sampler = new ForecastSampler();
  /** the chunks stored as this term knows them (read once a term, then kept by its own writes) */
  private metas: ForecastChunkMeta[] | null = null;
  /** this term has evaluated (a flush before has nothing to write) */
  private evaluated = false;
  private lastTrimMs = Number.NEGATIVE_INFINITY;
  private readonly writer: string;

  constructor(
    private readonly client: EtcdClient,
    private readonly prefix: string,
    private readonly election: Election,
    readonly opts: ForecastJournalOptions,
  ) {
    this.writer = election.replica.replace(/[^A-Za-z0-9]/g, "").slice(0, 8);
  }

  /** Leadership won or lost: what follows starts after a gap, and the stored chunks are read again. */
  restart(reason: "no_sampler" | "etcd_unavailable"): void {
    this.log.lost(reason);
    this.sampler.reset();
    this.metas = null;
    this.evaluated = false;
  }

  /** The stored chunk keys (read when this term does not know them: its start, or after a rollup that did not happen). */
  private async storedKeys(revision?: number): Promise<ForecastChunkMeta[]> {
    if (this.metas) return this.metas;
    const base = forecastPrefix(this.prefix);
    const at = revision ?? (await currentRevision(this.client, this.prefix));
    const kvs = await readChunkKeys(this.client, base, base, at);
    return (this.metas = kvs.flatMap((kv) => parseForecastChunkKey(this.prefix, kv.key) ?? []));
  }

  async evaluate(): Promise<void> {
    try {
      if (!this.evaluated) {
        this.metas = null;
        await this.storedKeys(); // once a term
        this.evaluated = true;
      }
      const inputs = await this.opts.evaluate();
      if (!inputs || !this.election.isHolder) return;
      this.log.observe(this.sampler.evaluate(inputs));
    } catch (e) {
      this.restart("etcd_unavailable");
      throw e;
    }
  }

  async flush(now = Date.now()): Promise<void> {
    if (!this.evaluated) return; // nothing evaluated this term yet
    let metas: ForecastChunkMeta[];
    try {
      metas = await this.storedKeys();
    } catch (e) {
      this.restart("etcd_unavailable");
      throw e;
    }
    const chunk = this.log.drain();
    const puts: { key: string; value: Buffer }[] = [];
    if (chunk) {
      const value = encodeForecastChunk(chunk);
      puts.push({ key: this.keyOf(chunk, value.length), value });
    }
    const deletes: { from: string; to: string }[] = [];
    if (now - this.lastTrimMs >= (this.opts.flushMs ?? FORECAST_FLUSH_MS)) {
      this.lastTrimMs = now;
      const keepFrom = forecastTrim(metas, now, this.opts.retentionMs, this.opts.maxBytes);
      if (keepFrom) deletes.push({ from: forecastPrefix(this.prefix), to: keepFrom });
    }
    if (puts.length === 0 && deletes.length === 0) return;
    try {
      if (!(await this.election.writeIfHolder(puts, deletes))) {
        this.restart("no_sampler");
        return;
      }
    } catch (e) {
      this.restart("etcd_unavailable");
      throw e;
    }
    const kept = deletes.length === 0 ? metas : metas.filter((m) => m.key >= deletes[0].to);
    this.metas = [...kept, ...puts.flatMap((p) => parseForecastChunkKey(this.prefix, p.key) ?? [])];
    // a rollup that fails costs nothing written: the keys are read again at the next flush
    await this.rollup(now).catch(() => (this.metas = null));
  }

  private keyOf(chunk: ForecastChunk, bytes: number): string {
    const meta = {
      kind: chunk.kind,
      from_ms: chunk.from_ms,
      to_ms: chunk.to_ms,
      entries: forecastCount(chunk),
      outcomes: outcomeCount(chunk),
      bytes,
    };
    return forecastChunkKey(this.prefix, meta, this.writer);
  }

  /** A closed hour's chunks as one (the same evaluations in the same order: every reader folds it alike). */
  private async rollup(now: number): Promise<void> {
    if (!this.election.isHolder || this.metas === null) return;
    const run = nextRollup(this.metas, now - (this.opts.flushMs ?? FORECAST_FLUSH_MS), {
      periodMs: FORECAST_ROLLUP_MS,
      maxBytes: ROLLUP_MAX_BYTES,
      maxParts: 200,
    });
    if (run === null) return;
    const revision = await currentRevision(this.client, this.prefix);
    const kvs = await readChunkValues(this.client, run[0].key, run[run.length - 1].key, revision);
    if (kvs.length !== run.length || kvs.some((kv, i) => kv.key !== run[i].key)) {
      this.metas = null;
      return;
    }
    const parts = kvs.map((kv) => decodeForecastChunk(kv.value));
    const chunk: ForecastChunk = {
      kind: "delta",
      from_ms: parts[0].from_ms,
      to_ms: parts[parts.length - 1].to_ms,
      evaluations: parts.flatMap((p) => p.evaluations),
    };
    const value = encodeForecastChunk(chunk);
    const key = this.keyOf(chunk, value.length);
    if (
      !(await replaceJournalChunks(
        this.client,
        this.election,
        run.map((m) => m.key),
        { key, value },
      ))
    ) {
      this.metas = null;
      return;
    }
    const rolled = new Set(run.map((m) => m.key));
    this.metas = [...this.metas.filter((m) => !rolled.has(m.key)), parseForecastChunkKey(this.prefix, key)!].sort(
      (a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
    );
  }
}
