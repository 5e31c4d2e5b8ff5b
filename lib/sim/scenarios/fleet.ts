// The executors and the leader shared by the scenarios and the live simulator.
import { keys } from "@/lib/schema/keys";
import type { TaskKind } from "@/lib/schema/kinds";
import type { ExecutorKind } from "@/lib/schema/executors";
import type { SeedKv } from "../seed-kv";

export interface SimExecutor {
  id: string;
  kind: ExecutorKind;
  kinds: TaskKind[];
  slots_total: Partial<Record<TaskKind, number>>;
  bytes_total: number;
  draining: boolean;
  /** the package version its heartbeat carries (§2.4; default SIM_VERSIONS.previous) */
  version?: string;
}

/** The masters' package versions: `master-a` runs the policy-aware build, `master-b` the one before (a fleet mid-upgrade). */
export const SIM_VERSIONS = { current: "0.43.0", previous: "0.42.0" } as const;

const GiB = 1024 ** 3;

/** Six executors of the four kinds (§2.4). `master-a` is the leader's instance. */
export function fleetExecutors(_now: number): SimExecutor[] {
  return [
    {
      id: "master-a",
      kind: "resident_master",
      kinds: ["index_id", "repair", "compact", "merge_wal"],
      slots_total: { index_id: 2, repair: 2, compact: 1, merge_wal: 3 },
      bytes_total: 8 * GiB,
      draining: false,
      version: SIM_VERSIONS.current,
    },
    {
      id: "master-b",
      kind: "resident_master",
      kinds: ["index_id", "repair", "compact", "merge_wal"],
      slots_total: { index_id: 2, repair: 2, compact: 1, merge_wal: 3 },
      bytes_total: 8 * GiB,
      draining: false,
      version: SIM_VERSIONS.previous,
    },
    {
      id: "worker-1",
      kind: "worker",
      kinds: ["merge_wal"],
      slots_total: { merge_wal: 4 },
      bytes_total: 16 * GiB,
      draining: false,
      version: SIM_VERSIONS.previous,
    },
    {
      id: "worker-2",
      kind: "worker",
      kinds: ["compact", "merge_wal"],
      slots_total: { compact: 2, merge_wal: 4 },
      bytes_total: 16 * GiB,
      draining: false,
      version: SIM_VERSIONS.previous,
    },
    {
      id: "catchup-1",
      kind: "catchup_job",
      kinds: ["merge_wal"],
      slots_total: { merge_wal: 1 },
      bytes_total: 0,
      draining: false,
      version: SIM_VERSIONS.previous,
    },
    {
      id: "legacy-rpc-1",
      kind: "legacy_rpc",
      kinds: ["index_id", "repair", "compact"],
      slots_total: { index_id: 1, repair: 1, compact: 1 },
      bytes_total: 0,
      draining: false,
      version: SIM_VERSIONS.previous,
    },
  ];
}

export function heartbeatValue(e: SimExecutor, now: number): string {
  return JSON.stringify({
    v: 1,
    kind: e.kind,
    instance: e.id,
    version: e.version ?? SIM_VERSIONS.previous,
    kinds: e.kinds,
    slots_total: e.slots_total,
    bytes_total: e.bytes_total,
    bytes_free_sample: Math.floor(e.bytes_total * 0.6),
    draining: e.draining,
    heartbeat_ms: now,
  });
}

/** A heartbeat stamped at `now` (default: the moment it is made, as a live executor stamps it), written first (`dated`). */
export function heartbeatKv(prefix: string, e: SimExecutor, now = Date.now()): SeedKv {
  return { key: keys.executor(prefix, e.id), value: heartbeatValue(e, now), leased: true, dated: true };
}

export const LEADER_INSTANCE = "master-a";

export function leaderKvs(prefix: string, now: number, token = "leader-token-0001"): { token: string; kvs: SeedKv[] } {
  return {
    token,
    kvs: [
      {
        key: keys.leader(prefix),
        value: JSON.stringify({ v: 1, token, instance: LEADER_INSTANCE, since_ms: now - 600_000 }),
        leased: true,
        dated: true,
      },
      { key: keys.leaderToken(prefix), value: token, leased: true, dated: true },
    ],
  };
}
