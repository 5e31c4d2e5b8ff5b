// A whole console stack for e2e and the UI benchmark: a real etcd, the simulator's
// realistic fleet (13,405 tables) plus its named incident tables, and a real `next start`.
import "../../lib/sim/node-entry"; // first: lets lib/etcd load outside Next
import type { Etcd3 } from "etcd3";
import { createRawEtcdClient } from "@/lib/etcd/raw";
import { keys } from "@/lib/schema/keys";
import { seedScenarios } from "@/lib/sim/seed";
import { realisticTables } from "@/lib/sim/scenarios/realistic";
import { shardId } from "@/lib/sim/seed-kv";
import { startApp, type RunningApp } from "../../test/support/app";
import { startEtcd, type EtcdCluster } from "../../test/support/etcd";
import type { E2eState } from "./fixtures";

const E2E_PREFIX = "/lance-context/master";
/** The realistic table the time-travel change touches (index in realisticTables()). */
const CHANGED_TABLE_INDEX = 20;
const CHANGED_BY = 5;

export interface Stack {
  url: string;
  etcd: EtcdCluster;
  app: RunningApp;
  client: Etcd3;
  state: E2eState;
  stop(): Promise<void>;
}

/** Raise one shard's sealed mark by `by` generations (a writer flush), return the revision. */
async function flushGenerations(client: Etcd3, target: string, shard: string, by: number): Promise<number> {
  const key = keys.demandEvent(E2E_PREFIX, target, shard);
  const stored = JSON.parse((await client.get(key).string()) ?? "null") as Record<string, unknown> | null;
  if (!stored) throw new Error(`no demand event at ${key}`);
  const sealed = Number(stored.sealed_through) + by;
  const now = Date.now();
  const times = { ...((stored.sealed_times as Record<string, number> | undefined) ?? {}) };
  times[String(sealed)] = now;
  const put = await client
    .put(key)
    .value(JSON.stringify({ ...stored, sealed_through: sealed, flushed_at_ms: now, sealed_times: times }))
    .exec();
  return Number(put.header.revision);
}

export async function startStack(opts: { production: boolean; log?: (line: string) => void }): Promise<Stack> {
  const log = opts.log ?? (() => undefined);
  const etcd = await startEtcd();
  const client = createRawEtcdClient({ endpoints: etcd.endpoints.split(","), callTimeoutMs: 30_000 });
  let app: RunningApp | undefined;
  try {
    const now = Date.now();
    const tables = realisticTables();
    const results = await seedScenarios(client, opts.production ? ["realistic", "incidents"] : ["incidents"], {
      prefix: E2E_PREFIX,
      now,
      progress: log,
    });
    const seeded = { revision: Math.max(...Object.values(results).map((r) => r.revision)) };
    log(
      `seeded ${Object.entries(results)
        .map(([n, r]) => `${n}: ${r.kvs} kvs`)
        .join(", ")}; revision ${seeded.revision}`,
    );

    const changed = tables[CHANGED_TABLE_INDEX];
    const before = changed.pending.reduce((a, b) => a + b, 0);
    let changedRevision = seeded.revision;
    if (opts.production)
      changedRevision = await flushGenerations(client, changed.target, shardId(CHANGED_TABLE_INDEX, 0), CHANGED_BY);

    app = await startApp({ ETCD_ENDPOINTS: etcd.endpoints, ETCD_PREFIX: E2E_PREFIX, NEXT_TELEMETRY_DISABLED: "1" });
    const state: E2eState = {
      url: app.url,
      etcdEndpoints: etcd.endpoints,
      prefix: E2E_PREFIX,
      seedRevision: seeded.revision,
      changedRevision,
      changedTable: { target: changed.target, before, after: before + (opts.production ? CHANGED_BY : 0) },
    };
    const running = app;
    return {
      url: app.url,
      etcd,
      app,
      client,
      state,
      async stop() {
        await running.stop();
        client.close();
        await etcd.stop();
      },
    };
  } catch (e) {
    await app?.stop();
    client.close();
    await etcd.stop();
    throw e;
  }
}
