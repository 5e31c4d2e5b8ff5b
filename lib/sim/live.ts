// Live mode: time advances so the demo moves. Writers flush (sealed marks rise, with flush
// times), executors merge and publish merged marks (§3.5, read–join–CAS), heartbeats and
// the leader are re-published under a short lease kept alive, the leader reconciles the
// demand cache `P/demand/` like the master (§6.1), and the `incidents` merge execution
// reports progress. Tables named `incident/…` otherwise stay as seeded.
// Merges keep pace with flushes in proportion to the backlog, so a long run keeps the
// seeded backlog instead of draining it; a failed etcd call (etcd restarting) costs a tick,
// never the simulator.
import type { EtcdClient as Etcd3 } from "@/lib/etcd/client";

type Lease = ReturnType<Etcd3["lease"]>;
import { readPrefixPaged } from "@/lib/etcd/paged-read";
import { executorMergedEvent, writerEvent } from "@/lib/planner/join";
import { parseDemandEventKv, type DemandEvent } from "@/lib/schema/demand";
import { SealedTimes } from "@/lib/schema/sealed-times";
import { keys } from "@/lib/schema/keys";
import { publishDemandEvent } from "./publish";
import { reconcileDemandCache } from "./reconcile";
import { fleetExecutors, heartbeatValue, leaderKvs } from "./scenarios/fleet";
import { INCIDENT } from "./scenarios/incidents";
import { rng } from "./seed-kv";

export interface LiveOptions {
  prefix: string;
  intervalMs?: number;
  flushesPerTick?: number;
  mergesPerTick?: number;
  leaseTtlSec?: number;
  /** the leader's cache reconcile runs every this many ticks (the master's default: 30 s) */
  reconcileEveryTicks?: number;
  signal?: AbortSignal;
  log?: (line: string) => void;
  /** after each tick, with the stats so far */
  onTick?: (stats: Readonly<LiveStats>) => void;
}

export interface LiveStats {
  ticks: number;
  flushes: number;
  merges: number;
  unchanged: number;
  /** ticks that met an etcd failure (and carried on) */
  failedTicks: number;
  /** completed cache reconciles */
  reconciles: number;
  /** Σ pending generations of the simulated (non-incident) shards after the last tick */
  pending: number;
}

interface ShardModel {
  target: string;
  shard: string;
  sealed: number;
  merged: number;
  epoch: number;
}

async function loadModel(client: Etcd3, prefix: string): Promise<ShardModel[]> {
  const eventsPrefix = keys.demandEvents(prefix);
  const { kvs } = await readPrefixPaged(client, eventsPrefix);
  const model: ShardModel[] = [];
  for (const kv of kvs) {
    const parsed = parseDemandEventKv(kv.key.slice(eventsPrefix.length), kv.value.toString("utf8"));
    if (!parsed.ok || parsed.target.startsWith("incident/")) continue;
    const e = parsed.event;
    model.push({ target: parsed.target, shard: parsed.shard, sealed: e.sealed_through, merged: e.merged_through ?? 0, epoch: e.writer_epoch });
  }
  return model;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));
const pendingOf = (model: readonly ShardModel[]) => model.reduce((n, s) => n + Math.max(0, s.sealed - s.merged), 0);

/** Retries `load` until it answers (etcd may still be starting) or the run is stopped. */
async function untilAnswered<T>(load: () => Promise<T>, opts: LiveOptions, what: string): Promise<T | null> {
  for (let delay = 200; ; delay = Math.min(delay * 2, 5000)) {
    try {
      return await load();
    } catch (e) {
      opts.log?.(`live: ${what} failed (${message(e)}); retrying`);
      if (opts.signal?.aborted) return null;
      await sleep(delay, opts.signal);
      if (opts.signal?.aborted) return null;
    }
  }
}

