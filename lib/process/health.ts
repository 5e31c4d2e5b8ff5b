import "server-only";
// GET /api/v1/health (console-api.md): every configured etcd endpoint asked directly (its
// own one-host client, short deadline), the scheduler's leader and the live cache's state.
// ok = every endpoint answers and the cache is live; degraded = some answer; down = none;
// starting (503) until the first full read and plan are done (console-api.md "Readiness").
import { consoleEnv } from "@/lib/config/env";
import { createEtcdClient, etcdClient, etcdPrefix, type EtcdClient } from "@/lib/etcd/client";
import { readValue } from "@/lib/etcd/kv";
import { endpointStatus } from "@/lib/etcd/status";
import { keys } from "@/lib/schema/keys";
import { parseLeader, type LeaderRecord } from "@/lib/schema/leader";
import type { HealthResponse } from "@/lib/schema/api/health";
import { liveCache } from "@/lib/live/cache";
import { metrics } from "@/lib/metrics";
import { isReady } from "./background";
import { overMemoryBudget } from "@/lib/live/memory-limit";
import { etcdUnavailableSeenAt } from "@/lib/http/etcd-seen";
import { DeadlineExceeded, withDeadline } from "@/lib/util/deadline";

const DEADLINE_MS = 1500;
/**
 * The deadline counts event-loop time in steps of at most this: a step that took longer
 * was the loop being blocked (a plan of the fleet), not etcd being slow, so while the
 * server is busy a probe whose answer is already waiting is not declared lost.
 */
const DEADLINE_STEP_MS = 100;
/** gRPC's own call deadline is wall-clock; it is only the backstop of the one above */
const CALL_TIMEOUT_MS = 10_000;
/**
 * Every probe missing its deadline while the watch is live and a probe answered this
 * recently is "degraded", not "down": a live watch is etcd answering.
 */
const RECENT_ANSWER_MS = 10_000;

/** `p`, or DeadlineExceeded after DEADLINE_MS of event-loop time (see DEADLINE_STEP_MS). */
const withinDeadline = <T>(p: Promise<T>, what: string) =>
  withDeadline(p, DEADLINE_MS, what, { loopStepMs: DEADLINE_STEP_MS });

/** when etcd last answered a health check */
const LAST_OK = { atMs: 0 };

/** a client per endpoint, for the per-member checks */
const HEALTH_CLIENTS = new Map<string, EtcdClient>();

function clientFor(url: string): EtcdClient {
  let client = HEALTH_CLIENTS.get(url);
  if (!client) {
    const { etcd } = consoleEnv();
    client = createEtcdClient({
      endpoints: [url],
      auth: etcd.auth,
      tls: etcd.tls,
      callTimeoutMs: CALL_TIMEOUT_MS,
      dialTimeoutMs: DEADLINE_MS,
      fault: { attempts: 1 },
    });
    HEALTH_CLIENTS.set(url, client);
  }
  return client;
}

async function leaderRecord(): Promise<LeaderRecord | null> {
  const value = await withinDeadline(readValue(etcdClient(), keys.leader(etcdPrefix())), "leader read");
  if (value === null) return null;
  const parsed = parseLeader(value);
  return parsed.ok ? parsed.value : null;
}

interface Probe {
  url: string;
  ok: boolean;
  latency_ms: number | null;
  revision: number | null;
  error?: string;
  /** internal: the probe only missed its deadline (it was not refused) */
  missed?: boolean;
  /** the member answered without a leader (no quorum) */
  no_leader?: true;
}

async function probe(url: string): Promise<Probe> {
  const started = performance.now();
  try {
    const { revision, hasLeader } = await withinDeadline(endpointStatus(clientFor(url)), "etcd status");
    // a member without a leader answers, but is no sign that etcd is there: it confirms nothing
    if (!hasLeader)
      return {
        url,
        ok: false,
        latency_ms: null,
        revision,
        error: "the member answers but has no leader (no quorum)",
        no_leader: true,
      };
    LAST_OK.atMs = Date.now();
    return {
      url,
      ok: true,
      latency_ms: Math.round((performance.now() - started) * 10) / 10,
      revision,
    };
  } catch (e) {
    return {
      url,
      ok: false,
      latency_ms: null,
      revision: null,
      error: e instanceof Error ? e.message.slice(0, 200) : String(e),
      missed: e instanceof DeadlineExceeded,
    };
  }
}

