// The contended fleet the journal's integration tests share: four tables behind one worker
// whose merge slots the test turns (1 → 2 → 1), each step moving every table's backlog, and
// the elected sampler with a fast journal (evaluate every 200 ms, flush every 300 ms).
import type { Etcd3 } from "etcd3";
import { publishDemandEvent } from "@/lib/sim";
import { loadKvs } from "@/lib/sim/load";
import { heartbeatKv, heartbeatValue, leaderKvs, type SimExecutor } from "@/lib/sim/scenarios/fleet";
import { writerEvent } from "@/lib/planner/join";
import { keys } from "@/lib/schema/keys";
import { liveCache } from "@/lib/live/cache";
import type { JournalOptions } from "@/lib/live/journal";
import type { EtcdClient } from "@/lib/etcd/client";
import { ShadowSampler } from "@/lib/live/sampler";
import { until } from "../../support/observe";

/**
 * Waits until the revision clock dates `revision` for good: a clock sample after it closed its
 * interval. History points are dated by the clock as the pinned page dates them (console-api.md
 * fourth version), and a date newer than the last sample narrows as samples arrive (every 5 s
 * from the elected sampler): two answers compared byte for byte wait for this first.
 */
export async function datesSettled(revision: number): Promise<void> {
  const { revisionClock } = await import("@/lib/live/revision-clock");
  await until(
    async () => ((await revisionClock().timeOfReadable(revision)) && revisionClock().isSettled(revision)) || undefined,
    30_000,
    { what: `a revision-clock sample after revision ${revision}` },
  );
}

const GiB = 1024 ** 3;

export interface ContendedFleet {
  tables: string[];
  /** the worker and its leader, one merge slot; under a lease that outlives the test */
  seed(): Promise<void>;
  /** Each table's backlog moves; returns the revision of the last write. */
  publishStep(step: number): Promise<number>;
  /** The worker's merge slots (with two, a second table is placed); returns the write's revision. */
  setSlots(slots: number): Promise<number>;
  /**
   * A sampler journalling this fleet (not started); `journal` overrides the fast defaults,
   * `electionTtlSecs` the 2 s election, `client` the test's own (30 s call deadline).
   */
  sampler(
    journal?: Partial<JournalOptions>,
    opts?: { electionTtlSecs?: number; client?: EtcdClient },
  ): Promise<ShadowSampler>;
}

export function contendedFleet(
  client: () => Etcd3,
  prefix: () => string,
  name: string,
  workerId: string,
): ContendedFleet {
  const tables = ["a", "b", "c", "d"].map((t) => `${name}/${t}`);
  const worker = (slots: number): SimExecutor => ({
    id: workerId,
    kind: "worker",
    kinds: ["merge_wal"],
    slots_total: { merge_wal: slots },
    bytes_total: 16 * GiB,
    draining: false,
  });
  return {
    tables,
    seed: async () => {
      await loadKvs(client(), [heartbeatKv(prefix(), worker(1)), ...leaderKvs(prefix(), Date.now()).kvs], {
        leaseTtlSec: 3600,
      });
    },
    publishStep: async (step) => {
      const at = Date.now();
      for (const [i, target] of tables.entries()) {
        const sealed = 40 + 30 * i + step * 7 * (i % 2 === 0 ? 1 : 3);
        await publishDemandEvent(
          client(),
          prefix(),
          target,
          writerEvent({ shard: "s1", sealed, bytes: sealed * 1_048_576, epoch: 1, flushedAtMs: at - 30 * 60_000 }),
        );
      }
      return Number((await client().get(`${prefix()}/`).exec()).header.revision);
    },
    setSlots: async (slots) => {
      const put = await client()
        .put(keys.executor(prefix(), workerId))
        .value(heartbeatValue(worker(slots), Date.now()));
      return Number(put.header.revision);
    },
    sampler: async (journal = {}, opts = {}) =>
      new ShadowSampler({
        client: opts.client ?? client(),
        prefix: prefix(),
        sample: async () => null,
        intervalMs: 3_600_000,
        electionTtlSecs: opts.electionTtlSecs ?? 2,
        retryMs: 100,
        etcdUnavailableMs: () => liveCache().lastUnavailableMs,
        journal: {
          // loaded once the test has set the console's environment
          evaluate: (await import("@/lib/process/sampling")).journalEvaluation,
          retentionMs: 7 * 86_400_000,
          maxBytes: 64 * 1_048_576,
          flushMs: 300,
          evalMs: 200,
          checkpointMs: 3_600_000,
          ...journal,
        },
      }),
  };
}