export async function runLive(client: Etcd3, opts: LiveOptions): Promise<LiveStats> {
  const { prefix, signal } = opts;
  const log = opts.log ?? (() => undefined);
  const random = rng(Date.now() & 0xffffffff);
  const stats: LiveStats = { ticks: 0, flushes: 0, merges: 0, unchanged: 0, failedTicks: 0, reconciles: 0, pending: 0 };
  const model = (await untilAnswered(() => loadModel(client, prefix), opts, "reading the seeded demand")) ?? [];
  if (model.length === 0) log("live: no demand events under the prefix; seed a scenario first (only heartbeats will move)");
  const seededPending = Math.max(1, pendingOf(model));
  stats.pending = pendingOf(model);

  const executors = fleetExecutors(Date.now());
  const token = `leader-token-live-${Date.now().toString(36)}`;
  let lease: Lease | null = null;
  /** the leased keys (leader, heartbeats) live on one lease; a lost lease is re-granted and they are re-put */
  const leased = async (): Promise<Lease> => {
    if (lease && !lease.revoked()) return lease;
    const next = client.lease(opts.leaseTtlSec ?? 10, { autoKeepAlive: true });
    next.on("lost", (e) => {
      log(`live: lease lost (${e.message}); keys will be re-put next tick`);
      if (lease === next) lease = null;
    });
    await next.grant();
    for (const kv of leaderKvs(prefix, Date.now(), token).kvs) await next.put(kv.key).value(kv.value);
    lease = next;
    return next;
  };

  const execKey = keys.mergeExecution(prefix, INCIDENT.mergingTarget);
  const progressKey = keys.mergeProgress(prefix, INCIDENT.mergingExecutionId);
  const workKey = keys.mergeWork(prefix, INCIDENT.mergingExecutionId);
  const incident = await untilAnswered(
    async () => ({ merging: (await client.get(execKey).string()) !== null, progress: await client.get(progressKey).string() }),
    opts,
    "reading the incident execution",
  );
  const hasMergingIncident = incident?.merging ?? false;
  let sequence = Number(JSON.parse(incident?.progress ?? '{"sequence":0}').sequence) || 0;

  let reconciling: Promise<void> | null = null;
  const reconcile = () => {
    reconciling ??= reconcileDemandCache(client, prefix, token)
      .then((r) => {
        stats.reconciles += 1;
        if (r.puts + r.deletes > 0) log(`live: cache reconcile at revision ${r.revision}: ${r.puts} puts, ${r.deletes} deletes`);
      })
      .catch((e) => log(`live: cache reconcile failed: ${message(e)}`))
      .finally(() => (reconciling = null));
  };

  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)];
  const tick = async () => {
    const now = Date.now();
    // publications of one shard run in order (they would only lose CAS races to each other)
    const byShard = new Map<ShardModel, DemandEvent[]>();
    const publish = (s: ShardModel, event: DemandEvent) => byShard.set(s, [...(byShard.get(s) ?? []), event]);
    const backlog = model.filter((s) => s.sealed > s.merged);
    let flushed = 0;
    for (let i = 0; i < (opts.flushesPerTick ?? 20) && model.length > 0; i++) {
      const s = backlog.length > 0 && random() < 0.7 ? pick(backlog) : pick(model);
      const from = s.sealed;
      s.sealed += 1 + Math.floor(random() * 3);
      flushed += s.sealed - from;
      const times: Record<string, number> = {};
      for (let g = from + 1; g <= s.sealed; g++) times[String(g)] = now - (s.sealed - g) * 50;
      publish(s, writerEvent({ shard: s.shard, sealed: s.sealed, bytes: s.sealed * 1_048_576, epoch: s.epoch, flushedAtMs: now, sealedTimes: SealedTimes.fromRecord(times) }));
      stats.flushes += 1;
    }
    // merge as many generations as were flushed, scaled by backlog / seeded backlog: the
    // backlog settles around its seeded size
    let budget = Math.round(flushed * (pendingOf(model) / seededPending));
    const mergeable = backlog.sort((a, b) => b.sealed - b.merged - (a.sealed - a.merged)).slice(0, 200);
    for (let i = 0; i < (opts.mergesPerTick ?? 8) && mergeable.length > 0 && budget > 0; i++) {
      const s = mergeable.splice(Math.floor(random() * mergeable.length), 1)[0];
      const step = Math.min(budget, s.sealed - s.merged, 8 + Math.floor(random() * 56));
      s.merged += step;
      budget -= step;
      publish(s, executorMergedEvent(s.shard, s.merged, now));
      stats.merges += 1;
    }
    stats.pending = pendingOf(model);
    let failed: unknown = null;
    try {
      const l = await leased();
      for (const e of executors) await l.put(keys.executor(prefix, e.id)).value(heartbeatValue(e, now));
    } catch (e) {
      failed = e;
      log(`live: heartbeat failed: ${message(e)}`);
    }
    if (hasMergingIncident && stats.ticks % 3 === 0) {
      try {
        await client.put(progressKey).value(JSON.stringify({ sequence: sequence + 1 }));
        sequence += 1;
        await client.put(workKey).value(JSON.stringify({ sequence, generations_done: sequence, generations_total: 40 + sequence, rows_merged: sequence * 100_000 }));
      } catch (e) {
        failed = e;
      }
    }
    await Promise.all(
      [...byShard].map(async ([s, events]) => {
        for (const event of events) {
          try {
            if (!(await publishDemandEvent(client, prefix, s.target, event))) stats.unchanged += 1;
          } catch (e) {
            failed = e;
            log(`live: publish failed: ${message(e)}`);
          }
        }
      }),
    );
    if (failed !== null) stats.failedTicks += 1;
    else if (stats.ticks % (opts.reconcileEveryTicks ?? 30) === 0) reconcile();
  };

  try {
    while (!signal?.aborted) {
      try {
        await tick();
      } catch (e) {
        stats.failedTicks += 1;
        log(`live: tick failed: ${message(e)}`);
      }
      stats.ticks += 1;
      opts.onTick?.(stats);
      if (stats.ticks % 10 === 1) log(`live: tick ${stats.ticks}: ${stats.flushes} flushes, ${stats.merges} merges, ${stats.pending} generations pending`);
      await sleep(opts.intervalMs ?? 1000, signal);
    }
  } finally {
    await reconciling;
    await (lease as Lease | null)?.revoke().catch(() => undefined);
  }
  return stats;
}
