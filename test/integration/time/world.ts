// A world dated in the past for the time-travel tests: the `incidents` scenario, the six
// fleet executors and the leader, every timestamp relative to `t0` (hours ago), written
// now. The console's API modules run in-process against the suite's real etcd.
import type { Etcd3 } from "etcd3";
import { createRawEtcdClient } from "@/lib/etcd/raw";
import { resetConsoleEnv } from "@/lib/config/env";
import { classifyError } from "@/lib/schema/api/errors";
import { fleetExecutors, loadKvs, scenarioKvs } from "@/lib/sim";
import { heartbeatKv, leaderKvs } from "@/lib/sim/scenarios/fleet";

export const HOUR_MS = 3_600_000;

export function clientFor(endpoints: string): Etcd3 {
  return createRawEtcdClient({ endpoints: endpoints.split(","), callTimeoutMs: 30_000 });
}

/** Points this process's console modules at `endpoints` and `prefix` (before their first use). */
export function useConsoleEnv(endpoints: string, prefix: string): void {
  process.env.ETCD_ENDPOINTS = endpoints;
  process.env.ETCD_PREFIX = prefix;
  process.env.CONSOLE_SHADOW_SAMPLER = "off";
  resetConsoleEnv();
}

/** Seeds the world as of `t0`; returns the revision of its last write. */
export async function seedDatedWorld(client: Etcd3, prefix: string, t0: number): Promise<number> {
  const kvs = [
    ...scenarioKvs("incidents", prefix, t0),
    ...fleetExecutors(t0).map((e) => heartbeatKv(prefix, e, t0)),
    ...leaderKvs(prefix, t0).kvs,
  ];
  return (await loadKvs(client, kvs, { leaseTtlSec: 4 * 3600 })).revision;
}

/** the contract's error for a thrown value (what the handler wrapper would answer) */
export async function failure(p: Promise<unknown>) {
  try {
    await p;
  } catch (e) {
    return classifyError(e);
  }
  throw new Error("expected a failure");
}
