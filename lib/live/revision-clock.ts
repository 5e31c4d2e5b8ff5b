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
import { pingEtcd } from "./etcd-ping";
import { clockPrefix, clockPrefixEnd, keys } from "@/lib/schema/keys";
import { BoundedMap } from "@/lib/util/bounded-map";
import { parseHeartbeat } from "@/lib/schema/executors";
import { parseLeader } from "@/lib/schema/leader";
import { parseDemandEvent } from "@/lib/schema/demand";
import { FUTURE_TOLERANCE_MS, type RevisionTime } from "@/lib/schema/api/revisions";
import { CLOCK_KEPT_MS, parseClockSample } from "@/lib/live/sampler";
import { ApiError, classifyError } from "@/lib/schema/api/errors";
import { beforeHistory } from "./history-start";

/** etcd did not answer (503 / 504): what is already in memory still can. */
export function etcdAway(e: unknown): boolean {
  const status = classifyError(e)?.status;
  return status === 503 || status === 504;
}

/** scheduler-model.md §5.1: heartbeat lease TTL max(ETCD_LEASE_TTL_SECS, 5), default 30 s; a live heartbeat was put within it. */
const HEARTBEAT_TTL_MS = 30_000;
/** a client clock a little ahead of ours is not "the future" */
export const FUTURE_SLACK_MS = 2000;
/**
 * How many revisions the pre-sample lookup estimates first (revisionAt). Each estimate reads
 * records at that revision, so the grid stays small: its search inside a segment is what
 * narrows the answer, at the cost the binary search always had.
 */
