// Live mode: the live world (./world.ts) stepped once a tick and written to etcd. Its
// writes go in chunked txns (§8.2), its demand events through read–join–CAS (§3.5), the
// leader's and executors' keys on a short lease kept alive (a lost lease is granted again
// and its keys put again), cooldowns on leases of TASK_COOLDOWN_MAX_SECS (§9.2). Every
// `reconcileEveryTicks` the leader's cycle runs (./master-cycle.ts: the cache reconcile, the
// shadow pass, released bind deadlines). A failed etcd call costs a tick, never the run:
// the tick's writes are kept and written first once etcd answers (the world waits for them).
import type { EtcdClient as Etcd3 } from "@/lib/etcd/client";
import { grantLease, keptLease, type KeptLease } from "@/lib/etcd/leases";
import { readPrefixesAtRevision } from "@/lib/etcd/paged-read";
import { writeChunked, type LeasedWriteOp } from "@/lib/etcd/writes";
import { keys } from "@/lib/schema/keys";
import { buildSnapshot, groupByFamily } from "@/lib/snapshot/build";
import type { FleetSnapshot } from "@/lib/snapshot/types";
import { DEFAULT_COOLDOWN } from "@/lib/planner/cooldown";
import { publishDemandEvent } from "./publish";
import { runMasterCycle } from "./master-cycle";
import type { SimOp } from "./ops";
import type { WorldRates } from "./rates";
import { rng } from "./seed-kv";
import { World, type WorldStep } from "./world";

export interface LiveOptions {
  prefix: string;
  intervalMs?: number;
  /** the writers' flushes per tick in all (default: the world's rates, README.md "Rates") */
  flushesPerTick?: number;
  rates?: Partial<WorldRates>;
  leaseTtlSec?: number;
  /** the leader's cycle runs every this many ticks (the master's default: 30 s) */
  reconcileEveryTicks?: number;
  /** after this many ticks `master-b` is upgraded to the policy-aware version (default UPGRADE_AFTER_TICKS in ./world.ts: 5 min at 1 s, inside the warm-up), so the demo shows a fleet mid-upgrade and then a homogeneous one */
  upgradeAfterTicks?: number;
  /** the planner canary's tables (default lib/sim/canary.ts CANARY_TABLES; [] for none), in planner mode from the upgrade on */
  canary?: readonly string[];
  signal?: AbortSignal;
  log?: (line: string) => void;
  /** after each tick, with the stats so far */
  onTick?: (stats: Readonly<LiveStats>) => void;
  /** the simulator's clock (default Date.now): a benchmark runs it on simulated time (bench/forecasts.ts) */
  clock?: () => number;
  /** waits between ticks (default: `intervalMs` of real time); a benchmark advances its clock here instead */
  pause?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /**
   * The tick that starts a leader cycle waits for it to be written (default false: the cycle
   * runs beside the ticks, as the master's does, and lands a second or two later). On a
   * simulated clock (`pause`) the ticks do not wait for real time, so a cycle left to run
   * beside them lands as many simulated seconds late as this machine took to read and plan:
   * a benchmark that judges timing sets this, and its timeline is the same on any machine.
   * Its writes are then dated at a moment within that tick drawn for each cycle (a stream of
   * its own: the world's draws are unchanged), as a real master's cycle lands a varying part
   * of a second after its timer: on a simulated clock dated on the tick itself, every cycle
   * came to the millisecond 30 s after the last, and forecasts of the next one were exact.
   */
  cycleWithinTick?: boolean;
}

export interface LiveStats {
  ticks: number;
  flushes: number;
  merges: number;
  unchanged: number;
  /** ticks that met an etcd failure (and carried on) */
  failedTicks: number;
  /** completed leader cycles (cache reconcile, shadow pass, bind deadlines) */
  reconciles: number;
  /** the master's shadow passes written in them (./shadow-pass.ts) */
  shadowPasses?: number;
  /** Σ pending generations of the simulated (non-incident) tables after the last tick */
  pending: number;
  /** merges in the legacy queue, not yet claimed */
  queued?: number;
}

/** The families the world is built from (one read, one revision). */
const WORLD_FAMILIES = [
  "demand-events/",
  "executors/",
  "assignments/",
  "queue/",
  "running/",
  "tasks/",
  "cooldown/",
  "merge-failures/",
  "merge-executions/",
  "merge-progress/",
  "catchup-active/",
  "policies/",
];

