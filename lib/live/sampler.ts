import "server-only";
// Durable samples kept by ONE elected console replica (lib/etcd/election.ts holds
// `P/console/sampler`):
// * the revision clock (console-api.md "Time"): every CLOCK_SAMPLE_MS, (wall time, current
//   revision) at `P/console/revision-clock/<15-digit at_ms>`, kept CLOCK_TTL_SECS;
// * shadow history: once a minute the shadow outcome counts at
//   `P/console/shadow-history/<15-digit at_ms>`, kept HISTORY_TTL_SECS.
// * the decision journal (./journal.ts): the live plan's changed entries under
//   `P/console/journal/`, evaluated every CONSOLE_JOURNAL_EVAL_MS, written at most every
//   CONSOLE_JOURNAL_FLUSH_MS (console-api.md "The decision journal").
// All survive a console restart; a replica that dies hands over within one election TTL.
import { randomUUID } from "node:crypto";
import { etcdClient } from "@/lib/etcd/client";
import { Election, RollingLease } from "@/lib/etcd/election";
import { currentRevision, readPrefixPaged } from "@/lib/etcd/paged-read";
import { metrics } from "@/lib/metrics";
import { JournalWriter, type JournalOptions } from "@/lib/live/journal";
import { ForecastWriter, type ForecastJournalOptions } from "@/lib/live/forecast-journal";
import { FORECAST_FLUSH_MS } from "@/lib/journal/forecasts/records";
import { shadowSampleSchema, type ShadowSample } from "@/lib/schema/api/shadow";
import { clockSampleSchema, type ClockSample } from "@/lib/schema/api/revisions";
import { clockKey, historyKey, historyPrefix, samplerElectionKey } from "@/lib/schema/keys";

type Client = ReturnType<typeof etcdClient>;

const HISTORY_TTL_SECS = 14 * 24 * 3600;
/** one history lease is reused this long, so a sample lives 14 days to 14 days + 1 h */
const HISTORY_LEASE_REUSE_MS = 3600_000;
/** revision-clock samples: every 5 s, kept 48 h (docs/operations.md "Revision clock") */
const CLOCK_SAMPLE_MS = 5000;
const CLOCK_TTL_SECS = 48 * 3600;
const CLOCK_LEASE_REUSE_MS = 600_000;
/** the longest a sample lives (48 h to 48 h 10 min, by when in its lease's reuse window it was written) */
export const CLOCK_KEPT_MS = CLOCK_TTL_SECS * 1000 + CLOCK_LEASE_REUSE_MS;

export interface SamplerOptions {
  client: Client;
  prefix: string;
  /** the counts to record now (null: nothing to record this time) */
  sample: () => Promise<ShadowSample | null>;
  intervalMs?: number;
  /** revision-clock period (default CLOCK_SAMPLE_MS) */
  clockIntervalMs?: number;
  electionTtlSecs?: number;
  retryMs?: number;
  /** the decision journal (absent: none is kept) */
  journal?: JournalOptions;
  /** the forecast journal, evaluated with the decision journal's cadence (absent: none is kept) */
  forecasts?: ForecastJournalOptions;
  /** when this process last found etcd away (its live cache's re-reads), 0: never — names a journal gap */
  etcdUnavailableMs?: () => number;
}

interface Loop {
  everyMs: number;
  timer: NodeJS.Timeout | null;
  run: () => Promise<void>;
}

export class ShadowSampler {
  readonly replica = randomUUID();
  private readonly election: Election;
  private stopped = false;
  private electionTimer: NodeJS.Timeout | null = null;
  private readonly historyLease: RollingLease;
  private readonly clockLease: RollingLease;
  private readonly loops: Loop[];
  readonly journal: JournalWriter | null;
  readonly forecasts: ForecastWriter | null;
  private readonly retryMs: number;
  /** one per leadership won or lost: a tick of an earlier term never re-arms its timer */
  private term = 0;

  constructor(private readonly opts: SamplerOptions) {
    this.retryMs = opts.retryMs ?? 1000;
    this.election = new Election(
      opts.client,
      samplerElectionKey(opts.prefix),
      this.replica,
      opts.electionTtlSecs ?? 10,
      () => this.setLeader(false),
    );
    this.historyLease = new RollingLease(opts.client, HISTORY_TTL_SECS, HISTORY_LEASE_REUSE_MS);
    this.clockLease = new RollingLease(opts.client, CLOCK_TTL_SECS, CLOCK_LEASE_REUSE_MS);
    this.loops = [
      { everyMs: opts.clockIntervalMs ?? CLOCK_SAMPLE_MS, timer: null, run: () => this.recordClock() },
      { everyMs: opts.intervalMs ?? 60_000, timer: null, run: () => this.recordShadow() },
    ];
    this.journal = opts.journal ? new JournalWriter(opts.client, opts.prefix, this.election, opts.journal) : null;
    const journal = this.journal;
    if (journal) {
      this.loops.push({ everyMs: journal.opts.evalMs, timer: null, run: () => journal.evaluate() });
      this.loops.push({ everyMs: journal.opts.flushMs, timer: null, run: () => journal.flush() });
    }
    this.forecasts =
      journal && opts.forecasts ? new ForecastWriter(opts.client, opts.prefix, this.election, opts.forecasts) : null;
    const forecasts = this.forecasts;
    if (journal && forecasts) {
      this.loops.push({ everyMs: journal.opts.evalMs, timer: null, run: () => forecasts.evaluate() });
      this.loops.push({
        everyMs: forecasts.opts.flushMs ?? FORECAST_FLUSH_MS,
        timer: null,
        run: () => forecasts.flush(),
      });
    }
  }

