// console-api.md "Time" on its own etcd: the elected sampler's revision-clock samples date
// new revisions (`console_clock`, error half a sample period), and compaction answers 410
// for a revision, 404 for a time before any readable revision, and marks where it cut a
// table's history.
import { classifyError } from "@/lib/schema/api/errors";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Etcd3 } from "etcd3";
import { startEtcd, type EtcdCluster } from "../../support/etcd";
import { EtcdHttp } from "../../support/etcd-http";
import { publishDemandEvent } from "@/lib/sim";
import { writerEvent } from "@/lib/planner/join";
import { clockPrefix } from "@/lib/schema/keys";
import { ShadowSampler } from "@/lib/live/sampler";
import { historyQuerySchema } from "@/lib/schema/api/history";
import { clientFor, failure, HOUR_MS, seedDatedWorld, useConsoleEnv } from "./world";
import { until } from "../../support/observe";

const PREFIX = "/time-clock/lance-context/master";
const SAMPLE_MS = 200;
let cluster: EtcdCluster;
let client: Etcd3;
let sampler: ShadowSampler;

const samples = async () => Object.keys(await client.getAll().prefix(clockPrefix(PREFIX)).strings()).length;

beforeAll(async () => {
  cluster = await startEtcd();
  useConsoleEnv(cluster.endpoints, PREFIX);
  client = clientFor(cluster.endpoints);
  sampler = new ShadowSampler({
    client,
    prefix: PREFIX,
    sample: async () => null,
    clockIntervalMs: SAMPLE_MS,
    electionTtlSecs: 5,
  });
});

afterAll(async () => {
  await sampler?.stop();
  client?.close();
  await cluster?.stop();
});

describe("the console clock", () => {
  it("dates a revision written while the sampler runs to within half a sample period", async () => {
    const t0 = Date.now() - 3 * HOUR_MS;
    const seeded = await seedDatedWorld(client, PREFIX, t0);
    sampler.start();
    await until(
      async () => {
        const n = await samples();
        return n >= 3 ? n : undefined;
      },
      20_000,
      { what: "three clock samples" },
    ).then((r) => r.value);
    const before = Date.now();
    const written = (
      await client
        .put(`${PREFIX}/demand-events/74/s1`)
        .value(
          JSON.stringify({ shard: "s1", sealed_through: 5, flushed_at_ms: before, writer_epoch: 1, source: "writer" }),
        )
        .exec()
    ).header.revision;
    const after = Date.now();
    const { revisionTimeOf } = await import("@/lib/time/revisions");
    const t = await until(
      async () => {
        const x = await revisionTimeOf({ revision: Number(written) });
        return x.basis === "console_clock" && x.error_ms !== null && x.error_ms <= SAMPLE_MS ? x : undefined;
      },
      20_000,
      { what: "a sample after the write" },
    ).then((r) => r.value);
    expect(t.basis).toBe("console_clock");
    expect(t.at_ms!).toBeGreaterThanOrEqual(before - SAMPLE_MS);
    expect(t.at_ms!).toBeLessThanOrEqual(after + SAMPLE_MS);
    // the seeded revision predates every sample: still dated from its records, three hours ago
    const old = await revisionTimeOf({ revision: seeded });
    expect(old).toMatchObject({ basis: "record_timestamps", at_ms: t0 + 15_000, error_ms: 15_000 });
    // by wall time: now → a revision at or after the write; t0 + 1 min → the newest revision
    // dated by then (the seeded one, or a console write after it that changed no record)
    expect((await revisionTimeOf({ at_ms: Date.now() })).revision).toBeGreaterThanOrEqual(Number(written));
    const then = await revisionTimeOf({ at_ms: t0 + 60_000 });
    expect(then.revision).toBeGreaterThanOrEqual(seeded);
    expect(then.at_ms!).toBeLessThanOrEqual(t0 + 60_000);
    expect((await revisionTimeOf({ revision: then.revision + 1 })).at_ms!).toBeGreaterThan(t0 + 60_000);
  });
});