async function readWorld(client: Etcd3, prefix: string): Promise<FleetSnapshot> {
  const { revision, kvsByPrefix } = await readPrefixesAtRevision(
    client,
    WORLD_FAMILIES.map((f) => `${prefix}/${f}`),
    { probePrefix: prefix },
  );
  return buildSnapshot(prefix, revision, groupByFamily(prefix, [...kvsByPrefix.values()].flat()));
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
  const stats: LiveStats = { ticks: 0, flushes: 0, merges: 0, unchanged: 0, failedTicks: 0, reconciles: 0, pending: 0 };
  const snapshot = await untilAnswered(() => readWorld(client, prefix), opts, "reading the seeded fleet");
  if (snapshot === null) return stats;
  if (snapshot.demandEvents.length === 0)
    log("live: no demand events under the prefix; seed a scenario first (only heartbeats will move)");
  const token = `leader-token-live-${clock().toString(36)}`;
  const world = new World(snapshot, {
    prefix,
    startMs: clock(),
    random: rng(clock() & 0xffffffff),
    leaderToken: token,
    rates: { ...opts.rates, ...(opts.reconcileEveryTicks ? { reconcileEveryTicks: opts.reconcileEveryTicks } : {}) },
    flushesPerTick: opts.flushesPerTick,
    upgradeAfterTicks: opts.upgradeAfterTicks,
    canary: opts.canary,
  });
  stats.pending = world.writers.totalPending();

  let lease: KeptLease | null = null;
  let leaseId: string | null = null;
  /** the `live` lease; a new one (the first, or after a loss) carries the leader, heartbeats and claims again */
  const leased = async (now: number): Promise<void> => {
    if (lease && !lease.revoked()) return;
    const next = keptLease(client, opts.leaseTtlSec ?? 10, (e) => {
      log(`live: lease lost (${e.message}); keys will be put again next tick`);
      if (lease === next) lease = null;
    });
    const id = await next.grant();
    await write(world.onLease(now), id);
    lease = next;
    leaseId = id;
  };
  const write = async (ops: readonly SimOp[], liveLease: string | null = leaseId): Promise<void> => {
    if (ops.length === 0) return;
    const cooldownLease = ops.some((op) => op.type === "put" && op.lease === "cooldown")
      ? await grantLease(client, DEFAULT_COOLDOWN.maxSecs)
      : null;
    const leases = { live: liveLease, cooldown: cooldownLease };
    const written: LeasedWriteOp[] = ops.map((op) =>
      op.type === "put" ? { ...op, lease: op.lease ? (leases[op.lease] ?? undefined) : undefined } : op,
    );
    await writeChunked(client, written);
  };
  /** publications of one shard run in order (they would only lose CAS races to each other) */
  const publishAll = async (step: WorldStep): Promise<void> => {
    const byShard = new Map<string, WorldStep["publishes"]>();
    for (const p of step.publishes) {
      const key = keys.demandEvent(prefix, p.target, p.event.shard);
      byShard.set(key, [...(byShard.get(key) ?? []), p]);
    }
    await Promise.all(
      [...byShard.values()].map(async (list) => {
        for (const p of list) if (!(await publishDemandEvent(client, prefix, p.target, p.event))) stats.unchanged += 1;
      }),
    );
  };

  let cycling: Promise<void> | null = null;
  const interval = opts.intervalMs ?? 1000;
  const cycleLands = rng((clock() ^ 0x5bd1e995) >>> 0);
  const cycle = () => {
    const at = opts.cycleWithinTick ? clock() + Math.floor(cycleLands() * interval) : clock();
    cycling ??= runMasterCycle(client, prefix, token, at, world)
      .then((r) => {
        stats.reconciles += 1;
        stats.shadowPasses = (stats.shadowPasses ?? 0) + 1;
        if (stats.reconciles % 10 === 1 || r.released > 0)
          log(
            `live: cycle at revision ${r.revision}: ${r.cache} cache rows, ${r.placements} shadow placements, ${r.released} assignments released, ${r.assigned} planner merges assigned`,
          );
      })
      .catch((e) => log(`live: leader cycle failed: ${message(e)}`))
      .finally(() => (cycling = null));
  };

  /** the step not yet written (etcd failed): written before the world steps again */
  let carried: WorldStep | null = null;
  let stepped = 0;
  const tick = async () => {
    const now = clock();
    await leased(now);
    if (carried === null) {
      carried = world.step(stepped++, now);
      stats.flushes = world.stats.flushes;
      stats.merges = world.stats.merges;
    }
    await write(carried.ops);
    await publishAll(carried);
    carried = null;
    stats.pending = world.writers.totalPending();
    stats.queued = world.legacy.queued();
    if (stepped % world.rates.reconcileEveryTicks === 1) {
      cycle();
      if (opts.cycleWithinTick) await cycling;
    }
  };

  // tick i is due at started + i × interval: a slow tick does not push every later one back
  // (after a long stall, such as etcd away, the schedule starts again from now)
  let started = clock();
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
          `live: tick ${stats.ticks}: ${stats.flushes} flushes, ${stats.merges} merges, ${stats.pending} generations pending, ${stats.queued ?? 0} queued`,
        );
      if (clock() - (started + stats.ticks * interval) > 5 * interval) started = clock() - stats.ticks * interval;
      await (opts.pause ?? sleep)(Math.max(0, started + stats.ticks * interval - clock()), signal);
    }
  } finally {
    await cycling;
    await (lease as KeptLease | null)?.revoke().catch(() => undefined);
  }
  return stats;
}
