// Faults against a real etcd of our own (console-api.md "Conventions"): a read pinned to
// a compacted revision fails with RevisionCompacted and its compact revision; a stopped
// etcd fails with EtcdUnavailable within 2 s, never a hang.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Etcd3 } from "etcd3";
import { createRawEtcdClient } from "@/lib/etcd/raw";
import { EtcdUnavailable, RevisionCompacted } from "@/lib/etcd/errors";
import { keys } from "@/lib/schema/keys";
import { seedScenarios } from "@/lib/sim/seed";
import { createFleetReader } from "@/lib/snapshot/read";
import { startEtcd, type EtcdCluster } from "../../support/etcd";

const P = "/faults/lance-context/master";
let cluster: EtcdCluster;
let client: Etcd3;

beforeAll(async () => {
  cluster = await startEtcd();
  client = createRawEtcdClient({ endpoints: cluster.endpoints.split(",") });
});
afterAll(async () => {
  client.close();
  await cluster.stop();
});

const event = (sealed: number) =>
  JSON.stringify({ shard: "s", sealed_through: sealed, flushed_at_ms: 1, writer_epoch: 1, source: "writer" });

describe("etcd faults", () => {
  it("a read pinned to a compacted revision fails with RevisionCompacted and its compact revision", async () => {
    const first = await client
      .put(keys.demandEvent(P, "t", "s"))
      .value(event(1))
      .exec();
    const old = Number(first.header.revision);
    await client.put(keys.demandEvent(P, "t", "s")).value(event(2));
    const third = await client
      .put(keys.demandEvent(P, "t", "s"))
      .value(event(3))
      .exec();
    const compactAt = Number(third.header.revision);
    await client.kv.compact({ revision: compactAt, physical: true });

    const reader = createFleetReader({ client, prefix: P });
    const error = await reader.readFleet({ revision: old }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RevisionCompacted);
    expect((error as RevisionCompacted).revision).toBe(old);
    expect((error as RevisionCompacted).compactRevision).toBe(compactAt);
    expect((error as RevisionCompacted).code).toBe("revision_compacted");

    // unpinned reads are unaffected
    const latest = await reader.readFleet();
    expect(latest.demandEvents[0].event.sealed_through).toBe(3);
  });

  it("a stopped etcd fails with EtcdUnavailable within 2 s", async () => {
    const reader = createFleetReader({ client, prefix: P, cacheSize: 0 });
    await reader.readFleet();
    await cluster.members[0].kill();
    const started = performance.now();
    const error = await reader.readFleet().catch((e: unknown) => e);
    const elapsed = performance.now() - started;
    expect(error).toBeInstanceOf(EtcdUnavailable);
    expect((error as EtcdUnavailable).code).toBe("etcd_unavailable");
    expect(elapsed).toBeLessThan(2000);

    // a second attempt fails fast too (no hang on a dead member)
    const again = performance.now();
    await expect(reader.readFleet()).rejects.toBeInstanceOf(EtcdUnavailable);
    expect(performance.now() - again).toBeLessThan(2000);

    // and the client recovers once etcd is back
    await cluster.members[0].start();
    const deadline = Date.now() + 15_000;
    for (;;) {
      try {
        const snap = await reader.readFleet();
        expect(snap.demandEvents).toHaveLength(1);
        break;
      } catch (e) {
        if (Date.now() > deadline) throw e;
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  });
});

describe("compaction during a read", () => {
  it("restarts once at a fresh revision when the caller pinned none", async () => {
    const own = await startEtcd();
    const c = createRawEtcdClient({ endpoints: own.endpoints.split(","), callTimeoutMs: 30_000 });
    try {
      const prefix = "/compact-mid-read/lance-context/master";
      await seedScenarios(c, ["production"], { prefix });
      let compacting: Promise<unknown> | null = null;
      const reader = createFleetReader({
        client: c,
        prefix,
        cacheSize: 0,
        // after the first page of events: write once more and compact up to it, under the read
        observePage: (family) => {
          if (family !== "demand-events" || compacting) return;
          compacting = c
            .put(`${prefix}/bump`)
            .value("x")
            .exec()
            .then((r) => c.kv.compact({ revision: r.header.revision, physical: true }));
        },
      });
      const snap = await reader.readFleet();
      expect(compacting).not.toBeNull();
      expect(snap.stats.restarts).toBe(1);
      expect(snap.demandEvents).toHaveLength(26_810);
      expect(snap.skipped).toHaveLength(0);

      // pinned by the caller: no restart, the typed error instead
      compacting = null;
      const pinnedAt = Number((await c.put(`${prefix}/bump`).value("y").exec()).header.revision);
      const error = await reader.readFleet({ revision: pinnedAt }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RevisionCompacted);
      expect((error as RevisionCompacted).compactRevision).toBeGreaterThan(pinnedAt);
      await compacting;
    } finally {
      c.close();
      await own.stop();
    }
  });
});
