// The decision journal against a real etcd (console-api.md "The decision journal"; issue 23
// "Done when"): under contention (four tables, one executor with one merge slot) every
// journal entry equals the one-table answer pinned at `?revision=R&now_ms=<its now_ms>`;
// a console restart, a sampler failover and an etcd outage each leave a gap with its
// reason, and no entry is written for a moment nobody evaluated. The elected samplers run
// in-process (the API modules too), on this file's own etcd, so it can be stopped.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Etcd3 } from "etcd3";
import { startEtcd, type EtcdCluster } from "../../support/etcd";
import { until } from "../../support/observe";
import { testPrefix } from "../../support/prefix";
import { journalPrefix, parseChunkKey } from "@/lib/schema/keys";
import { demandQuerySchema } from "@/lib/schema/api/demand";
import { journalCoverageSchema } from "@/lib/schema/api/journal";
import { historyResponseSchema } from "@/lib/schema/api/history";
import { readJournalKeys, readJournalValues } from "@/lib/etcd/journal-store";
import { decodeChunk, gapReasonOf, type ChunkMeta, type JournalChunk } from "@/lib/journal/codec";
import { foldChunks } from "@/lib/journal/fold";
import type { JournalOptions } from "@/lib/live/journal";
import type { ShadowSampler } from "@/lib/live/sampler";
import { clientFor, useConsoleEnv } from "../time/world";
import { contendedFleet } from "./contention";

let etcd: EtcdCluster;
let client: Etcd3;
let prefix: string;
const samplers: ShadowSampler[] = [];
const fleet = contendedFleet(
  () => client,
  () => prefix,
  "journal",
  "only-worker",
);
const { publishStep, setSlots, tables: TABLES } = fleet;

const api = async () => ({
  detail: (await import("@/lib/scheduler/demand-detail")).demandDetail,
  evaluation: (await import("@/lib/process/sampling")).journalEvaluation,
  coverage: (await import("@/lib/time/journal-coverage")).journalCoverage,
  history: (await import("@/lib/time/history")).demandHistory,
});

async function startSampler(journal: Partial<JournalOptions> = {}): Promise<ShadowSampler> {
  const s = await fleet.sampler(journal);
  samplers.push(s);
  s.start();
  return s;
}

async function chunks(): Promise<{ meta: ChunkMeta; chunk: JournalChunk }[]> {
  const base = journalPrefix(prefix);
  const kvs = await readJournalValues(client, base, base, null);
  return kvs.map((kv) => ({ meta: parseChunkKey(prefix, kv.key)!, chunk: decodeChunk(kv.value) }));
}

const writerOf = (meta: ChunkMeta) => meta.key.slice(meta.key.lastIndexOf("-") + 1);
const writerId = (s: ShadowSampler) => s.replica.replace(/[^A-Za-z0-9]/g, "").slice(0, 8);

/** Waits until the journal has entered an evaluation at or after `revision` (the test's last write; the journal's own writes move etcd's revision too). */
async function caughtUp(revision: number): Promise<number> {
  const got = await until(async () => {
    const evs = [...foldChunks((await chunks()).map((c) => c.chunk))];
    return evs.some((e) => e.revision >= revision) ? revision : undefined;
  }, 30_000);
  expect(got, `the journal reaches revision ${revision}`).not.toBeNull();
  return revision;
}

let seeded = 0;

beforeAll(async () => {
  etcd = await startEtcd();
  prefix = testPrefix("journal");
  useConsoleEnv(etcd.endpoints, prefix);
  client = clientFor(etcd.endpoints);
  await fleet.seed();
  seeded = await publishStep(0);
});

afterAll(async () => {
  for (const s of samplers) await s.stop().catch(() => undefined);
  client?.close();
  await etcd?.stop();
});