describe("compaction", () => {
  it("410 for a compacted revision, 404 before the oldest readable one, and the history says where it was cut", async () => {
    const { revisionTimeOf } = await import("@/lib/time/revisions");
    const { demandHistory } = await import("@/lib/time/history");
    const target = "time/compacted";
    await publishDemandEvent(
      client,
      PREFIX,
      target,
      writerEvent({ shard: "s1", sealed: 10, bytes: 1, epoch: 1, flushedAtMs: Date.now() }),
    );
    const beforeCompaction = Date.now();
    const old = Number((await client.put(`${PREFIX}/x`).value("1").exec()).header.revision);
    await until(
      async () => {
        const x = await revisionTimeOf({ revision: old });
        return x.basis === "console_clock" && x.error_ms !== null && x.error_ms <= SAMPLE_MS ? x : undefined;
      },
      20_000,
      { what: "a sample after it" },
    ).then((r) => r.value);
    await publishDemandEvent(
      client,
      PREFIX,
      target,
      writerEvent({ shard: "s1", sealed: 20, bytes: 1, epoch: 1, flushedAtMs: Date.now() }),
    );
    const compactAt = Number((await client.put(`${PREFIX}/x`).value("2").exec()).header.revision);
    await new EtcdHttp(cluster.members[0].clientUrl).compact(compactAt);
    await publishDemandEvent(
      client,
      PREFIX,
      target,
      writerEvent({ shard: "s1", sealed: 30, bytes: 1, epoch: 1, flushedAtMs: Date.now() }),
    );
    // a sample after the compaction point dates it to within a period (before one, its
    // interval is open up to now and may reach back past beforeCompaction)
    await until(
      async () => {
        const x = await revisionTimeOf({ revision: compactAt });
        return x.basis === "console_clock" && x.error_ms !== null && x.error_ms <= SAMPLE_MS ? x : undefined;
      },
      20_000,
      { what: "a sample after the compaction point" },
    ).then((r) => r.value);

    const gone = await failure(revisionTimeOf({ revision: old }));
    expect(gone?.status).toBe(410);
    expect(gone?.body.error).toMatchObject({ code: "revision_compacted", compact_revision: compactAt });
    // a time before the compaction point is 404 once the clock holds a sample past that
    // point (until then the newest revision's open-ended estimate may still cover the time)
    const early = await until(
      async () => {
        const x = await revisionTimeOf({ at_ms: beforeCompaction }).then(
          () => null,
          (e) => classifyError(e),
        );
        return x?.status === 404 ? x : undefined;
      },
      20_000,
      { what: "a time before the compaction point to be 404" },
    ).then((r) => r.value);
    expect(early?.status).toBe(404);
    expect(early?.body.error).toMatchObject({ code: "not_found", oldest_revision: compactAt });

    const history = await demandHistory(
      historyQuerySchema.parse({ target, from_ms: String(beforeCompaction - 60_000) }),
    );
    expect(history.compacted_before).toBe(compactAt);
    // what is left: the last change before the cut is unknown; the one after it is a point
    expect(history.points.map((p) => p.pending_generations)).toContain(30);
    expect(history.points.every((p) => p.revision >= compactAt)).toBe(true);
  });
});

describe("a time after the newest sample", () => {
  it("answers the revision certainly written by then, and the same once the next sample arrives", async () => {
    const { revisionTimeOf } = await import("@/lib/time/revisions");
    await sampler.stop(); // the clock stalls: no sample is taken after this one
    const newest = async () => {
      const rows = Object.values(await client.getAll().prefix(clockPrefix(PREFIX)).strings()).map(
        (v) => JSON.parse(v) as { at_ms: number; revision: number },
      );
      return rows.reduce((a, b) => (b.at_ms > a.at_ms ? b : a));
    };
    const stalled = await newest();
    // long enough after it that the middle of (newest sample, the ask) is before the time asked for
    await until(
      async () => {
        const now = Date.now();
        return now > stalled.at_ms + 4000 ? now : undefined;
      },
      20_000,
      { what: "the clock to stall for 4 s" },
    ).then((r) => r.value);
    const written = Number((await client.put(`${PREFIX}/x`).value("after the newest sample").exec()).header.revision);
    const at = Date.now();
    expect(written).toBeGreaterThan(stalled.revision);
    // past the 2 s within which a time counts as "now" (then the current revision answers)
    await until(
      async () => {
        const now = Date.now();
        return now > at + 2500 ? now : undefined;
      },
      20_000,
      { what: "the time to be in the past" },
    ).then((r) => r.value);
    const answer = await revisionTimeOf({ at_ms: at });
    // the write came before `at`, but nothing the clock holds says so: only the sample's revision is certain
    expect(answer.revision).toBe(stalled.revision);
    expect(answer.at_ms!).toBeLessThanOrEqual(at);
    sampler = new ShadowSampler({
      client,
      prefix: PREFIX,
      sample: async () => null,
      clockIntervalMs: SAMPLE_MS,
      electionTtlSecs: 5,
    });
    sampler.start();
    await until(
      async () => {
        const s = await newest();
        return s.at_ms > at ? s : undefined;
      },
      20_000,
      { what: "a sample after the time" },
    ).then((r) => r.value);
    expect(await revisionTimeOf({ at_ms: at })).toEqual(answer);
  });
});
