// Live mode: time advances so the demo moves. Writers flush (sealed marks rise, with flush
// times), executors merge and publish merged marks (§3.5, read–join–CAS), heartbeats and
// the leader are re-published under a short lease kept alive, and the `incidents` merge
// execution reports progress. Tables named `incident/…` otherwise stay as seeded.
import type { EtcdClient as Etcd3 } from "@/lib/etcd/client";
import { readPrefixPaged } from "@/lib/etcd/paged-read";
import { executorMergedEvent, writerEvent } from "@/lib/planner/join";
import { parseDemandEventKv, type DemandEvent } from "@/lib/schema/demand";
import { SealedTimes } from "@/lib/schema/sealed-times";
import { keys } from "@/lib/schema/keys";
import { publishDemandEvent } from "./publish";
import { fleetExecutors, heartbeatValue, leaderKvs } from "./scenarios/fleet";
import { INCIDENT } from "./scenarios/incidents";
import { rng } from "./seed-kv";

export interface LiveOptions {
  prefix: string;
  intervalMs?: number;
  flushesPerTick?: number;
  mergesPerTick?: number;
  leaseTtlSec?: number;
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

export async function runLive(client: Etcd3, opts: LiveOptions): Promise<LiveStats> {
  const { prefix, signal } = opts;
  const log = opts.log ?? (() => undefined);
  const random = rng(Date.now() & 0xffffffff);
  const stats: LiveStats = { ticks: 0, flushes: 0, merges: 0, unchanged: 0 };
  const model = await loadModel(client, prefix);
  if (model.length === 0) log("live: no demand events under the prefix; seed a scenario first (only heartbeats will move)");

  const lease = client.lease(opts.leaseTtlSec ?? 10, { autoKeepAlive: true });
  lease.on("lost", (e) => log(`live: lease lost (${e.message}); keys will be re-put next tick`));
  const executors = fleetExecutors(Date.now());
  const leader = leaderKvs(prefix, Date.now(), `leader-token-live-${Date.now().toString(36)}`);
  for (const kv of leader.kvs) await lease.put(kv.key).value(kv.value);

  const execKey = keys.mergeExecution(prefix, INCIDENT.mergingTarget);
  const progressKey = keys.mergeProgress(prefix, INCIDENT.mergingExecutionId);
  const workKey = keys.mergeWork(prefix, INCIDENT.mergingExecutionId);
  const hasMergingIncident = (await client.get(execKey).string()) !== null;
  let sequence = Number(JSON.parse((await client.get(progressKey).string()) ?? '{"sequence":0}').sequence) || 0;

  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)];
  try {
    while (!signal?.aborted) {
      const now = Date.now();
      // publications of one shard run in order (they would only lose CAS races to each other)
      const byShard = new Map<ShardModel, DemandEvent[]>();
      const publish = (s: ShardModel, event: DemandEvent) => byShard.set(s, [...(byShard.get(s) ?? []), event]);
      const backlog = model.filter((s) => s.sealed > s.merged);
      for (let i = 0; i < (opts.flushesPerTick ?? 20) && model.length > 0; i++) {
        const s = backlog.length > 0 && random() < 0.7 ? pick(backlog) : pick(model);
        const from = s.sealed;
        s.sealed += 1 + Math.floor(random() * 3);
        const times: Record<string, number> = {};
        for (let g = from + 1; g <= s.sealed; g++) times[String(g)] = now - (s.sealed - g) * 50;
        publish(s, writerEvent({ shard: s.shard, sealed: s.sealed, bytes: s.sealed * 1_048_576, epoch: s.epoch, flushedAtMs: now, sealedTimes: SealedTimes.fromRecord(times) }));
        stats.flushes += 1;
      }
      const mergeable = backlog.sort((a, b) => b.sealed - b.merged - (a.sealed - a.merged)).slice(0, 200);
      for (let i = 0; i < (opts.mergesPerTick ?? 8) && mergeable.length > 0; i++) {
        const s = mergeable.splice(Math.floor(random() * mergeable.length), 1)[0];
        s.merged = Math.min(s.sealed, s.merged + 8 + Math.floor(random() * 56));
        publish(s, executorMergedEvent(s.shard, s.merged, now));
        stats.merges += 1;
      }
      try {
        for (const e of executors) await lease.put(keys.executor(prefix, e.id)).value(heartbeatValue(e, now));
      } catch (e) {
        log(`live: heartbeat failed: ${e instanceof Error ? e.message : String(e)}`);
      }
      if (hasMergingIncident && stats.ticks % 3 === 0) {
        sequence += 1;
        await client.put(progressKey).value(JSON.stringify({ sequence }));
        await client.put(workKey).value(JSON.stringify({ sequence, generations_done: sequence, generations_total: 40 + sequence, rows_merged: sequence * 100_000 }));
      }
      await Promise.all(
        [...byShard].map(async ([s, events]) => {
          for (const event of events) {
            try {
              if (!(await publishDemandEvent(client, prefix, s.target, event))) stats.unchanged += 1;
            } catch (e) {
              log(`live: publish failed: ${e instanceof Error ? e.message : String(e)}`);
            }
          }
        }),
      );
      stats.ticks += 1;
      opts.onTick?.(stats);
      if (stats.ticks % 10 === 1) log(`live: tick ${stats.ticks}: ${stats.flushes} flushes, ${stats.merges} merges published so far`);
      await sleep(opts.intervalMs ?? 1000, signal);
    }
  } finally {
    await lease.revoke().catch(() => undefined);
  }
  return stats;
}
