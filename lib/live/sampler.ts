import "server-only";
// Shadow history (issue 4): once a minute the shadow outcome counts are recorded under
// `P/console/shadow-history/<zero-padded at_ms>` on a 14-day lease, so trends survive a
// console restart. Among several replicas exactly one samples: the holder of
// `P/console/sampler`, created in a txn only while absent and bound to that replica's
// lease; a replica that dies stops renewing, the key vanishes with its lease, and a
// follower (re-trying every second with its own lease) takes over within one TTL.
import { randomUUID } from "node:crypto";
import { etcdClient } from "@/lib/etcd/client";
import { metrics } from "@/lib/metrics";
import { shadowSample, type ShadowSample } from "@/lib/schema/api/shadow";

type Client = ReturnType<typeof etcdClient>;
type Lease = ReturnType<Client["lease"]>;

export const HISTORY_TTL_SECS = 14 * 24 * 3600;
/** one history lease is reused this long, so a sample lives 14 days to 14 days + 1 h */
const HISTORY_LEASE_REUSE_MS = 3600_000;

export interface SamplerOptions {
  client: Client;
  prefix: string;
  /** the counts to record now (null: nothing to record this time) */
  sample: () => Promise<ShadowSample | null>;
  intervalMs?: number;
  electionTtlSecs?: number;
  retryMs?: number;
}

export const historyPrefix = (prefix: string) => `${prefix}/console/shadow-history/`;
export const historyKey = (prefix: string, atMs: number) => `${historyPrefix(prefix)}${String(atMs).padStart(15, "0")}`;

export class ShadowSampler {
  readonly replica = randomUUID();
  private lease: Lease | null = null;
  private leaseId: string | null = null;
  private leader = false;
  private stopped = false;
  private electionTimer: NodeJS.Timeout | null = null;
  private sampleTimer: NodeJS.Timeout | null = null;
  private historyLease: { lease: Lease; id: string; sinceMs: number } | null = null;
  private readonly intervalMs: number;
  private readonly ttlSecs: number;
  private readonly retryMs: number;

  constructor(private readonly opts: SamplerOptions) {
    this.intervalMs = opts.intervalMs ?? 60_000;
    this.ttlSecs = opts.electionTtlSecs ?? 10;
    this.retryMs = opts.retryMs ?? 1000;
  }

  get isLeader(): boolean {
    return this.leader;
  }

  start(): void {
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.electionTimer) clearTimeout(this.electionTimer);
    if (this.sampleTimer) clearTimeout(this.sampleTimer);
    this.setLeader(false);
    await this.lease?.revoke().catch(() => undefined);
    this.historyLease?.lease.release();
  }

  private get key(): string {
    return `${this.opts.prefix}/console/sampler`;
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.electionTimer = setTimeout(() => void this.campaign(), ms);
    this.electionTimer.unref();
  }

  private setLeader(on: boolean): void {
    this.leader = on;
    metrics().samplerLeader.set(on ? 1 : 0);
    if (!on && this.sampleTimer) {
      clearTimeout(this.sampleTimer);
      this.sampleTimer = null;
    }
  }

  private dropLease(): void {
    this.lease?.release();
    this.lease = null;
    this.leaseId = null;
  }

  private async campaign(): Promise<void> {
    if (this.stopped) return;
    const { client } = this.opts;
    try {
      if (!this.lease || this.lease.revoked()) {
        const lease = client.lease(this.ttlSecs);
        lease.on("lost", () => {
          if (this.lease !== lease) return;
          this.dropLease();
          this.setLeader(false);
        });
        this.leaseId = await lease.grant();
        this.lease = lease;
      }
      if (!this.leader) {
        const res = await client
          .if(this.key, "Create", "==", 0)
          .then(client.put(this.key).value(this.replica).lease(this.leaseId!))
          .commit();
        if (res.succeeded) {
          this.setLeader(true);
          void this.sampleLoop();
        }
      }
    } catch {
      this.dropLease();
      this.setLeader(false);
    }
    this.schedule(this.retryMs);
  }

  private async sampleLoop(): Promise<void> {
    if (!this.leader || this.stopped) return;
    try {
      const sample = await this.opts.sample();
      if (sample && this.leader) await this.record(sample);
    } catch {
      /* a failed sample is skipped; the next minute tries again */
    }
    if (!this.leader || this.stopped) return;
    this.sampleTimer = setTimeout(() => void this.sampleLoop(), this.intervalMs);
    this.sampleTimer.unref();
  }

  private async record(sample: ShadowSample): Promise<void> {
    const { client, prefix } = this.opts;
    if (!this.historyLease || Date.now() - this.historyLease.sinceMs > HISTORY_LEASE_REUSE_MS) {
      this.historyLease?.lease.release();
      const lease = client.lease(HISTORY_TTL_SECS + HISTORY_LEASE_REUSE_MS / 1000, { autoKeepAlive: false });
      this.historyLease = { lease, id: await lease.grant(), sinceMs: Date.now() };
    }
    // only the current holder may write: compare our election key in the same txn
    const res = await client
      .if(this.key, "Value", "==", this.replica)
      .then(client.put(historyKey(prefix, sample.at_ms)).value(JSON.stringify(sample)).lease(this.historyLease.id))
      .commit();
    if (res.succeeded) metrics().shadowSamples.inc();
    else this.setLeader(false);
  }
}

export interface ShadowHistory {
  /** the samples in range, oldest first */
  samples: ShadowSample[];
  /** values in the range that are not a sample (foreign, damaged or hostile), left out */
  skipped: number;
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
  const parsed = shadowSample.safeParse(json);
  return parsed.success ? parsed.data : null;
}

/** Samples in [fromMs, toMs], oldest first (values that are not a sample are left out). */
export async function readShadowHistory(client: Client, prefix: string, fromMs: number, toMs: number): Promise<ShadowSample[]> {
  return (await readShadowHistoryCounted(client, prefix, fromMs, toMs)).samples;
}

/** Samples in [fromMs, toMs], oldest first, and how many stored values were left out. */
export async function readShadowHistoryCounted(client: Client, prefix: string, fromMs: number, toMs: number): Promise<ShadowHistory> {
  const kvs = await client
    .getAll()
    .inRange({ start: historyKey(prefix, fromMs), end: `${historyKey(prefix, toMs)}\0` })
    .limit(HISTORY_TTL_SECS / 60 + 120)
    .sort("Key", "Ascend")
    .strings();
  const samples: ShadowSample[] = [];
  let skipped = 0;
  for (const value of Object.values(kvs)) {
    const sample = parseShadowSample(value);
    if (sample) samples.push(sample);
    else skipped++;
  }
  if (skipped > 0) metrics().shadowHistorySkipped.inc(skipped);
  return { samples: samples.sort((a, b) => a.at_ms - b.at_ms), skipped };
}
