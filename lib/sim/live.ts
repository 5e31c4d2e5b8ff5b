// Live mode: time advances so the demo moves. Writers flush (sealed marks rise, with flush
// times), the legacy side sweeps, queues, claims and runs merges like the master
// (./legacy.ts) and each finished merge publishes its merged marks (§3.5, read–join–CAS), heartbeats and
// the leader are re-published under a short lease kept alive, the leader reconciles the
// demand cache `P/demand/` like the master (§6.1) and then runs its shadow pass (§6.2,
// ./shadow-pass.ts: the master's shadow rows the canary compares with), and the `incidents` merge execution
// reports progress. Tables named `incident/…` otherwise stay as seeded.
// Merges keep pace with flushes in proportion to the backlog, so a long run keeps the
// seeded backlog instead of draining it; a failed etcd call (etcd restarting) costs a tick,
// never the simulator.
import type { EtcdClient as Etcd3 } from "@/lib/etcd/client";
import { putValue, readValue } from "@/lib/etcd/kv";
import { keptLease, type KeptLease } from "@/lib/etcd/leases";

import { readPrefixPaged } from "@/lib/etcd/paged-read";
import { executorMergedEvent, writerEvent } from "@/lib/planner/join";
import { parseDemandEventKv, type DemandEvent } from "@/lib/schema/demand";
import { SealedTimes } from "@/lib/schema/sealed-times";
import { keys } from "@/lib/schema/keys";
import { publishDemandEvent } from "./publish";
import { reconcileDemandCache } from "./reconcile";
import { fleetExecutors, heartbeatValue, leaderKvs, SIM_VERSIONS } from "./scenarios/fleet";
import { INCIDENT } from "./scenarios/incidents";
import { LegacyMaster, type LegacyFinish } from "./legacy";
import { runMasterShadowPass } from "./shadow-pass";
import { rng } from "./seed-kv";

export interface LiveOptions {
  prefix: string;
  intervalMs?: number;
  flushesPerTick?: number;
  leaseTtlSec?: number;
  /** the leader's cache reconcile runs every this many ticks (the master's default: 30 s) */
  reconcileEveryTicks?: number;
  /** after this many ticks `master-b` is upgraded to the policy-aware version (default 600: 10 min at 1 s), so the demo shows a fleet mid-upgrade and then a homogeneous one */
  upgradeAfterTicks?: number;
  signal?: AbortSignal;
  log?: (line: string) => void;
  /** after each tick, with the stats so far */
  onTick?: (stats: Readonly<LiveStats>) => void;
  /** the simulator's clock (default Date.now): a benchmark runs it on simulated time (bench/forecasts.ts) */
  clock?: () => number;
  /** waits between ticks (default: `intervalMs` of real time); a benchmark advances its clock here instead */
  pause?: (ms: number, signal?: AbortSignal) => Promise<void>;
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
  /** the master's shadow passes written after them (./shadow-pass.ts) */
  shadowPasses?: number;
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
    model.push({
      target: parsed.target,
      shard: parsed.shard,
      sealed: e.sealed_through,
      merged: e.merged_through ?? 0,
      epoch: e.writer_epoch,
    });
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
/** a finished merge of a table this small merges all of it */
const SMALL_TABLE_PENDING = 16;

function tablePending(model: readonly ShardModel[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const s of model) out.set(s.target, (out.get(s.target) ?? 0) + Math.max(0, s.sealed - s.merged));
  return out;
}

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
  const clock = opts.clock ?? Date.now;
  const random = rng(clock() & 0xffffffff);
  const stats: LiveStats = { ticks: 0, flushes: 0, merges: 0, unchanged: 0, failedTicks: 0, reconciles: 0, pending: 0 };
  const model = (await untilAnswered(() => loadModel(client, prefix), opts, "reading the seeded demand")) ?? [];
  if (model.length === 0)
    log("live: no demand events under the prefix; seed a scenario first (only heartbeats will move)");
  const seededPending = Math.max(1, pendingOf(model));
  stats.pending = pendingOf(model);

  const executors = fleetExecutors(clock());
  const byTable = new Map<string, ShardModel[]>();
  for (const s of model) byTable.set(s.target, [...(byTable.get(s.target) ?? []), s]);
  const legacy = new LegacyMaster(client, prefix, executors, random);
  await untilAnswered(() => legacy.load(), opts, "reading the legacy queue");
  let budget = 0;
  const token = `leader-token-live-${clock().toString(36)}`;
  let lease: KeptLease | null = null;
  let leaseId: string | null = null;
  /** the leased keys (leader, heartbeats) live on one lease; a lost lease is re-granted and they are re-put */
  const leased = async (): Promise<KeptLease> => {
    if (lease && !lease.revoked()) return lease;
    const next = keptLease(client, opts.leaseTtlSec ?? 10, (e) => {
      log(`live: lease lost (${e.message}); keys will be re-put next tick`);
      if (lease === next) lease = null;
    });
    leaseId = await next.grant();
    for (const kv of leaderKvs(prefix, clock(), token).kvs) await next.put(kv.key, kv.value);
    lease = next;
    return next;
  };

