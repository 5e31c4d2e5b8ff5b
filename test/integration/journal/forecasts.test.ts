// The forecast journal on a real etcd (console-api.md "Forecasts, per world, that say how often
// they come true"): the elected sampler samples both worlds' forecasts of the queued tables into
// `P/console/forecasts/`, resolves a legacy forecast when its queued task starts (dated by the
// task's started_at), GET /forecasts/calibration counts it, and the one-table answer's interval
// rests on the chunks stored at its revision (pinned before them: nothing resolved yet).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Etcd3 } from "etcd3";
import { startEtcd, type EtcdCluster } from "../../support/etcd";
import { until } from "../../support/observe";
import { testPrefix } from "../../support/prefix";
import { keys } from "@/lib/schema/keys";
import { uuidv7 } from "@/lib/schema/task-id";
import type { TaskRecord } from "@/lib/schema/tasks";
import { demandQuerySchema } from "@/lib/schema/api/demand";
import { calibrationQuerySchema } from "@/lib/schema/api/forecasts";
import { forecastPrefix } from "@/lib/schema/forecast-keys";
import { decodeForecastChunk } from "@/lib/journal/forecasts/codec";
import type { ForecastChunk } from "@/lib/journal/forecasts/records";
import type { ShadowSampler as Sampler } from "@/lib/live/sampler";
import { clientFor, useConsoleEnv } from "../time/world";
import { contendedFleet } from "./contention";

let etcd: EtcdCluster;
let client: Etcd3;
let prefix: string;
let sampler: Sampler | null = null;
const fleet = contendedFleet(
  () => client,
  () => prefix,
  "forecasts",
  "only-worker",
);
const [, B, C, D] = fleet.tables;
const T0 = Date.now();

const record = (t: TaskRecord) => JSON.stringify(t);
const queued = (target: string, i: number): TaskRecord => ({
  id: uuidv7(T0 - 120_000 + i * 1000, i),
  kind: "merge_wal",
  target,
  state: "queued",
  enqueued_at: T0 - 120_000 + i * 1000,
  depends_on: [],
});

async function revisionNow(): Promise<number> {
  return Number((await client.get(`${prefix}/`).exec()).header.revision);
}

/** Every stored forecast chunk, in key (time) order. */
async function chunks(): Promise<ForecastChunk[]> {
  const all = await client.getAll().prefix(forecastPrefix(prefix)).buffers();
  return Object.keys(all)
    .sort()
    .map((k) => decodeForecastChunk(all[k]));
}

beforeAll(async () => {
  etcd = await startEtcd();
  prefix = testPrefix("forecasts");
  useConsoleEnv(etcd.endpoints, prefix);
  client = clientFor(etcd.endpoints);
  await fleet.seed();
  await fleet.publishStep(0);
  // ten merges finished a minute apart in the last hour (a rate: one every 60 s), then b, c, d queued in that order
  for (let i = 0; i < 10; i++) {
    const done: TaskRecord = {
      id: uuidv7(T0 - 900_000 + i * 60_000, 100 + i),
      kind: "merge_wal",
      target: `forecasts/done-${i}`,
      state: "done",
      enqueued_at: T0 - 900_000 + i * 60_000,
      started_at: T0 - 890_000 + i * 60_000,
      finished_at: T0 - 880_000 + i * 60_000,
      depends_on: [],
    };
    await client.put(keys.task(prefix, done.id)).value(record(done));
  }
  for (const [i, target] of [B, C, D].entries()) {
    const t = queued(target, i);
    await client.put(keys.task(prefix, t.id)).value(record(t));
    await client.put(keys.queued(prefix, t.id)).value(record(t));
  }
});

afterAll(async () => {
  await sampler?.stop().catch(() => undefined);
  client?.close();
  await etcd?.stop();
});