  get isLeader(): boolean {
    return this.election.isHolder;
  }

  start(): void {
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.electionTimer) clearTimeout(this.electionTimer);
    // a clean stop writes what the journal holds first (its next leader starts after a recorded gap)
    if (this.election.isHolder) await this.journal?.flush().catch(() => undefined);
    if (this.election.isHolder) await this.forecasts?.flush().catch(() => undefined);
    this.setLeader(false);
    await this.election.resign();
    this.historyLease.release();
    this.clockLease.release();
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.electionTimer = setTimeout(() => void this.campaign(), ms);
    this.electionTimer.unref();
  }

  private setLeader(on: boolean): void {
    metrics().samplerLeader.set(on ? 1 : 0);
    this.term += 1;
    // a new term's journal starts with a checkpoint after a gap: etcd_unavailable when etcd
    // failed this replica just before (the outage is what ended the journal), else no_sampler
    const lastFailure = Math.max(
      this.election.lastFailureMs,
      this.journal?.lastFailureMs ?? 0,
      this.opts.etcdUnavailableMs?.() ?? 0,
    );
    // the cache's re-reads back off to 5 s; a lease outlives an outage by up to one TTL
    const recent = Date.now() - lastFailure <= 2 * this.retryMs + 2 * (this.opts.electionTtlSecs ?? 10) * 1000 + 5000;
    this.journal?.restart(lastFailure > 0 && recent ? "etcd_unavailable" : "no_sampler");
    this.forecasts?.restart(lastFailure > 0 && recent ? "etcd_unavailable" : "no_sampler");
    if (on) return;
    for (const loop of this.loops) {
      if (loop.timer) clearTimeout(loop.timer);
      loop.timer = null;
    }
  }

  private async campaign(): Promise<void> {
    if (this.stopped) return;
    const wasLeader = this.election.isHolder;
    if ((await this.election.campaign()) && !wasLeader) {
      this.setLeader(true);
      for (const loop of this.loops) void this.tick(loop, this.term);
    }
    this.schedule(this.retryMs);
  }

  private async tick(loop: Loop, term: number): Promise<void> {
    const current = () => term === this.term && this.election.isHolder && !this.stopped;
    if (!current()) return;
    try {
      await loop.run();
    } catch {
      /* a failed sample is skipped; the next period tries again */
    }
    // leadership lost (and perhaps won again, with its own ticks) while this one ran
    if (!current()) return;
    loop.timer = setTimeout(() => void this.tick(loop, term), loop.everyMs);
    loop.timer.unref();
  }

  private async recordShadow(): Promise<void> {
    const sample = await this.opts.sample();
    if (!sample || !this.election.isHolder) return;
    const lease = await this.historyLease.id();
    if (
      await this.election.putIfHolder(
        [{ key: historyKey(this.opts.prefix, sample.at_ms), value: JSON.stringify(sample) }],
        lease,
      )
    )
      metrics().shadowSamples.inc();
  }

  /** (wall time, current revision): the wall time is the middle of the revision read (loopback: ~1 ms). */
  private async recordClock(): Promise<void> {
    const { client, prefix } = this.opts;
    const before = Date.now();
    const revision = await currentRevision(client, prefix);
    const sample: ClockSample = { at_ms: Math.round((before + Date.now()) / 2), revision };
    const lease = await this.clockLease.id();
    await this.election.putIfHolder([{ key: clockKey(prefix, sample.at_ms), value: JSON.stringify(sample) }], lease);
  }
}

/** A stored clock sample, or null when the value is not one. */
export function parseClockSample(value: string): ClockSample | null {
  if (value.length > MAX_SAMPLE_CHARS) return null;
  try {
    const parsed = clockSampleSchema.safeParse(JSON.parse(value));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** a sample is ~200 characters; anything far larger is not one and is not even parsed */
export const MAX_SAMPLE_CHARS = 4096;

/**
 * One stored value → a sample with the known fields only (zod strips the rest), or null.
 * Unknown fields are never kept: a hostile value (say, a deeply nested extra field) could
 * not be serialised back into a response.
 */
export function parseShadowSample(value: string): ShadowSample | null {
  if (value.length > MAX_SAMPLE_CHARS) return null;
  let json: unknown;
  try {
    json = JSON.parse(value);
  } catch {
    return null;
  }
  const parsed = shadowSampleSchema.safeParse(json);
  return parsed.success ? parsed.data : null;
}

/** Samples in [fromMs, toMs], oldest first (values that are not a sample are left out). */
export async function readShadowHistory(
  client: Client,
  prefix: string,
  fromMs: number,
  toMs: number,
): Promise<ShadowSample[]> {
  // paged like every read (14 days of samples is tens of MB); keys are zero-padded times, so
  // etcd's key order is time order and the read starts at the first key of the window
  const { kvs } = await readPrefixPaged(client, historyPrefix(prefix), {
    startKey: Buffer.from(historyKey(prefix, fromMs)),
    probePrefix: prefix,
  });
  const end = historyKey(prefix, toMs);
  const samples: ShadowSample[] = [];
  let skipped = 0;
  for (const kv of kvs) {
    if (kv.key > end) break;
    const sample = parseShadowSample(kv.value.toString("utf8"));
    if (sample) samples.push(sample);
    else skipped++;
  }
  if (skipped > 0) metrics().shadowHistorySkipped.inc(skipped);
  return samples;
}
