// The simulator's legacy side (lib/sim/legacy.ts) in the master's record shapes
// (scheduler-model.md §1.2, §2.8): due tables are queued with a dedupe key, running merges
// hold a claim, an execution fence and its target lock, and finished merges end as `tasks/`
// records, done or failed, with started_at ≤ finished_at. Heartbeats carry versions.
import type { Etcd3 } from "etcd3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedEtcd } from "../../support/shared-etcd";
import { createRawEtcdClient } from "@/lib/etcd/raw";
import { runLive } from "@/lib/sim/live";
import { hex } from "@/lib/schema/keys";
import { testPrefix } from "../../support/prefix";
import { until } from "../../support/observe";

let client: Etcd3;
const prefix = testPrefix("legacy-sim");

beforeAll(() => {
  client = createRawEtcdClient({ endpoints: sharedEtcd().split(","), callTimeoutMs: 10_000 });
});
afterAll(() => client?.close());

describe("the simulator's legacy side", () => {
  it("queues, claims, runs and finishes merges like the master; its masters carry versions", async () => {
    for (let i = 0; i < 30; i++) {
      const event = {
        shard: "s",
        sealed_through: 100 + 10 + (i % 5) * 10,
        merged_through: 100,
        flushed_at_ms: Date.now(),
        writer_epoch: 1,
        source: "writer",
      };
      await client.put(`${prefix}/demand-events/${hex(`legacy/table-${i}`)}/s`).value(JSON.stringify(event));
    }
    const stop = new AbortController();
    let enough = false;
    const live = runLive(client, {
      prefix,
      intervalMs: 0,
      flushesPerTick: 2, // the tables stay due, so merges are running when the fleet is read
      signal: stop.signal,
      upgradeAfterTicks: 1_000_000,
      onTick: (s) => (enough = s.ticks >= 60 && s.merges >= 20),
    });
    await until(async () => enough || undefined, 60_000, { what: "60 ticks and 20 finished merges" });
    // one range read is one revision: every family as of the same moment, while claims are leased and alive
    const all = await client.getAll().prefix(`${prefix}/`).exec();
    stop.abort();
    const stats = await live;
    const family = (name: string) =>
      new Map(
        all.kvs
          .filter((kv) => kv.key.toString().startsWith(`${prefix}/${name}/`))
          .map((kv) => [kv.key.toString().slice(`${prefix}/${name}/`.length), kv.value.toString()]),
      );
    expect(stats.failedTicks).toBe(0);
    const [tasks, queue, running, claims, dedupe, executions, locks, executors] = [
      "tasks",
      "queue",
      "running",
      "claims",
      "dedupe/merge-wal",
      "merge-executions",
      "target-locks",
      "executors",
    ].map(family);
    expect([JSON.parse(executors.get("master-a")!).version, JSON.parse(executors.get("master-b")!).version]).toEqual([
      "0.43.0",
      "0.42.0",
    ]);
    const records = [...tasks.values()].map(
      (v) =>
        JSON.parse(v) as {
          id: string;
          kind: string;
          target: string;
          state: string;
          enqueued_at: number;
          started_at?: number;
          finished_at?: number;
          error?: string;
        },
    );
    const finished = records.filter((t) => t.state === "done" || t.state === "failed");
    expect(finished.length).toBeGreaterThanOrEqual(20);
    for (const t of finished) {
      expect(t.kind).toBe("merge_wal");
      expect(t.enqueued_at <= t.started_at! && t.started_at! <= t.finished_at!).toBe(true);
      expect(t.state === "failed").toBe(t.error !== undefined);
      expect(queue.has(t.id) || running.has(t.id) || dedupe.get(hex(t.target)) === t.id).toBe(false);
    }
    // every queued task is `queued` in tasks/ and holds its dedupe key; every running one a claim, a fence and the lock
    for (const [id, v] of queue) {
      const t = JSON.parse(v);
      expect([JSON.parse(tasks.get(id)!).state, dedupe.get(hex(t.target))]).toEqual(["queued", id]);
    }
    for (const [id, v] of running) {
      const t = JSON.parse(v);
      const execution = JSON.parse(executions.get(hex(t.target))!);
      expect([JSON.parse(tasks.get(id)!).state, claims.has(id), execution.phase, locks.get(hex(t.target))]).toEqual([
        "running",
        true,
        "running",
        `merge-execution:${execution.id}`,
      ]);
    }
    expect(running.size).toBeGreaterThan(0);
  });

  it("gives its masters versions, master-b upgrading after upgradeAfterTicks", async () => {
    const p = `${prefix}-versions`;
    const stop = new AbortController();
    const seen: string[] = [];
    await runLive(client, {
      prefix: p,
      intervalMs: 0,
      upgradeAfterTicks: 3,
      signal: stop.signal,
      onTick: (s) => {
        void client
          .get(`${p}/executors/master-b`)
          .string()
          .then((v) => v && seen.push(JSON.parse(v).version));
        if (s.ticks >= 6) stop.abort();
      },
    });
    expect(seen[0]).toBe("0.42.0");
    expect(seen.includes("0.43.0")).toBe(true);
  });
});
