// `npm run demo` gives enough history: the live simulator works its seeded backlog down to a
// steady one and keeps it there over a quarter of an hour of ticks (lib/sim/README.md
// "Rates"), writes the master's cache rows (§6.1) equal to the fold, and survives an etcd
// restart (own etcd, killed and started again).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Etcd3 } from "etcd3";
import { startEtcd, type EtcdCluster } from "../../support/etcd";
import { runLive, type LiveStats } from "@/lib/sim/live";
import { buildSnapshot, groupByFamily } from "@/lib/snapshot/build";
import { foldSnapshot } from "@/lib/snapshot/demand-index";
import { sameTableDemand } from "@/lib/planner/cache";
import { parseTableDemand } from "@/lib/schema/demand";
import { hex, unhex } from "@/lib/schema/keys";
import { reconcileDemandCache } from "@/lib/sim/reconcile";
import { readPrefixPaged } from "@/lib/etcd/paged-read";
import { clientFor } from "./world";
import { until } from "../../support/observe";

let cluster: EtcdCluster;
let client: Etcd3;

async function seedTables(prefix: string, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const value = JSON.stringify({
      shard: "s",
      sealed_through: 100 + (i % 7) * 10,
      merged_through: 100,
      flushed_at_ms: Date.now(),
      writer_epoch: 1,
      source: "writer",
    });
    await client.put(`${prefix}/demand-events/${hex(`sim/table-${i}`)}/s`).value(value);
  }
}

beforeAll(async () => {
  cluster = await startEtcd();
  client = clientFor(cluster.endpoints);
});

afterAll(async () => {
  client?.close();
  await cluster?.stop();
});

describe("the live simulator", () => {
  it("settles to a steady backlog within 900 ticks (a quarter of an hour at the demo's 1 s) and writes cache rows equal to the fold", async () => {
    const prefix = "/sim-steady/lance-context/master";
    await seedTables(prefix, 20);
    const stop = new AbortController();
    const pendings: number[] = [];
    let last: LiveStats | null = null;
    const running = runLive(client, {
      prefix,
      intervalMs: 0,
      flushesPerTick: 4,
      reconcileEveryTicks: 50,
      signal: stop.signal,
      onTick: (s) => {
        last = s;
        pendings.push(s.pending);
        if (s.ticks >= 900) stop.abort();
      },
    });
    const stats = await running;
    const seeded = Array.from({ length: 20 }, (_, i) => (i % 7) * 10).reduce((a, b) => a + b, 0);
    expect(stats.ticks).toBeGreaterThanOrEqual(900);
    expect(stats.failedTicks).toBe(0);
    expect(stats.merges).toBeGreaterThan(100);
    // after 300 ticks the backlog is steady: the mean over ticks 300–600 and over 600–900 within
    // ±20 % of each other; it never drains (a tenth of the seeded backlog at least) nor runs away
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const [first, second] = [pendings.slice(300, 600), pendings.slice(600, 900)].map(mean);
    expect(Math.abs(second - first)).toBeLessThanOrEqual(first * 0.2);
    expect(Math.min(...pendings.slice(300))).toBeGreaterThan(seeded / 10);
    expect(Math.max(...pendings.slice(300))).toBeLessThan(seeded);
    expect(last!.reconciles).toBeGreaterThan(0);
    // the simulated leader wrote a cache row per table; one more reconcile now makes every
    // row equal to a fold of the events (§6.1, equality as §3.7), and a second writes nothing
    expect((await readPrefixPaged(client, `${prefix}/demand/`)).kvs).toHaveLength(20);
    const token = (await client.get(`${prefix}/leader-token`).string()) ?? "";
    expect(token).toBe(""); // stopping revoked the leader's lease
    await client.put(`${prefix}/leader-token`).value("test-token");
    await reconcileDemandCache(client, prefix, "test-token");
    const events = await readPrefixPaged(client, `${prefix}/demand-events/`);
    const rows = await readPrefixPaged(client, `${prefix}/demand/`);
    const folded = foldSnapshot(buildSnapshot(prefix, events.revision, groupByFamily(prefix, events.kvs)));
    for (const kv of rows.kvs) {
      const target = unhex(kv.key.slice(`${prefix}/demand/`.length))!;
      const row = parseTableDemand(kv.value.toString("utf8"));
      expect(row.ok && sameTableDemand(row.value, folded.get(target)!, true)).toBe(true);
    }
    expect(await reconcileDemandCache(client, prefix, "test-token")).toMatchObject({ puts: 0, deletes: 0 });
    await expect(reconcileDemandCache(client, prefix, "someone-else")).resolves.toMatchObject({ puts: 0 }); // nothing to write: no guard needed
  });

  it("survives an etcd restart: ticks fail while it is down, then heartbeats, the leader and flushes resume", async () => {
    const prefix = "/sim-restart/lance-context/master";
    await seedTables(prefix, 5);
    const stop = new AbortController();
    let stats: LiveStats = { ticks: 0, flushes: 0, merges: 0, unchanged: 0, failedTicks: 0, reconciles: 0, pending: 0 };
    /** consecutive ticks without a failure */
    let clean = 0;
    const lines: string[] = [];
    const running = runLive(client, {
      prefix,
      intervalMs: 50,
      flushesPerTick: 2,
      leaseTtlSec: 5,
      signal: stop.signal,
      log: (l) => lines.push(l),
      onTick: (s) => {
        clean = s.failedTicks === stats.failedTicks ? clean + 1 : 0;
        stats = { ...s };
      },
    });
    try {
      await until(
        async () => {
          const n = stats.ticks;
          return n >= 3 ? n : undefined;
        },
        20_000,
        { what: "a few ticks" },
      ).then((r) => r.value);
      const member = cluster.members[0];
      await member.kill();
      await until(
        async () => {
          const n = stats.failedTicks;
          return n >= 1 ? n : undefined;
        },
        20_000,
        { what: "a failed tick while etcd is down" },
      ).then((r) => r.value);
      await member.start();
      const flushesAtRestart = stats.flushes;
      await until(
        async () => {
          const s = { clean, lines: lines.slice(-3) };
          return s.clean >= 10 ? s : undefined;
        },
        30_000,
        { what: "ten clean ticks in a row after the restart" },
      ).then((r) => r.value);
      expect(stats.flushes).toBeGreaterThan(flushesAtRestart);
      const leader = await until(
        async () => {
          const v = await client.get(`${prefix}/leader`).string();
          return v !== null ? v : undefined;
        },
        20_000,
        { what: "the leader re-put" },
      ).then((r) => r.value);
      expect(JSON.parse(leader!).instance).toBe("master-a");
      expect(await client.get(`${prefix}/executors/master-a`).string()).not.toBeNull();
    } finally {
      stop.abort();
      await running;
    }
  });
});
