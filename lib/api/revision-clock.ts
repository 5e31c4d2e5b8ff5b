import "server-only";
// console-api.md "Time: every revision has a wall time". Revision → wall time and back:
// * `console_clock`: the elected sampler's durable samples (at_ms, current revision) under
//   `P/console/revision-clock/`. A sample (t, r) says revision r was written by t and
//   revision r + 1 after it, so R lies between the last sample with r < R and the first
//   with r ≥ R; the answer is the middle of that interval, `error_ms` its half-width.
// * `record_timestamps` (revisions older than the samples): the timestamps inside records
//   current at R. Every heartbeat, the leader's `since_ms` and the newest demand event's
//   flush time were stamped before they were written, so R is no older than the newest of
//   them; a heartbeat is re-put at least once per lease TTL (scheduler-model.md §5.1), so R
//   is no newer than the oldest live heartbeat + that TTL (or the first sample, or now).
// * `unknown`: nothing tells.
import type { EtcdClient } from "@/lib/etcd/client";
import { etcdClient, etcdPrefix } from "@/lib/etcd/client";
import { FutureRevision, RevisionCompacted } from "@/lib/etcd/errors";
import { readRange } from "@/lib/etcd/key-history";
import { currentRevision, readPrefixPaged } from "@/lib/etcd/paged-read";
import { formatCount, formatTime } from "@/lib/schema/format";
import { keys } from "@/lib/schema/keys";
import { parseHeartbeat } from "@/lib/schema/executors";
import { parseLeader } from "@/lib/schema/leader";
import { parseDemandEvent } from "@/lib/schema/demand";
import type { RevisionTime, RevisionTimeQuery } from "@/lib/schema/api/revisions";
import { CLOCK_KEPT_MS, clockPrefix, parseClockSample } from "@/lib/live/sampler";
import { ApiError, classifyError } from "./errors";

/** etcd did not answer (503 / 504): what is already in memory still can. */
export function etcdAway(e: unknown): boolean {
  const status = classifyError(e)?.status;
  return status === 503 || status === 504;
}

/** scheduler-model.md §5.1: heartbeat lease TTL max(ETCD_LEASE_TTL_SECS, 5), default 30 s; a live heartbeat was put within it. */
export const HEARTBEAT_TTL_MS = 30_000;
/** a client clock a little ahead of ours is not "the future" */
export const FUTURE_SLACK_MS = 2000;
/** the sample index is re-read from its newest key at most this often */
const REFRESH_MS = 1000;
const CACHE_ENTRIES = 4096;

interface Bounds {
  lo: number | null;
  hi: number | null;
}

function fromBounds(revision: number, basis: RevisionTime["basis"], { lo, hi }: Bounds, now: number): RevisionTime {
  if (lo === null && hi === null) return { revision, at_ms: null, basis: "unknown", error_ms: null };
  const low = lo ?? hi!;
  const high = Math.max(low, Math.min(hi ?? now, now));
  const half = Math.ceil((high - low) / 2);
  return { revision, at_ms: low + half, basis, error_ms: half };
}

/**
 * A revision newer than the last sample: written in (lo, now]. The middle moves with the
 * clock, so it is rounded down to OPEN_STEP_MS (a pinned plan at it is reused until the next
 * step or sample) and the error still covers the whole interval.
 */
const OPEN_STEP_MS = 2000;

function openEnded(revision: number, lo: number, now: number): RevisionTime {
  const at = Math.max(lo, Math.floor((lo + (now - lo) / 2) / OPEN_STEP_MS) * OPEN_STEP_MS);
  return { revision, at_ms: at, basis: "console_clock", error_ms: Math.ceil(Math.max(at - lo, now - at)) };
}

/** The samples, oldest first, as parallel arrays (binary-searched). */
class SampleIndex {
  at: number[] = [];
  rev: number[] = [];
  private lastKey: string | null = null;
  private loadedMs = 0;
  private loading: Promise<void> | null = null;

  constructor(
    private readonly client: EtcdClient,
    private readonly prefix: string,
  ) {}

  async fresh(): Promise<this> {
    if (Date.now() - this.loadedMs >= REFRESH_MS) {
      this.loading ??= this.load().finally(() => (this.loading = null));
      await this.loading;
    }
    return this;
  }