describe("the decision journal on a real etcd", () => {
  it("under contention every entry equals the one-table answer pinned at its revision and now_ms", async () => {
    const { detail } = await api();
    await startSampler();
    await caughtUp(seeded);
    for (let step = 1; step <= 3; step++) {
      await publishStep(step);
      // capacity moves too (a second slot, then back to one), so every step changes entries
      await caughtUp(await setSlots(step % 2 === 1 ? 2 : 1));
    }
    const evaluations = [...foldChunks((await chunks()).map((c) => c.chunk))].map((e) => ({
      revision: e.revision,
      now_ms: e.now_ms,
      changed: new Map(e.changed),
    }));
    const states = new Set<string>();
    let compared = 0;
    for (const ev of evaluations) {
      for (const [target, entry] of ev.changed) {
        const page = await detail({
          ...demandQuerySchema.parse({ target, revision: String(ev.revision), now_ms: String(ev.now_ms) }),
          target,
        });
        const v = page.table.verdict;
        const pinned = {
          class: page.table.class,
          state: v.state,
          code: v.state === "would_skip" ? v.code : null,
          executor: v.state === "would_place" ? v.executor : null,
        };
        expect({ class: entry.class, ...entry.verdict }, `${target} @${ev.revision} now ${ev.now_ms}`).toEqual(pinned);
        states.add(v.state === "would_place" ? "placed" : v.code);
        compared++;
      }
    }
    expect(compared).toBeGreaterThanOrEqual(TABLES.length + 3); // the first checkpoint, then each step's changes
    expect(states.has("placed")).toBe(true);
    expect(states.size).toBeGreaterThan(1); // one slot: the others wait behind the placed one
  }, 120_000);

  it("history from the journal: each point (its pending, wait and score too) equals the pinned one-table answer, dated as it dates its revision, and time in state sums to the window", async () => {
    const { coverage, detail, history } = await api();
    const cov = journalCoverageSchema.parse(await coverage());
    const [fromMs, toMs] = [cov.from_ms!, cov.to_ms!];
    // every journalled revision closed by a later clock sample: its time no longer narrows while we compare
    const newest = Math.max(...[...foldChunks((await chunks()).map((c) => c.chunk))].map((e) => e.revision));
    const { revisionClock } = await import("@/lib/live/revision-clock");
    const settled = await until(
      async () => ((await revisionClock().timeOfReadable(newest)) && revisionClock().isSettled(newest)) || undefined,
      30_000,
    );
    expect(settled, `a clock sample after revision ${newest}`).not.toBeNull();
    let compared = 0;
    for (const target of TABLES) {
      const h = historyResponseSchema.parse(await history({ target, from_ms: fromMs, to_ms: toMs }));
      expect(h.verdict_basis, target).toBe("journal");
      for (const p of h.points) {
        expect(p.basis).toBe("journal");
        const page = await detail({
          ...demandQuerySchema.parse({ target, revision: String(p.revision), now_ms: String(p.now_ms) }),
          target,
        });
        // a revision the journal evaluated is dated as the page pinned there dates it (console-api.md fourth version)
        expect([p.at_ms, p.error_ms], `${target} @${p.revision}`).toEqual([
          page.revision_time!.at_ms,
          page.revision_time!.error_ms,
        ]);
        expect(page.revision_time!.basis).toBe("console_clock");
        const v = page.table.verdict;
        // the chart's lines too: pending generations, wait and score derived at the point's now_ms
        expect(p.pending_generations).not.toBeNull();
        expect(
          {
            class: p.class,
            state: p.verdict!.state,
            code: p.verdict!.code,
            executor: p.executor,
            pending_generations: p.pending_generations,
            wait_ms: p.wait_ms,
            score: p.score,
          },
          `${target} @${p.revision} now ${p.now_ms}`,
        ).toEqual({
          class: page.table.class,
          state: v.state,
          code: v.state === "would_skip" ? v.code : null,
          executor: v.state === "would_place" ? v.executor : null,
          pending_generations: page.table.pending_generations,
          wait_ms: page.table.wait_ms,
          score: page.table.score,
        });
        compared++;
      }
      expect(
        h.time_in_state.reduce((n, t) => n + t.ms, 0),
        target,
      ).toBe(toMs - fromMs);
      expect(h.time_in_state.map((t) => t.state)).not.toContain("unknown"); // the journal covers the whole window
      expect(h.time_in_state.map((t) => t.ms)).toEqual([...h.time_in_state.map((t) => t.ms)].sort((a, b) => b - a));
    }
    expect(compared).toBeGreaterThanOrEqual(3); // each step moved capacity, so verdicts changed
    // a window reaching back before the journal's start: re-planned there, each point naming its basis
    const early = historyResponseSchema.parse(
      await history({ target: TABLES[0], from_ms: fromMs - 120_000, to_ms: toMs }),
    );
    expect(early.verdict_basis).toBe("fleet_plan");
    expect(early.points.filter((p) => p.basis === "fleet_plan").every((p) => p.at_ms! <= fromMs)).toBe(true);
    expect(early.points.filter((p) => p.basis === "journal").length).toBeGreaterThan(0);
    // (a window reaching back before etcd's own history starts where that history does, and says so)
    const earlyFrom = early.history_starts === null ? fromMs - 120_000 : early.from_ms;
    if (early.history_starts !== null) expect(early.history_starts.requested_ms).toBe(fromMs - 120_000);
    expect(early.from_ms).toBe(earlyFrom);
    expect(early.time_in_state.reduce((n, t) => n + t.ms, 0)).toBe(toMs - earlyFrom);
  }, 120_000);

  it("a console restart and a sampler failover leave no_sampler gaps; the deposed sampler writes nothing after", async () => {
    const { coverage } = await api();
    const first = samplers[0];
    await first.stop(); // a restart: the process stops (its journal flushed), a new one starts
    const second = await startSampler();
    const restarted = await until(
      async () =>
        (await chunks()).some((c) => writerOf(c.meta) === writerId(second) && c.meta.kind === "after_no_sampler")
          ? true
          : undefined,
      30_000,
    );
    expect(restarted, "the new console starts with a checkpoint after no_sampler").not.toBeNull();

    // failover: the second sampler loses the election key (as when its lease runs out); a third takes over
    const third = await startSampler();
    const cut = Date.now();
    await client.delete().key(`${prefix}/console/sampler`);
    const tookOver = await until(
      async () =>
        (await chunks()).some((c) => writerOf(c.meta) === writerId(third) && c.meta.kind === "after_no_sampler")
          ? true
          : undefined,
      30_000,
    );
    expect(tookOver, "the third sampler starts with a checkpoint after no_sampler").not.toBeNull();
    const changed = await setSlots(1); // a change the deposed sampler also sees: its guarded write fails
    await until(async () => (second.isLeader ? undefined : true), 30_000);
    await caughtUp(changed);
    const after = (await chunks()).filter((c) => c.meta.from_ms > cut);
    expect(new Set(after.map((c) => writerOf(c.meta)))).toEqual(new Set([writerId(third)]));

    const cov = journalCoverageSchema.parse(await coverage());
    expect(cov.gaps.map((g) => g.reason)).toEqual(["no_sampler", "no_sampler"]);
    for (const g of cov.gaps) expect(g.to_ms).toBeGreaterThanOrEqual(g.from_ms);
  }, 120_000);

  it("an etcd outage leaves an etcd_unavailable gap, and the entries after it are exact again", async () => {
    const { coverage, detail } = await api();
    const before = (await chunks()).length;
    await etcd.members[0].kill();
    const leader = samplers.find((s) => s.isLeader)!;
    const noticed = await until(async () => (leader.isLeader ? undefined : true), 30_000);
    expect(noticed, "the sampler notices etcd is gone").not.toBeNull();
    await etcd.members[0].start();
    const resumed = await until(
      async () =>
        (await chunks()).slice(before).some((c) => c.meta.kind === "after_etcd_unavailable") ? true : undefined,
      60_000,
    );
    expect(resumed, "the journal resumes with a checkpoint after etcd_unavailable").not.toBeNull();
    const cov = journalCoverageSchema.parse(await coverage());
    expect(cov.gaps.map((g) => g.reason)).toEqual(["no_sampler", "no_sampler", "etcd_unavailable"]);
    // the resumed checkpoint is exact
    const all = await chunks();
    const resumedChunk = all.find((c) => c.meta.kind === "after_etcd_unavailable")!.chunk;
    const ev = resumedChunk.evaluations[0];
    expect([...ev.changed.keys()].sort()).toEqual(TABLES);
    for (const [target, entry] of ev.changed) {
      const page = await detail({
        ...demandQuerySchema.parse({ target, revision: String(ev.revision), now_ms: String(ev.now_ms) }),
        target,
      });
      expect(entry.verdict.state).toBe(page.table.verdict.state);
      expect(entry.class).toBe(page.table.class);
    }
  }, 150_000);

  it("the byte cap trims whole segments, oldest first, and the coverage names the trimmed span", async () => {
    const { coverage } = await api();
    for (const s of samplers) await s.stop();
    const before = await readJournalKeys(client, journalPrefix(prefix));
    // a cap of one byte: every segment but the newest goes at the next trim
    const trimmer = await startSampler({ maxBytes: 1, trimEveryMs: 200 });
    const trimmed = await until(async () => {
      const metas = (await chunks()).map((c) => c.meta);
      const first = metas[0];
      // its start is a restart checkpoint (named etcd_unavailable here: the outage above was seconds ago)
      return first && writerOf(first) === writerId(trimmer) && gapReasonOf(first.kind) !== null ? metas : undefined;
    }, 30_000);
    expect(trimmed, "the older writers' segments are trimmed").not.toBeNull();
    expect(before.length).toBeGreaterThan(trimmed!.value.length);
    const cov = journalCoverageSchema.parse(await coverage());
    expect(cov.from_ms).toBe(trimmed!.value[0].from_ms);
    expect(cov.gaps).toEqual([{ from_ms: cov.gaps[0].from_ms, to_ms: trimmed!.value[0].from_ms, reason: "trimmed" }]);
  }, 60_000);
});
