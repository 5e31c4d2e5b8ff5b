import "server-only";
// GET /api/v1/health (console-api.md): every configured etcd endpoint asked directly (its
// own one-host client, short deadline), the scheduler's leader and the live cache's state.
// ok = every endpoint answers and the cache is live; degraded = some answer; down = none.
import type { Etcd3 } from "etcd3";
import { consoleEnv } from "@/lib/config/env";
import { createEtcdClient, etcdClient, etcdPrefix } from "@/lib/etcd/client";
import { keys } from "@/lib/schema/keys";
import { parseLeader, type LeaderRecord } from "@/lib/schema/leader";
import type { HealthResponse } from "@/lib/schema/api/health";
import { liveCache } from "@/lib/live/cache";

const DEADLINE_MS = 1500;
const KEY = Symbol.for("scheduler-console.health-clients");

function clientFor(url: string): Etcd3 {
  const g = globalThis as unknown as Record<symbol, Map<string, Etcd3> | undefined>;
  const clients = (g[KEY] ??= new Map());
  let client = clients.get(url);
  if (!client) {
    const { etcd } = consoleEnv();
    client = createEtcdClient({ endpoints: [url], auth: etcd.auth, tls: etcd.tls, callTimeoutMs: DEADLINE_MS, dialTimeoutMs: DEADLINE_MS, fault: { attempts: 1 } });
    clients.set(url, client);
  }
  return client;
}

async function leaderRecord(): Promise<LeaderRecord | null> {
  const value = await Promise.race([
    etcdClient().get(keys.leader(etcdPrefix())).string(),
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error("leader read timed out")), DEADLINE_MS).unref()),
  ]);
  if (value === null) return null;
  const parsed = parseLeader(value);
  return parsed.ok ? parsed.value : null;
}

async function probe(url: string): Promise<{ url: string; ok: boolean; latency_ms: number | null; revision: number | null; error?: string }> {
  const started = performance.now();
  try {
    const status = await Promise.race([
      clientFor(url).maintenance.status(),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${DEADLINE_MS} ms`)), DEADLINE_MS).unref()),
    ]);
    return { url, ok: true, latency_ms: Math.round((performance.now() - started) * 10) / 10, revision: Number(status.header.revision) };
  } catch (e) {
    return { url, ok: false, latency_ms: null, revision: null, error: e instanceof Error ? e.message.slice(0, 200) : String(e) };
  }
}

export async function healthResponse(): Promise<{ status: number; body: HealthResponse }> {
  const probes = await Promise.all(consoleEnv().etcd.endpoints.map(probe));
  const answering = probes.filter((p) => p.ok);
  // health never triggers a fleet read: the leader is one key, the cache is reported as is
  if (answering.length > 0) liveCache().confirm();
  const snapshot = liveCache().status();
  const leader = answering.length > 0 ? await leaderRecord().catch(() => null) : null;
  const status: HealthResponse["status"] =
    answering.length === 0 ? "down" : answering.length === probes.length && (snapshot.live || snapshot.revision === null) ? "ok" : "degraded";
  return {
    status: status === "down" ? 503 : 200,
    body: {
      status,
      revision: answering.length > 0 ? Math.max(...answering.map((p) => p.revision ?? 0)) : null,
      endpoints: probes.map(({ revision: _r, ...p }) => p),
      leader: leader ? { token: leader.token, instance: leader.instance, since_ms: leader.since_ms } : null,
      snapshot,
    },
  };
}