describe("the forecast journal on a real etcd", () => {
  it("samples, resolves a legacy forecast when its task starts, counts it, and the answer rests on the chunks at its revision", async () => {
    const before = await revisionNow();
    const { forecastEvaluation, journalEvaluation } = await import("@/lib/process/sampling");
    // the elected sampler with its forecast writer, flushing fast (once a minute in production)
    const { ShadowSampler } = await import("@/lib/live/sampler");
    sampler = new ShadowSampler({
      client,
      prefix,
      sample: async () => null,
      intervalMs: 3_600_000,
      electionTtlSecs: 2,
      retryMs: 100,
      journal: {
        evaluate: journalEvaluation,
        retentionMs: 7 * 86_400_000,
        maxBytes: 64 * 1_048_576,
        flushMs: 300,
        evalMs: 200,
        checkpointMs: 3_600_000,
      },
      forecasts: { evaluate: forecastEvaluation, retentionMs: 7 * 86_400_000, maxBytes: 8 * 1_048_576, flushMs: 300 },
    });
    sampler.start();

    // b, c and d are sampled in the legacy world: ranks 1, 2, 3 of 3 in id order
    const { value: sampled } = await until(
      async () => {
        const legacy = (await chunks())
          .flatMap((c) => c.evaluations.flatMap((e) => e.forecasts))
          .filter((f) => f.world === "legacy");
        return legacy.length >= 3 ? legacy : undefined;
      },
      30_000,
      { what: "the queued tables' legacy forecasts in the journal" },
    );
    // (sampled in an order neither rank nor fate decides)
    expect(
      sampled
        .slice(0, 3)
        .map((f) => [f.target, f.rank, f.of])
        .sort((x, y) => Number(x[1]) - Number(y[1])),
    ).toEqual([
      [B, 1, 3],
      [C, 2, 3],
      [D, 3, 3],
    ]);

    // b's task starts: its turn, dated by the task's own started_at
    const started = Date.now();
    const qb = queued(B, 0);
    const rb: TaskRecord = { ...qb, state: "running", started_at: started };
    await client.delete().key(keys.queued(prefix, qb.id));
    await client.put(keys.running(prefix, qb.id)).value(record(rb));
    await client.put(keys.task(prefix, qb.id)).value(record(rb));
    const { value: turn } = await until(
      async () => {
        const outcomes = (await chunks()).flatMap((c) => c.evaluations.flatMap((e) => e.outcomes));
        return outcomes.find((o) => o.target === B && o.world === "legacy");
      },
      30_000,
      { what: "b's legacy turn in the journal" },
    );
    expect(turn).toEqual({ target: B, world: "legacy", what: "turn", kind: "merge_wal", at_ms: started });

    // the score counts b's forecast as resolved, its realised wait the time from the forecast to the start
    const { forecastCalibration } = await import("@/lib/time/forecast-calibration");
    const score = await forecastCalibration(calibrationQuerySchema.parse({ window_ms: "3600000" }));
    const bForecasts = sampled.filter((f) => f.target === B);
    expect(score.worlds.legacy.made).toBeGreaterThanOrEqual(3);
    expect(score.worlds.legacy.resolved).toBeGreaterThanOrEqual(bForecasts.length);
    expect(score.worlds.legacy.median_wait_ms).not.toBeNull();
    expect(score.chunks.unreadable).toBe(0);

    // c's answer: the legacy world acts (mode legacy), c is first in the queue now, and its
    // interval rests on the resolved forecasts stored at the answer's revision
    const { demandDetail } = await import("@/lib/scheduler/demand-detail");
    const { value: now } = await until(
      async () => {
        const page = await demandDetail({ ...demandQuerySchema.parse({ target: C }), target: C });
        const legacy = page.table.forecasts[0];
        return legacy.position?.rank === 1 && (legacy.calibration?.resolved ?? 0) >= 1 ? page : undefined;
      },
      30_000,
      { what: "c's answer counting b's resolved forecast" },
    );
    const [acting, other] = now.table.forecasts;
    expect([acting.world, acting.acting, other.world, other.acting]).toEqual(["legacy", true, "planner", false]);
    expect(now.table.position).toEqual(acting.position);
    expect(now.table.eta).toEqual(acting.eta);

    // pinned before any forecast chunk: the same table's interval rests on nothing resolved
    const pinned = await demandDetail({
      ...demandQuerySchema.parse({ target: C, revision: String(before) }),
      target: C,
    });
    expect(pinned.table.forecasts[0].calibration).toMatchObject({ resolved: 0, calibrated: false });
  }, 120_000);
});