  private async load(): Promise<void> {
    const base = clockPrefix(this.prefix);
    const started = Date.now();
    const rows =
      this.lastKey === null
        ? (await readPrefixPaged(this.client, base, { probePrefix: this.prefix })).kvs.map((kv) => ({ key: kv.key, value: kv.value.toString("utf8") }))
        : (await readRange(this.client, this.prefix, { key: `${this.lastKey}\0`, end: `${base.slice(0, -1)}0` })).kvs;
    for (const row of rows) {
      const sample = parseClockSample(row.value);
      this.lastKey = row.key;
      if (!sample) continue;
      // one sampler at a time, but a hand-over between replicas may overlap: keep both arrays monotone
      if (this.rev.length > 0 && (sample.revision < this.rev[this.rev.length - 1] || sample.at_ms < this.at[this.at.length - 1])) continue;
      this.at.push(sample.at_ms);
      this.rev.push(sample.revision);
    }
    // what etcd still holds, no more: every replica then dates a revision the same way
    const first = this.lastAtOrBefore(started - CLOCK_KEPT_MS) + 1;
    if (first > 0) {
      this.at.splice(0, first);
      this.rev.splice(0, first);
    }
    this.loadedMs = started;
  }

  /** index of the last sample with rev < R (−1 if none) */
  lastBefore(revision: number): number {
    let lo = 0;
    let hi = this.rev.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.rev[mid] < revision) lo = mid + 1;
      else hi = mid;
    }
    return lo - 1;
  }

  /** index of the last sample with at ≤ T (−1 if none) */
  lastAtOrBefore(atMs: number): number {
    let lo = 0;
    let hi = this.at.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.at[mid] <= atMs) lo = mid + 1;
      else hi = mid;
    }
    return lo - 1;
  }
}

export class RevisionClock {
  private readonly samples: SampleIndex;
  private readonly cache = new Map<number, RevisionTime>();

  constructor(
    private readonly client: EtcdClient,
    private readonly prefix: string,
  ) {
    this.samples = new SampleIndex(client, prefix);
  }

  /**
   * When a revision the caller already holds in memory was written, without the checks
   * `timeOf` makes: while etcd is away it answers from what the clock already knows, else
   * `unknown` (console-api.md "Time": unknown is honest; the caller then says which clock it used).
   */
  async timeOfHeld(revision: number): Promise<RevisionTime> {
    try {
      return await this.timeOfReadable(revision);
    } catch (e) {
      if (!etcdAway(e)) throw e;
      return this.cache.get(revision) ?? { revision, at_ms: null, basis: "unknown", error_ms: null };
    }
  }

  /** When revision R was written. FutureRevision (400) past the store's revision; RevisionCompacted (410). */
  async timeOf(revision: number): Promise<RevisionTime> {
    const cached = this.cache.get(revision);
    if (!cached) {
      const current = await currentRevision(this.client, this.prefix);
      if (revision > current) throw new FutureRevision(revision);
    }
    // a read pinned to R fails typed when R is compacted (a known time is no use then)
    await readRange(this.client, this.prefix, { key: keys.leader(this.prefix), revision });
    return cached ?? this.timeOfReadable(revision);
  }

  /**
   * When revision R was written, for a caller that knows R exists and is readable (a
   * mod_revision it just read at or after an already checked revision): no checks.
   */
  async timeOfReadable(revision: number): Promise<RevisionTime> {
    const cached = this.cache.get(revision);
    if (cached) return cached;
    const s = await this.samples.fresh();
    const now = Date.now();
    const a = s.lastBefore(revision);
    const b = a + 1 < s.rev.length ? a + 1 : -1;
    const upper = b >= 0 ? s.at[b] : null;
    let answer: RevisionTime;
    if (a >= 0) answer = upper !== null ? fromBounds(revision, "console_clock", { lo: s.at[a], hi: upper }, now) : openEnded(revision, s.at[a], now);
    else {
      const records = await this.recordBounds(revision);
      const hi = records.hi === null ? upper : upper === null ? records.hi : Math.min(records.hi, upper);
      answer = fromBounds(revision, "record_timestamps", { lo: records.lo, hi: records.lo === null ? null : hi }, now);
    }
    // an interval still open at the top (no later sample yet) narrows as samples arrive
    if (b >= 0 || answer.basis === "record_timestamps") this.remember(revision, answer);
    return answer;
  }