const GRID_POINTS = 4;
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
        ? (await readPrefixPaged(this.client, base, { probePrefix: this.prefix })).kvs.map((kv) => ({
            key: kv.key,
            value: kv.value.toString("utf8"),
          }))
        : (await readRange(this.client, this.prefix, { key: `${this.lastKey}\0`, end: clockPrefixEnd(this.prefix) }))
            .kvs;
    for (const row of rows) {
      const sample = parseClockSample(row.value);
      this.lastKey = row.key;
      if (!sample) continue;
      // one sampler at a time, but a hand-over between replicas may overlap: keep both arrays monotone
      if (
        this.rev.length > 0 &&
        (sample.revision < this.rev[this.rev.length - 1] || sample.at_ms < this.at[this.at.length - 1])
      )
        continue;
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
  private readonly cache = new BoundedMap<number, RevisionTime>({
    evict: "least-recently-set",
    maxEntries: CACHE_ENTRIES,
  });
  private grid: { key: string; points: RevisionTime[] } | null = null;

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

  /** Whether the time of `revision` is final here (an interval closed by a later sample, or a record estimate). */
  isSettled(revision: number): boolean {
    return this.cache.has(revision);
  }

  /** When revision R was written. FutureRevision (400) past the store's revision; RevisionCompacted (410). */
  async timeOf(revision: number): Promise<RevisionTime> {
    const cached = this.cache.get(revision);
    // the ping first: it fails within 1.5 s when etcd is away, where the check below would
    // wait out a call's whole deadline (a pinned request's 503 stays fast)
    const current = await pingEtcd(this.client, this.prefix);
    if (!cached && revision > current) throw new FutureRevision(revision);
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
    if (a >= 0)
      answer =
        upper !== null
          ? fromBounds(revision, "console_clock", { lo: s.at[a], hi: upper }, now)
          : openEnded(revision, s.at[a], now);
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
    if (atMs > now + FUTURE_TOLERANCE_MS) throw futureTime(atMs, now);
    // up to FUTURE_TOLERANCE_MS ahead reads as now (console-api.md third version)
    if (atMs > now) atMs = now;
    // the ping first: it fails within 1.5 s when etcd is away, where the reads below would
    // wait out a call's deadline; once it answered, they are plain calls
    await pingEtcd(this.client, this.prefix);
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
    // Before the samples: the record estimate can fall as revisions rise (records rewritten
    // with older dates), so a binary search on it is not monotone in T (console-api.md third
    // version: the lookup is). Read it on a fixed grid over the readable revisions and keep
    // its running maximum: the segment for T is the newest grid revision whose monotone
    // estimate is at or before T, so a later T never lands in an earlier segment.
    const oldest = await this.oldestReadable();
    // (the first sample may predate a compaction: the search never starts below what is readable)
    const top = Math.max(oldest, s.rev.length > 0 ? s.rev[0] : await currentRevision(this.client, this.prefix));
    const grid = await this.estimateGrid(oldest, top);
    // a revision whose time nothing tells (no records yet) counts as older than any time
    const writtenBy = (t: RevisionTime, floor: number | null) =>
      t.at_ms === null ? true : Math.max(t.at_ms, floor ?? -Infinity) <= atMs;
    let k = -1;
    while (k + 1 < grid.length && writtenBy(grid[k + 1], null)) k++;
    if (k < 0) throw beforeHistory(atMs, oldest, grid.find((p) => p.at_ms !== null) ?? null);
    // within the segment [grid[k], grid[k + 1]): a binary search on a tree fixed by the
    // segment, its estimates raised to the segment's floor. Each step's decision only turns
    // true as T rises, so a later T never ends left of an earlier one.
    let lo = grid[k].revision;
    let hi = k + 1 < grid.length ? grid[k + 1].revision - 1 : lo;
    const floor = grid[k].at_ms;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (writtenBy(await this.timeOfReadable(mid), floor)) lo = mid;
      else hi = mid - 1;
    }
    const found = lo === grid[k].revision ? grid[k] : await this.timeOfReadable(lo);
    if (found.at_ms === null) {
      // T is before every revision with a time: the history (as far as it can be dated) starts at
      // the next one (the search stopped below it, so it is dated and after T)
      const next = lo < top ? await this.timeOfReadable(lo + 1) : null;
      if (next?.at_ms != null) throw beforeHistory(atMs, next.revision, next);
      throw beforeHistory(atMs, oldest, grid.find((p) => p.at_ms !== null) ?? null);
    }
    return floor !== null && found.at_ms < floor ? { ...found, at_ms: floor } : found;
  }

  /**
   * Up to GRID_POINTS revisions from `oldest` to `top` (every one when there are fewer), each
   * with its record estimate raised to the running maximum (monotone by construction).
   */
  private async estimateGrid(oldest: number, top: number): Promise<RevisionTime[]> {
    const key = `${oldest}:${top}`;
    if (this.grid?.key === key) return this.grid.points;
    const span = Math.max(0, top - oldest);
    const step = Math.max(1, Math.ceil(span / (GRID_POINTS - 1)));
    const revisions: number[] = [];
    for (let r = oldest; r < top; r += step) revisions.push(r);
    revisions.push(top);
    const estimates = await Promise.all(revisions.map((r) => this.timeOfReadable(r)));
    let floor: number | null = null;
    const points = estimates.map((t) => {
      if (t.at_ms === null) return t;
      if (floor !== null && t.at_ms < floor) return { ...t, at_ms: floor };
      floor = t.at_ms;
      return t;
    });
    this.grid = { key, points };
    return points;
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
      const newest = await readRange(this.client, p, {
        key: keys.demandEvents(p),
        prefix: true,
        revision,
        limit: 1,
        descend: true,
        byModRevision: true,
        keysOnly: true,
      });
      const key = newest.kvs[0]?.key;
      const value = key === undefined ? undefined : (await readRange(this.client, p, { key, revision })).kvs[0]?.value;
      const event = value === undefined ? null : parseDemandEvent(value);
      if (event?.ok) stamps.push(event.value.flushed_at_ms);
    }
    const lo = stamps.length > 0 ? Math.max(...stamps) : null;
    // the newest heartbeat + TTL (also a bound: R is no newer than any live heartbeat + TTL): an
    // executor whose heartbeat is older than the rest then narrows nothing, so the estimate does
    // not fall as such a heartbeat is added (the revision → time lookup stays monotone within a seed)
    const hi = beats.length > 0 ? Math.max(...beats) + HEARTBEAT_TTL_MS : null;
    // a heartbeat not re-put within its TTL (a bulk load that outlasted it) bounds nothing
    return { lo, hi: hi !== null && lo !== null && hi < lo ? null : hi };
  }

  private remember(revision: number, answer: RevisionTime): void {
    this.cache.set(revision, answer);
  }
}

function futureTime(atMs: number, now: number): ApiError {
  const message = `at_ms ${atMs} is in the future (server clock ${now})`;
  return new ApiError(400, "invalid_query", message, { issues: [{ path: ["at_ms"], code: "future_time", message }] });
}

let configuredClock: RevisionClock | undefined;

/** Drops the process's clock, so the next `revisionClock()` knows nothing yet (benchmarks of cold answers). */
export function dropRevisionClock(): void {
  configuredClock = undefined;
}

/** The process's clock for the configured etcd and prefix. */
export function revisionClock(): RevisionClock {
  return (configuredClock ??= new RevisionClock(etcdClient(), etcdPrefix()));
}
