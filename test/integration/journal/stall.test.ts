// The journal records a gap only when etcd really was unreachable (console-api.md "The
// decision journal"; issue 42): an etcd that stalls for a few seconds (SIGSTOP, longer than a
// call's deadline, shorter than the sampler's election) fails the writes made meanwhile, and
// the journal writes what it held once etcd answers again: no entry is lost, so no gap. An
// etcd that stays away past FAILING_GAP_MS is another matter (./journal.test.ts: the outage
// leaves an `etcd_unavailable` gap).
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Etcd3 } from "etcd3";
import { startEtcd, type EtcdCluster } from "../../support/etcd";
import { until } from "../../support/observe";
import { testPrefix } from "../../support/prefix";
import { journalPrefix, parseChunkKey } from "@/lib/schema/keys";
import { journalCoverageSchema } from "@/lib/schema/api/journal";
import { readJournalKeys } from "@/lib/etcd/journal-store";
import { liveCache } from "@/lib/live/cache";
import type { ShadowSampler } from "@/lib/live/sampler";
import { clientFor, useConsoleEnv } from "../time/world";
import { contendedFleet } from "./contention";

let etcd: EtcdCluster;
let client: Etcd3;
let prefix: string;
let sampler: ShadowSampler | null = null;
const fleet = contendedFleet(
  () => client,
  () => prefix,
  "stall",
  "stall-worker",
);

beforeAll(async () => {
  etcd = await startEtcd();
  prefix = testPrefix("journal-stall");
  useConsoleEnv(etcd.endpoints, prefix);
  client = clientFor(etcd.endpoints);
  await fleet.seed();
  await fleet.publishStep(0);
});

afterAll(async () => {
  await sampler?.stop().catch(() => undefined);
  client?.close();
  await etcd?.stop();
});

const kinds = async () =>
  (await readJournalKeys(client, journalPrefix(prefix))).map((k) => parseChunkKey(prefix, k)!.kind);

describe("the decision journal when etcd stalls", () => {
  it("writes what it held once etcd answers again, and records no gap", async () => {
    const { journalCoverage } = await import("@/lib/time/journal-coverage");
    // the console's own etcd client (3 s call deadline), an election that outlives the stall
    // (the contended fleet's own is 2 s), a trim every half second
    const { etcdClient } = await import("@/lib/etcd/client");
    sampler = await fleet.sampler({ trimEveryMs: 500 }, { electionTtlSecs: 15, client: etcdClient() });
    sampler.start();
    const journal = sampler.journal!;
    await until(async () => ((await kinds()).length > 0 ? true : undefined), 30_000, { what: "the first chunk" });
    const gapsBefore = journalCoverageSchema.parse(await journalCoverage()).gaps;

    // a change the journal enters, then etcd stalls for 5 s before it is written: the flush
    // (and the trims) meanwhile wait past their 3 s deadline and fail
    const member = etcd.members[0].process!;
    const failedBefore = journal.lastFailureMs;
    const moved = await fleet.publishStep(1);
    expect(await liveCache().awaitRevision(moved, 10_000)).toBe(true);
    member.kill("SIGSTOP");
    const state = () => /State:\s+(\w)/.exec(fs.readFileSync(`/proc/${member.pid}/status`, "utf8"))?.[1];
    await until(async () => (state() === "T" ? true : undefined), 5000, { what: "etcd stopped" });
    await new Promise((r) => setTimeout(r, 5000));
    member.kill("SIGCONT");
    await until(async () => (journal.lastFailureMs > failedBefore ? true : undefined), 10_000, {
      what: "a journal write that failed while etcd stalled",
    });

    // after it: a change is entered and written, the sampler still leads, and no gap was recorded
    const changed = await fleet.setSlots(2);
    const { foldChunks } = await import("@/lib/journal/fold");
    const { readJournalValues } = await import("@/lib/etcd/journal-store");
    const { decodeChunk } = await import("@/lib/journal/codec");
    await until(
      async () => {
        const base = journalPrefix(prefix);
        const chunks = (await readJournalValues(client, base, base, null)).map((kv) => decodeChunk(kv.value));
        return [...foldChunks(chunks)].some((e) => e.revision >= changed) ? true : undefined;
      },
      30_000,
      { what: "the journal past the stall" },
    );
    expect(sampler.isLeader).toBe(true);
    const cov = journalCoverageSchema.parse(await journalCoverage());
    expect(cov.gaps).toEqual(gapsBefore);
    expect((await kinds()).filter((k) => k === "after_etcd_unavailable")).toEqual([]);
  }, 120_000);
});
