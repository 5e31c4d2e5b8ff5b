// The fleet simulator: loopback only, the realistic + incidents scenarios with their
// documented numbers, and live mode moving demand through read–join–CAS.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deriveTable } from "@/lib/planner/derived";
import { assertLoopback, isLoopbackEndpoint, RemoteEndpointRefused } from "@/lib/sim/loopback";
import { runLive } from "@/lib/sim/live";
import { INCIDENT } from "@/lib/sim/scenarios/incidents";
import { GIANT_TABLE, HOT_TABLES, REALISTIC_TABLES } from "@/lib/sim/scenarios/realistic";
import { seedScenarios } from "@/lib/sim/seed";
import type { FleetRead } from "@/lib/snapshot/read";
import { until } from "../../support/observe";
import { testPrefix } from "../../support/prefix";
import { foldRead, readerFor, suiteClient } from "./helpers";

const ROOT = path.resolve(__dirname, "../../..");
const client = suiteClient();
const P = testPrefix("sim");
let read: FleetRead;

beforeAll(async () => {
  await seedScenarios(client, ["realistic", "incidents"], { prefix: P, now: 1_800_000_000_000 });
  read = await readerFor(client, P).readFleetWithKvs();
}, 180_000);
afterAll(() => client.close());

describe("simulator", () => {
  it("refuses a non-loopback endpoint unless forced", () => {
    expect(isLoopbackEndpoint("http://127.0.0.1:2379")).toBe(true);
    expect(isLoopbackEndpoint("http://localhost:2379")).toBe(true);
    expect(isLoopbackEndpoint("http://[::1]:2379")).toBe(true);
    expect(isLoopbackEndpoint("http://10.1.2.3:2379")).toBe(false);
    expect(isLoopbackEndpoint("https://etcd.prod.internal:2379")).toBe(false);
    expect(() => assertLoopback(["http://127.0.0.1:2379", "http://10.1.2.3:2379"])).toThrow(RemoteEndpointRefused);
    expect(() => assertLoopback(["http://10.1.2.3:2379"], true)).not.toThrow();

    const cli = spawnSync(
      process.execPath,
      [
        path.join(ROOT, "node_modules/tsx/dist/cli.mjs"),
        "lib/sim/cli.ts",
        "seed",
        "--endpoints",
        "http://10.1.2.3:2379",
      ],
      {
        cwd: ROOT,
        encoding: "utf8",
        timeout: 60_000,
      },
    );
    expect(cli.status).toBe(1);
    expect(cli.stderr.trim()).toBe(
      "refusing to write simulated data to non-loopback etcd http://10.1.2.3:2379 (pass --force-remote to allow)",
    );
  });

  it("realistic: 13,405 tables + the incident tables, 354 with backlog, one past 4,096", () => {
    const folded = foldRead(read);
    const pending = new Map([...folded.tables].map(([t, table]) => [t, deriveTable(table).pending_generations]));
    const realistic = [...pending].filter(([t]) => !t.startsWith("incident/"));
    expect(realistic).toHaveLength(REALISTIC_TABLES);
    expect(realistic.filter(([, p]) => p > 0)).toHaveLength(354);
    expect(realistic.filter(([, p]) => p > 4096).map(([t]) => t)).toEqual([GIANT_TABLE]);
    expect(
      realistic
        .filter(([, p]) => p > 256)
        .map(([t]) => t)
        .sort(),
    ).toEqual([GIANT_TABLE, ...HOT_TABLES].sort());
    expect(read.snapshot.executors.map((e) => e.id).sort()).toEqual(
      ["catchup-1", "legacy-rpc-1", "master-a", "master-b", "worker-1", "worker-2", INCIDENT.drainingExecutor].sort(),
    );
    expect(new Set(read.snapshot.executors.map((e) => e.heartbeat.kind))).toEqual(
      new Set(["resident_master", "worker", "catchup_job", "legacy_rpc"]),
    );
    expect(read.snapshot.leader?.record.instance).toBe("master-a");
  });

  it("incidents are present under their documented names", () => {
    const s = read.snapshot;
    expect(s.skipped.map((k) => k.reason).sort()).toEqual(["bad_json", "bad_key", "unknown_version"]);
    expect(s.executors.find((e) => e.id === INCIDENT.drainingExecutor)?.heartbeat.draining).toBe(true);
    expect(s.assignments.find((a) => a.target === INCIDENT.orphanTarget)?.assignment.executor).toBe(
      INCIDENT.orphanExecutor,
    );
    expect(
      s.mergeFailures
        .filter((f) => f.failure.needs_attention)
        .map((f) => f.target)
        .sort(),
    ).toEqual([INCIDENT.brokenStore, INCIDENT.brokenStoreRepeat]);
    expect(s.cooldowns.map((c) => `${c.kind}:${c.target}`).sort()).toEqual([
      `compact:${INCIDENT.brokenStore}`,
      `index_id:${INCIDENT.brokenStore}`,
      `repair:${INCIDENT.brokenStoreRepeat}`,
    ]);
    expect(s.queue.map((t) => t.task.target)).toContain(INCIDENT.phantomQueued);
    expect(s.running.map((t) => t.task.target)).toContain(INCIDENT.phantomRunning);
    expect(
      s.demandEvents.some((e) => e.target === INCIDENT.phantomQueued || e.target === INCIDENT.phantomRunning),
    ).toBe(false);
    expect(s.targetLocks.find((l) => l.target === INCIDENT.lockedTarget)?.value).toBe(INCIDENT.lockToken);
    expect(s.targetLocks.find((l) => l.target === INCIDENT.mergingTarget)?.value).toBe(
      `merge-execution:${INCIDENT.mergingExecutionId}`,
    );
    expect(s.mergeProgress.find((p) => p.executionId === INCIDENT.mergingExecutionId)?.progress.sequence).toBe(
      INCIDENT.mergingSequence,
    );
    expect(s.compactPreparations.find((p) => p.target === INCIDENT.preparedTarget)?.value).toBe(
      INCIDENT.preparationToken,
    );
    expect(s.compactCommitReady.find((p) => p.target === INCIDENT.preparedTarget)?.value).toBe(
      INCIDENT.preparationToken,
    );
    expect(s.catchupActive.map((c) => c.target)).toEqual([INCIDENT.catchingUpTarget]);
  });

  it("live mode publishes flushes and merges, heartbeats and a leased leader", async () => {
    const live = testPrefix("live");
    await seedScenarios(client, ["incidents"], { prefix: live });
    // a small fleet of its own to move
    for (let i = 0; i < 5; i++) {
      await client.put(`${live}/demand-events/${Buffer.from(`live-${i}`).toString("hex")}/s`).value(
        JSON.stringify({
          shard: "s",
          sealed_through: 100,
          merged_through: 50,
          flushed_at_ms: 1,
          writer_epoch: 1,
          source: "writer",
        }),
      );
    }
    const reader = readerFor(client, live);
    const before = await reader.readFleet();
    const stop = new AbortController();
    const lines: string[] = [];
    let ticks = 0;
    const running = runLive(client, {
      prefix: live,
      intervalMs: 100,
      signal: stop.signal,
      log: (l) => lines.push(l),
      onTick: (s) => (ticks = s.ticks),
    });
    const sealed = (s: typeof before) =>
      s.demandEvents.filter((e) => e.target.startsWith("live-")).reduce((n, e) => n + e.event.sealed_through, 0);
    const merged = (s: typeof before) =>
      s.demandEvents.filter((e) => e.target.startsWith("live-")).reduce((n, e) => n + (e.event.merged_through ?? 0), 0);
    // wait for three ticks, then for their flushes and merges to be readable
    const moved = await until(
      async () => {
        if (ticks < 3) return undefined;
        const s = await reader.readFleet();
        return sealed(s) > sealed(before) && merged(s) > merged(before) && s.leader !== null ? s : undefined;
      },
      30_000,
      50,
    );
    stop.abort();
    const stats = await running;
    expect(moved, "the live simulator moved the fleet").not.toBeNull();
    const during = moved!.value;
    expect(stats.ticks).toBeGreaterThan(2);
    expect(lines.filter((l) => l.includes("failed"))).toEqual([]);
    expect(during.leader?.record.instance).toBe("master-a");
    expect(during.leader?.lease).not.toBe("0");
    expect(sealed(during)).toBeGreaterThan(sealed(before));
    expect(merged(during)).toBeGreaterThan(merged(before));
    const progress = (s: typeof before) =>
      s.mergeProgress.find((p) => p.executionId === INCIDENT.mergingExecutionId)!.progress.sequence;
    expect(progress(during)).toBeGreaterThan(progress(before));
    // stopping revokes the live lease: leader and live heartbeats are gone
    const after = await reader.readFleet();
    expect(after.leader).toBeNull();
  });
});
