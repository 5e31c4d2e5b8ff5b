// Journal rollups against a real etcd (lib/journal/rollup.ts, lib/live/journal.ts): the same
// journal is stored twice, as the writer flushes it (a delta every 5 s around a periodic
// checkpoint); an elected sampler with nothing new to enter rolls the second copy up, closed
// minute by closed minute; one table's history read from either is byte-identical, and so
// is the coverage but for its bytes. A rollup whose parts are gone is not done twice.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Etcd3 } from "etcd3";
import { startEtcd, type EtcdCluster } from "../../support/etcd";
import { until } from "../../support/observe";
import { testPrefix } from "../../support/prefix";
import { readJournalKeys, replaceJournalChunks } from "@/lib/etcd/journal-store";
import { chunkKey, encodeChunk, type JournalChunk } from "@/lib/journal/codec";
import { journalPrefix, parseChunkKey } from "@/lib/schema/keys";
import type { TableState } from "@/lib/journal/entry";
import { JournalLog } from "@/lib/journal/log";
import { nextRollup } from "@/lib/journal/rollup";
import { ShadowSampler } from "@/lib/live/sampler";
import { clientFor, useConsoleEnv } from "../time/world";

const TARGETS = ["roll/a", "roll/b", "roll/c"];
const MINUTE = 60_000;

let etcd: EtcdCluster;
let client: Etcd3;
const [plainPrefix, rolledPrefix] = [testPrefix("journal-plain"), testPrefix("journal-rolled")];

/** 8 minutes of journal ending two minutes ago: a verdict flips every few seconds, a checkpoint at 4 min. */
function journal(endMs: number): JournalChunk[] {
  const log = new JournalLog({ checkpointEveryMs: 4 * MINUTE, idleExtendMs: MINUTE, maxChunkEntries: 1000 });
  const out: JournalChunk[] = [];
  const start = endMs - 8 * MINUTE;
  for (let i = 0, now = start; now <= endMs; i++, now += 1000) {
    const tables = new Map<string, TableState>(
      TARGETS.map((t, j) => {
        const place = Math.floor(i / (3 + j * 2)) % 2 === 0;
        return [
          t,
          {
            class: "normal",
            verdict: place
              ? { state: "would_place", code: null, executor: "w1" }
              : { state: "would_skip", code: "no_free_slot", executor: null },
            write_turn: null,
            shadow_outcome: null,
            demand: { head: "other", pending_generations: 1 + (i % 7), score: 1, since_ms: start },
          },
        ];
      }),
    );
    log.observe({ revision: 100 + i, now_ms: now }, tables);
    if (i % 5 === 4) out.push(...log.drain(now));
  }
  out.push(...log.drain(endMs + MINUTE));
  return out;
}

async function store(prefix: string, chunks: readonly JournalChunk[]): Promise<void> {
  for (const chunk of chunks) {
    const value = encodeChunk(chunk);
    await client.put(chunkKey(prefix, chunk, value.length, "w0")).value(value);
  }
}

const metasOf = async (prefix: string) =>
  (await readJournalKeys(client, journalPrefix(prefix))).map((k) => parseChunkKey(prefix, k)!);

beforeAll(async () => {
  etcd = await startEtcd();
  client = clientFor(etcd.endpoints);
});

afterAll(async () => {
  client?.close();
  await etcd?.stop();
});

describe("journal rollups on a real etcd", () => {
  it("the elected writer rolls closed minutes up; one table's history and the coverage read the same", async () => {
    const endMs = Math.floor(Date.now() / 1000) * 1000 - 2 * MINUTE;
    const chunks = journal(endMs);
    await store(plainPrefix, chunks);
    await store(rolledPrefix, chunks);
    const before = await metasOf(rolledPrefix);
    // what the writer will leave: every closed minute rolled up (lib/journal/rollup.ts)
    let expected = before;
    for (let run; (run = nextRollup(expected, Date.now(), { periodMs: MINUTE, maxBytes: 1 << 20, maxParts: 2000 }));) {
      const rolled = new Set(run.map((m) => m.key));
      expected = [...expected.filter((m) => !rolled.has(m.key)), run[0]];
      expected.sort((a, b) => (a.key < b.key ? -1 : 1));
    }
    expect(expected.length).toBeLessThan(before.length / 3);

    const { journalWindow } = await import("@/lib/time/journal-history");
    const { journalCoverage } = await import("@/lib/time/journal-coverage");
    const read = async (prefix: string) => {
      useConsoleEnv(etcd.endpoints, prefix);
      const windows = [];
      for (const target of TARGETS) {
        windows.push(await journalWindow(target, endMs - 7 * MINUTE, endMs));
        windows.push(await journalWindow(target, endMs - 150_000, endMs - 30_000));
      }
      return {
        windows: JSON.stringify(windows, (_, v) => (v instanceof Map ? [...v] : v)),
        coverage: await journalCoverage(),
      };
    };
    const plain = await read(plainPrefix);
    expect(plain.windows.match(/"basis":"journal"/g)?.length ?? 0).toBeGreaterThan(50);

    useConsoleEnv(etcd.endpoints, rolledPrefix);
    const sampler = new ShadowSampler({
      client,
      prefix: rolledPrefix,
      sample: async () => null,
      intervalMs: 3_600_000,
      electionTtlSecs: 2,
      retryMs: 100,
      etcdUnavailableMs: () => 0,
      journal: {
        evaluate: async () => null, // nothing new: the writer only rolls up
        retentionMs: 7 * 86_400_000,
        maxBytes: 64 * 1_048_576,
        flushMs: 100,
        evalMs: 1000,
        checkpointMs: 3_600_000,
        rollupMs: MINUTE,
      },
    });
    sampler.start();
    try {
      const done = await until(
        async () => ((await metasOf(rolledPrefix)).length === expected.length ? true : undefined),
        30_000,
      );
      expect(done, `rolled up to ${expected.length} chunks`).not.toBeNull();
    } finally {
      await sampler.stop();
    }
    const after = await metasOf(rolledPrefix);
    expect(after.map((m) => [m.kind, m.from_ms])).toEqual(expected.map((m) => [m.kind, m.from_ms]));
    expect(after.reduce((n, m) => n + m.entries, 0)).toBe(before.reduce((n, m) => n + m.entries, 0));

    const rolled = await read(rolledPrefix);
    expect(rolled.windows).toBe(plain.windows);
    expect({ ...rolled.coverage, bytes: 0 }).toEqual({ ...plain.coverage, bytes: 0 });
    expect(rolled.coverage.bytes).toBeLessThan(plain.coverage.bytes);
  }, 90_000);

  it("a rollup is done once: a second writer late with the same parts writes nothing", async () => {
    const holder = { key: `${plainPrefix}/console/sampler`, replica: "late-writer" };
    await client.put(holder.key).value(holder.replica);
    const metas = await metasOf(plainPrefix);
    const run = nextRollup(metas, Date.now(), { periodMs: MINUTE, maxBytes: 1 << 20, maxParts: 2 })!;
    const rollup = { key: `${run[0].key.slice(0, -2)}w9`, value: Buffer.from("rolled") };
    const replace = () =>
      replaceJournalChunks(
        client,
        holder,
        run.map((m) => m.key),
        rollup,
      );
    expect(await replace()).toBe(true);
    const once = await metasOf(plainPrefix);
    expect(once.length).toBe(metas.length - 1);
    expect(await replace()).toBe(false);
    expect((await metasOf(plainPrefix)).map((m) => m.key)).toEqual(once.map((m) => m.key));
  }, 90_000);
});
