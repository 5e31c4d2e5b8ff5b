// `realistic`: 13,405 tables, bimodal as production sees it — 354 tables with real
// backlog (5 past 256 pending generations, `ingest/firehose` past 4,096), 1–20 shards per
// table (most have 1–2), a long idle tail; six executors of the four kinds, a leader,
// a few shadow assignments and legacy tasks. Deterministic (seeded PRNG); times relative
// to `now`.
import { keys } from "@/lib/schema/keys";
import { uuidv7 } from "@/lib/schema/task-id";
import { demandEventKv, pad, pendingTimes, rng, shardId, type SeedKv } from "../seed-kv";
import { fleetExecutors, heartbeatKv, leaderKvs } from "./fleet";

export const REALISTIC_TABLES = 13_405;
const REALISTIC_BACKLOG_TABLES = 354;
/** the one table past 4,096 pending generations */
export const GIANT_TABLE = "ingest/firehose";
/** the tables past 256 pending generations (besides the giant) */
export const HOT_TABLES = [
  "ingest/clickstream",
  "ingest/payments",
  "ingest/sessions",
  "ingest/search-logs",
  "ingest/ad-events",
];

const DOMAINS = [
  "orders",
  "events",
  "clicks",
  "sessions",
  "metrics",
  "logs",
  "users",
  "payments",
  "inventory",
  "reviews",
];

function realisticTarget(i: number): string {
  if (i === 0) return GIANT_TABLE;
  if (i <= HOT_TABLES.length) return HOT_TABLES[i - 1];
  return `${DOMAINS[i % DOMAINS.length]}/table-${pad(i)}`;
}

export interface RealisticTable {
  target: string;
  shards: number;
  /** pending generations per shard (Σ = table pending) */
  pending: number[];
}

/** The table plan (exported so tests can assert on exact numbers). */
export function realisticTables(): RealisticTable[] {
  const random = rng(20_261_129);
  const out: RealisticTable[] = [];
  for (let i = 0; i < REALISTIC_TABLES; i++) {
    const shards = i === 0 ? 12 : 1 + Math.floor(20 * random() ** 8);
    let total = 0;
    if (i === 0) total = 4_500 + Math.floor(random() * 400);
    else if (i <= HOT_TABLES.length) total = 300 + Math.floor(random() * 900);
    else if (i < REALISTIC_BACKLOG_TABLES) total = 1 + Math.floor(random() ** 2 * 200);
    const pending = Array.from({ length: shards }, () => 0);
    for (let g = 0; g < total; g++) pending[Math.floor(random() * shards)] += 1;
    out.push({ target: realisticTarget(i), shards, pending });
  }
  return out;
}

export function* realisticKvs(prefix: string, now: number): Generator<SeedKv> {
  const random = rng(7);
  const tables = realisticTables();
  // the heartbeats (stamped as they are made) and the leader first: the loader writes these
  // `dated` records before the rest, so a revision inside the seed is dated by the seed's own
  // time (console-api.md "Time", record_timestamps), not by a demand event's backdated flush
  const executors = fleetExecutors(now);
  for (const e of executors) yield heartbeatKv(prefix, e);
  const leader = leaderKvs(prefix, now);
  yield* leader.kvs;
  for (let i = 0; i < tables.length; i++) {
    const t = tables[i];
    for (let s = 0; s < t.shards; s++) {
      const merged = 100 + Math.floor(random() * 5_000);
      const pending = t.pending[s];
      const sealed = merged + pending;
      // backlog ages: hot tables waited hours, the tail minutes; idle shards flushed long ago
      const oldestAge = pending > 0 ? (i < 6 ? 3 * 3_600_000 : 60_000 + Math.floor(random() * 2_400_000)) : 86_400_000;
      const timeOf = (g: number) =>
        now - oldestAge + Math.floor(((g - merged - 1) / Math.max(1, pending)) * (oldestAge - 5_000));
      const times = pending > 0 ? pendingTimes(merged, sealed, timeOf) : { [String(sealed)]: now - oldestAge };
      yield demandEventKv(prefix, t.target, {
        v: 1,
        shard: shardId(i, s),
        sealed_through: sealed,
        sealed_bytes_through: sealed * 1_048_576,
        merged_through: merged,
        flushed_at_ms: pending > 0 ? timeOf(sealed) : now - oldestAge,
        writer_epoch: 2,
        source: "writer",
        sealed_times: times,
      });
    }
  }

  // shadow assignments for the six hottest tables (the leader's view, §2.5)
  const merge = executors.filter((e) => e.kinds.includes("merge_wal") && !e.draining);
  for (let i = 0; i < 6; i++) {
    const target = tables[i].target;
    const unitId = `0192a${pad(i, 3)}-shadow-${pad(i, 4)}`;
    yield {
      key: keys.assignment(prefix, target, unitId),
      value: JSON.stringify({
        v: 1,
        unit_id: unitId,
        kind: "merge_wal",
        target,
        needs_write_turn: true,
        executor: merge[i % merge.length].id,
        planner_token: leader.token,
        reserved_slots: { merge_wal: 1 },
        reserved_bytes: merge[i % merge.length].bytes_total,
        state: "shadow",
        created_ms: now - 2_000,
        bind_deadline_ms: now + 28_000,
      }),
    };
  }

  // the legacy queue: merges queued for three backlog tables, one running (with its claim)
  for (let i = 0; i < 4; i++) {
    const target = tables[10 + i].target;
    const enqueuedAt = now - 90_000 + i * 1000;
    const id = uuidv7(enqueuedAt, 0xb000 + i); // a real UUIDv7 of its enqueue time (§2.8)
    const running = i === 3;
    const task = {
      id,
      kind: "merge_wal",
      target,
      state: running ? "running" : "queued",
      enqueued_at: enqueuedAt,
      ...(running ? { started_at: now - 30_000 } : {}),
    };
    yield { key: keys.task(prefix, id), value: JSON.stringify(task) };
    yield { key: `${prefix}/${running ? "running" : "queue"}/${id}`, value: JSON.stringify(task) };
    if (running) yield { key: keys.claim(prefix, id), value: `claim-${id}`, leased: true };
  }
}
