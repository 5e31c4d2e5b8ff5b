// etcd + snapshot health (console-api.md `/api/v1/health`): 503 still carries the body.
// Every poll also feeds one outage record per tab, so the banner, the header's live mark
// and the page titles tell the same story, and fetchers know the last good revision.
import { useSyncExternalStore } from "react";
import type { HealthResponse } from "../api-types";
import { ApiError } from "../fetch-json";

export const healthKeys = { now: () => ["health"] as const };

export interface Outage {
  /** consecutive polls that found etcd down or the console unreachable */
  polls: number;
  /** which of the two the last failed poll found */
  cause: "etcd" | "console" | null;
  /**
   * How old the console's snapshot was at the last poll that found etcd answering (the
   * server's own measure), and when that poll answered on this tab's monotonic clock
   * (performance.now(): an interval, never a date), with the revision it served then.
   */
  lastGoodAgeMs: number | null;
  lastGoodSeenAt: number | null;
  lastGoodRevision: number | null;
  /** the console's own last good snapshot, as the last `down` health answer reported it */
  snapshotRevision: number | null;
  snapshotAgeMs: number | null;
  /** when that answer reached this tab (monotonic clock): the age keeps counting from it */
  snapshotSeenAt: number | null;
  degraded: HealthResponse | null;
  /** the last `down` answer's members that answered without a leader (etcd lost quorum), of how many; null: none did */
  noQuorum: { leaderless: number; members: number } | null;
}

/** One slow answer is not an outage: it takes two failed polls in a row. */
const OUTAGE_POLLS = 2;

const INITIAL: Outage = {
  polls: 0,
  cause: null,
  lastGoodAgeMs: null,
  lastGoodSeenAt: null,
  lastGoodRevision: null,
  snapshotRevision: null,
  snapshotAgeMs: null,
  snapshotSeenAt: null,
  degraded: null,
  noQuorum: null,
};
/** when a data answer last said etcd_unavailable on this tab (monotonic clock); a health answer asked before it cannot clear it */
let unavailableNotedAt = -Infinity;
let outage: Outage = INITIAL;
const listeners = new Set<() => void>();

function record(next: Outage): void {
  outage = next;
  listeners.forEach((l) => l());
}

/**
 * Whether the age already counting for this snapshot is the better one than a new answer's.
 * The server measures the age before its answer travels, so every answer's age is short by
 * its own latency: of two answers about one snapshot, the one giving the larger age now is
 * the nearer. Re-based to a slower answer, the header's age would stand still (or step
 * back) for as long as that answer took. A much smaller age (over a poll) is a new snapshot.
 */
function sameSnapshotCount(revision: number | null, ageMs: number | null, seenAt: number): boolean {
  if (outage.cause !== "etcd" || revision === null || ageMs === null) return false;
  if (outage.snapshotRevision !== revision || outage.snapshotAgeMs === null || outage.snapshotSeenAt === null)
    return false;
  const counted = outage.snapshotAgeMs + (seenAt - outage.snapshotSeenAt);
  return counted >= ageMs && counted - ageMs < HEALTH_POLL_MS;
}

/**
 * One health answer into the outage record. `down` is the server's own finding (no etcd
 * endpoint answered), so it counts at once: the header turns stale with the first such
 * answer, never "live" beside it. `askedAt`: when the request left (monotonic); an answer
 * asked before a data answer found etcd unavailable does not clear that finding.
 */
function recordAnswer(body: HealthResponse, askedAt: number): void {
  if (body.status === "down") {
    const seenAt = performance.now();
    const revision = body.snapshot?.revision ?? null;
    const kept = sameSnapshotCount(revision, body.snapshot?.age_ms ?? null, seenAt);
    record({
      ...outage,
      polls: Math.max(outage.polls + 1, OUTAGE_POLLS),
      cause: "etcd",
      snapshotRevision: revision,
      snapshotAgeMs: kept ? outage.snapshotAgeMs : (body.snapshot?.age_ms ?? null),
      snapshotSeenAt: kept ? outage.snapshotSeenAt : seenAt,
      degraded: null,
      noQuorum: noQuorumOf(body),
    });
  } else if (askedAt < unavailableNotedAt) {
    return;
  } else {
    const revision = body.revision ?? body.snapshot?.revision ?? outage.lastGoodRevision;
    record({
      ...INITIAL,
      lastGoodAgeMs: body.snapshot?.age_ms ?? 0,
      lastGoodSeenAt: performance.now(),
      lastGoodRevision: revision,
      snapshotRevision: body.snapshot?.revision ?? revision,
      degraded: body.status === "degraded" ? body : null,
    });
  }
}