/**
 * One probe round is shared by every health request started within this long of it (or
 * while it runs): ten open tabs poll every 2 s each, a load balancer too, and etcd need not
 * be asked once per poller. A second is as current as a poll every two can see. The
 * process's own memory figures are not etcd's to share: each answer reads them as it leaves.
 */
const SHARED_MS = 1000;

type HealthAnswer = { status: number; body: HealthResponse };
/** A probe round's answer: all of health but the memory figures (read per answer). */
type RoundAnswer = { status: number; body: Omit<HealthResponse, "memory"> };

export async function healthResponse(): Promise<HealthAnswer> {
  const { status, body } = await sharedRound();
  return { status, body: { ...body, memory: memoryFigures() } };
}

/** the probe round every health answer within SHARED_MS shares */
const shared: { round: { startedMs: number; startedAtMs: number; answer: Promise<RoundAnswer> } | null } = {
  round: null,
};

function sharedRound(): Promise<RoundAnswer> {
  // a round started before a data answer found etcd unavailable is not this moment's answer
  const round = shared.round;
  if (round && performance.now() - round.startedMs < SHARED_MS && etcdUnavailableSeenAt() < round.startedAtMs)
    return round.answer;
  metrics().healthProbeRounds.inc();
  shared.round = { startedMs: performance.now(), startedAtMs: Date.now(), answer: probeAll() };
  return shared.round.answer;
}

function memoryFigures(): HealthResponse["memory"] {
  const { held_views, pinned_views } = liveCache().memory();
  return {
    rss_mib: Math.round(process.memoryUsage.rss() / 1_048_576),
    budget_mib: Math.round(consoleEnv().memoryBudgetBytes / 1_048_576),
    over_budget: overMemoryBudget(),
    held_views,
    pinned_views,
  };
}

async function probeAll(): Promise<RoundAnswer> {
  const probes = await Promise.all(consoleEnv().etcd.endpoints.map(probe));
  const answering = probes.filter((p) => p.ok);
  // health never triggers a fleet read: the leader is one key, the cache is reported as is
  if (answering.length > 0) liveCache().confirm();
  const snapshot = liveCache().status();
  const leader = answering.length > 0 ? await leaderRecord().catch(() => null) : null;
  // no answer in time, but nothing refused either, the watch is live and etcd answered a
  // moment ago: the server was too busy to hear it, not etcd down
  // ... unless a data answer found etcd unavailable since that probe: then it is down
  const busy =
    answering.length === 0 &&
    probes.every((p) => p.missed) &&
    snapshot.live &&
    Date.now() - LAST_OK.atMs < RECENT_ANSWER_MS &&
    etcdUnavailableSeenAt() <= LAST_OK.atMs;
  // down: the next live answer asks etcd first, so the data endpoints agree with this answer
  if (answering.length === 0 && !busy) liveCache().doubt();
  const ready = isReady();
  // with no endpoint answering (and not merely too busy to hear one), the cache cannot be
  // known current: `live` says so, beside an age that keeps growing
  const reported = answering.length === 0 && !busy ? { ...snapshot, live: false } : snapshot;
  const status: HealthResponse["status"] = !ready
    ? "starting"
    : answering.length === 0 && !busy
      ? "down"
      : answering.length === probes.length && (snapshot.live || snapshot.revision === null)
        ? "ok"
        : "degraded";
  return {
    status: status === "down" || status === "starting" ? 503 : 200,
    body: {
      status,
      ready,
      revision: answering.length > 0 ? Math.max(...answering.map((p) => p.revision ?? 0)) : null,
      endpoints: probes.map(({ revision: _r, missed: _m, ...p }) => p),
      leader: leader ? { token: leader.token, instance: leader.instance, since_ms: leader.since_ms } : null,
      snapshot: reported,
    },
  };
}