  /** The newest revision written at or before T. 400 for the future; 404 before any readable revision. */
  async revisionAt(atMs: number): Promise<RevisionTime> {
    const now = Date.now();
    if (atMs > now + FUTURE_SLACK_MS) throw futureTime(atMs, now);
    const s = await this.samples.fresh();
    const i = s.lastAtOrBefore(atMs);
    if (i >= 0 && i === s.rev.length - 1 && atMs >= now - FUTURE_SLACK_MS) {
      // T is now (within the slack): the store's current revision was written by then
      const current = await currentRevision(this.client, this.prefix);
      if (current > s.rev[i]) return this.timeOf(current);
    }
    // Between the newest sample and now, a later revision may have been written after T:
    // only the sample's own revision is certainly written by T. Answering it keeps the
    // answer for T the same once the next sample (taken after the ask, so after T) arrives.
    if (i >= 0) return this.readable(s.rev[i], atMs);
    // before the samples: binary search over readable revisions on the record estimate.
    // A revision whose time nothing tells (no records yet) counts as older than any time.
    const oldest = await this.oldestReadable();
    const top = s.rev.length > 0 ? s.rev[0] : await currentRevision(this.client, this.prefix);
    // every revision in [oldest, top] is readable and not in the future: no checks per step
    const writtenBy = async (revision: number) => {
      const t = await this.timeOfReadable(revision);
      return t.at_ms === null || t.at_ms <= atMs;
    };
    if (!(await writtenBy(oldest))) throw beforeHistory(atMs, oldest);
    let lo = oldest;
    let hi = top;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (await writtenBy(mid)) lo = mid;
      else hi = mid - 1;
    }
    const found = await this.timeOfReadable(lo);
    if (found.at_ms === null) throw beforeHistory(atMs, oldest);
    return found;
  }

  /** revision, unless compaction took it: then the time is before any readable revision */
  private async readable(revision: number, atMs: number): Promise<RevisionTime> {
    try {
      return await this.timeOf(revision);
    } catch (e) {
      if (e instanceof RevisionCompacted) throw beforeHistory(atMs, e.compactRevision);
      throw e;
    }
  }

  /** The oldest revision a read can still be pinned to. */
  async oldestReadable(): Promise<number> {
    try {
      await readRange(this.client, this.prefix, { key: keys.leader(this.prefix), revision: 1 });
      return 1;
    } catch (e) {
      if (e instanceof RevisionCompacted && e.compactRevision > 0) return e.compactRevision;
      throw e;
    }
  }

  private async recordBounds(revision: number): Promise<Bounds> {
    const p = this.prefix;
    const [executors, leader] = await Promise.all([
      readRange(this.client, p, { key: keys.executors(p), prefix: true, revision }),
      readRange(this.client, p, { key: keys.leader(p), revision }),
    ]);
    const beats: number[] = [];
    for (const kv of executors.kvs) {
      const hb = parseHeartbeat(kv.value);
      if (hb.ok) beats.push(hb.value.heartbeat_ms);
    }
    const stamps = [...beats];
    const lead = leader.kvs[0] ? parseLeader(leader.kvs[0].value) : null;
    if (lead?.ok) stamps.push(lead.value.since_ms);
    // the newest demand event's flush time: found keys-only (etcd sorts the family by
    // mod_revision and sends one key), then that one value
    {
      const newest = await readRange(this.client, p, { key: keys.demandEvents(p), prefix: true, revision, limit: 1, descend: true, byModRevision: true, keysOnly: true });
      const key = newest.kvs[0]?.key;
      const value = key === undefined ? undefined : (await readRange(this.client, p, { key, revision })).kvs[0]?.value;
      const event = value === undefined ? null : parseDemandEvent(value);
      if (event?.ok) stamps.push(event.value.flushed_at_ms);
    }
    return { lo: stamps.length > 0 ? Math.max(...stamps) : null, hi: beats.length > 0 ? Math.min(...beats) + HEARTBEAT_TTL_MS : null };
  }

  private remember(revision: number, answer: RevisionTime): void {
    this.cache.set(revision, answer);
    while (this.cache.size > CACHE_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
  }
}

function futureTime(atMs: number, now: number): ApiError {
  const message = `at_ms ${atMs} is in the future (server clock ${now})`;
  return new ApiError(400, "invalid_query", message, { issues: [{ path: ["at_ms"], code: "future_time", message }] });
}

function beforeHistory(atMs: number, oldestRevision: number): ApiError {
  return new ApiError(404, "not_found", `no readable revision was written at or before ${formatTime(atMs)}; the oldest readable revision is ${formatCount(oldestRevision)}`, {
    oldest_revision: oldestRevision,
  });
}

const KEY = Symbol.for("scheduler-console.revision-clock");

/** The process-wide clock for the configured etcd and prefix. */
export function revisionClock(): RevisionClock {
  const g = globalThis as unknown as Record<symbol, RevisionClock | undefined>;
  return (g[KEY] ??= new RevisionClock(etcdClient(), etcdPrefix()));
}

/** GET /api/v1/revisions/time: `?revision=R` → its time; `?at_ms=T` → the newest revision written by T. */
export function revisionTimeOf(q: RevisionTimeQuery): Promise<RevisionTime> {
  return q.revision !== undefined ? revisionClock().timeOf(q.revision) : revisionClock().revisionAt(q.at_ms!);
}