function noQuorumOf(body: HealthResponse): Outage["noQuorum"] {
  const leaderless = body.endpoints.filter((e) => e.no_leader === true).length;
  return leaderless > 0 ? { leaderless, members: body.endpoints.length } : null;
}

/**
 * A data answer said `etcd_unavailable` (issue 27): the header turns from "live" at once,
 * without waiting for two health polls. The next good health poll clears it.
 */
export function noteEtcdUnavailable(): void {
  unavailableNotedAt = performance.now();
  record({ ...outage, polls: Math.max(outage.polls + 1, OUTAGE_POLLS), cause: "etcd" });
}

/** Health never throws for `down`: the banner needs the body, not an error. */
export async function fetchHealth(signal?: AbortSignal): Promise<HealthResponse> {
  const askedAt = performance.now();
  let res: Response;
  try {
    res = await fetch("/api/v1/health", { signal, cache: "no-store", headers: { accept: "application/json" } });
  } catch (e) {
    if (!signal?.aborted) record({ ...outage, polls: outage.polls + 1, cause: "console" });
    throw e;
  }
  let body: HealthResponse;
  try {
    body = (await res.json()) as HealthResponse;
  } catch {
    record({ ...outage, polls: outage.polls + 1, cause: "console" });
    throw new ApiError(res.status, `http_${res.status}`, `health answered HTTP ${res.status}`, null);
  }
  recordAnswer(body, askedAt);
  return body;
}

/**
 * The header's poll, shared by a browser's tabs: each tab polls every HEALTH_POLL_MS, and
 * a tab that has an answer another tab of this browser got in the last SHARED_FRESH_MS (a
 * BroadcastChannel), and has not used yet, takes it instead of asking: a browser asks about
 * once a poll, however many tabs it has open (fifty tabs asked 25 times a second). An answer
 * is used once per tab, so an outage still takes two of that tab's polls; a poll that could
 * not reach the console is not shared.
 */
export const HEALTH_POLL_MS = 2000;
/** another tab's answer is taken up to this old (a little over a poll: timers drift, and an answer just past a poll would send every tab asking) */
const SHARED_FRESH_MS = 1.5 * HEALTH_POLL_MS;
const HEALTH_CHANNEL = "scheduler-console.health";
/** another tab's last answer, when it reached this tab (its monotonic clock: an interval, never a date) */
let heard: { body: HealthResponse; heardAt: number; used: boolean } | null = null;
let channel: BroadcastChannel | null | undefined;

function healthChannel(): BroadcastChannel | null {
  if (channel === undefined) {
    channel = typeof BroadcastChannel === "undefined" ? null : new BroadcastChannel(HEALTH_CHANNEL);
    channel?.addEventListener("message", (e: MessageEvent<{ body: HealthResponse }>) => {
      heard = { body: e.data.body, heardAt: performance.now(), used: false };
    });
  }
  return channel;
}

export async function pollHealth(signal?: AbortSignal): Promise<HealthResponse> {
  const shared = healthChannel();
  if (heard && !heard.used && performance.now() - heard.heardAt < SHARED_FRESH_MS) {
    heard.used = true;
    recordAnswer(heard.body, heard.heardAt);
    return heard.body;
  }
  const body = await fetchHealth(signal);
  shared?.postMessage({ body });
  return body;
}

/** The revision whose data the console still holds, for reads while etcd is away. */
export function lastGoodRevision(): number | null {
  return outage.snapshotRevision ?? outage.lastGoodRevision;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The outage as the header and the banner read it now (outside React: the fetchers, tests). */
export function outageNow(): Outage & { down: boolean } {
  return { ...outage, down: outage.polls >= OUTAGE_POLLS };
}

/** The tab's outage record; `down` once two polls in a row failed. Server render: no outage. */
export function useOutage(): Outage & { down: boolean } {
  const o = useSyncExternalStore(
    subscribe,
    () => outage,
    () => INITIAL,
  );
  return { ...o, down: o.polls >= OUTAGE_POLLS };
}