  const execKey = keys.mergeExecution(prefix, INCIDENT.mergingTarget);
  const progressKey = keys.mergeProgress(prefix, INCIDENT.mergingExecutionId);
  const workKey = keys.mergeWork(prefix, INCIDENT.mergingExecutionId);
  const incident = await untilAnswered(
    async () => ({
      merging: (await readValue(client, execKey)) !== null,
      progress: await readValue(client, progressKey),
    }),
    opts,
    "reading the incident execution",
  );
  const hasMergingIncident = incident?.merging ?? false;
  let sequence = Number(JSON.parse(incident?.progress ?? '{"sequence":0}').sequence) || 0;

  let reconciling: Promise<void> | null = null;
  const reconcile = () => {
    reconciling ??= reconcileDemandCache(client, prefix, token, clock())
      .then(async (r) => {
        stats.reconciles += 1;
        if (r.puts + r.deletes > 0)
          log(`live: cache reconcile at revision ${r.revision}: ${r.puts} puts, ${r.deletes} deletes`);
        // §6 step 8: the shadow pass follows the reconcile (its rows replaced wholesale)
        const pass = await runMasterShadowPass(client, prefix, token, clock());
        stats.shadowPasses = (stats.shadowPasses ?? 0) + 1;
        if (stats.shadowPasses % 10 === 1)
          log(`live: shadow pass at revision ${pass.revision}: ${pass.placements} placements`);
      })
      .catch((e) => log(`live: cache reconcile failed: ${message(e)}`))
      .finally(() => (reconciling = null));
  };

  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)];
  const tick = async () => {
    const now = clock();
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
      publish(
        s,
        writerEvent({
          shard: s.shard,
          sealed: s.sealed,
          bytes: s.sealed * 1_048_576,
          epoch: s.epoch,
          flushedAtMs: now,
          sealedTimes: SealedTimes.fromRecord(times),
        }),
      );
      stats.flushes += 1;
    }
    let failed: unknown = null;
    try {
      const l = await leased();
      if (stats.ticks === (opts.upgradeAfterTicks ?? 600))
        for (const e of executors) if (e.kind === "resident_master") e.version = SIM_VERSIONS.current;
      for (const e of executors) await l.put(keys.executor(prefix, e.id), heartbeatValue(e, now));
    } catch (e) {
      failed = e;
      log(`live: heartbeat failed: ${message(e)}`);
    }
    // the legacy side's merges (./legacy.ts) finish and merge as many generations as were
    // flushed, scaled by backlog / seeded backlog: the backlog settles around its seeded size
    budget += flushed * (pendingOf(model) / seededPending);
    let finished: LegacyFinish[] = [];
    try {
      finished = await legacy.tick(stats.ticks, now, tablePending(model), leaseId);
    } catch (e) {
      failed = e;
      log(`live: legacy queue failed: ${message(e)}`);
    }
    for (const f of finished.filter((x) => x.ok)) {
      const shards = (byTable.get(f.target) ?? [])
        .filter((s) => s.sealed > s.merged)
        .sort((a, b) => b.sealed - b.merged - (a.sealed - a.merged));
      // a small table is merged whole (so pending does not spread over the idle tail and every
      // table that ever got a flush stay queued); a large one by what the budget allows
      const tablePending = shards.reduce((n, s) => n + s.sealed - s.merged, 0);
      let take =
        tablePending <= SMALL_TABLE_PENDING
          ? tablePending
          : Math.max(1, Math.min(Math.floor(budget), 8 + Math.floor(random() * 56)));
      for (const s of shards) {
        if (take <= 0) break;
        const step = Math.min(take, s.sealed - s.merged);
        s.merged += step;
        take -= step;
        budget -= step;
        publish(s, executorMergedEvent(s.shard, s.merged, now));
      }
      stats.merges += 1;
    }
    stats.pending = pendingOf(model);
    if (hasMergingIncident && stats.ticks % 3 === 0) {
      try {
        await putValue(client, progressKey, JSON.stringify({ sequence: sequence + 1 }));
        sequence += 1;
        await putValue(
          client,
          workKey,
          JSON.stringify({
            sequence,
            generations_done: sequence,
            generations_total: 40 + sequence,
            rows_merged: sequence * 100_000,
          }),
        );
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
      if (stats.ticks % 10 === 1)
        log(
          `live: tick ${stats.ticks}: ${stats.flushes} flushes, ${stats.merges} merges, ${stats.pending} generations pending`,
        );
      await (opts.pause ?? sleep)(opts.intervalMs ?? 1000, signal);
    }
  } finally {
    await reconciling;
    await (lease as KeptLease | null)?.revoke().catch(() => undefined);
  }
  return stats;
}
