// Periodic checkpoints and a clock that stands still, written by the elected sampler's
// journal writer into a real etcd, then read back as the console reads them:
// * a periodic checkpoint's evaluation goes into the delta before it, and the checkpoint
//   only restates the state (kind `restated`, lib/journal/log.ts); a table's history and the
//   reasons view read the deltas and leave the restatements unread
//   (lib/journal/window.ts `chunkRuns`). Before the fix, a change made at a periodic
//   checkpoint was missing from a table's history until its next change;
// * the live plan keeps its clock across revisions for a few seconds, so chunks share their
//   span: their keys carry their first revision (lib/schema/keys.ts). Before the fix they
//   sorted by entry count and size, and folds read evaluations out of order.
// The evaluations are scripted (every table changes at each; the clock stands still at one
// in three, and for a stretch of 20 that waits for three flushes), so both cases happen on
// every run; the writer, its txns, its rollups and the
// reads are the console's own. Both reads must answer as a full read of every chunk in the
// order written does.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedEtcd } from "../../support/shared-etcd";
import type { Etcd3 } from "etcd3";
import { until } from "../../support/observe";
import { testPrefix } from "../../support/prefix";
import { journalPrefix, parseChunkKey } from "@/lib/schema/keys";
import { readJournalValues } from "@/lib/etcd/journal-store";
import { decodeChunk, type ChunkMeta, type JournalChunk } from "@/lib/journal/codec";
import { foldChunks } from "@/lib/journal/fold";
import { reasonPoints, stepsOf } from "@/lib/journal/reasons";
import { codesOf } from "@/lib/journal/verdict-codes";
import { chunkRuns, targetTimeline } from "@/lib/journal/window";
import { reasonsQuerySchema } from "@/lib/schema/api/reasons";
import type { ShadowSampler } from "@/lib/live/sampler";
import type { TableState } from "@/lib/journal/entry";
import { clientFor, useConsoleEnv } from "../time/world";
import { contendedFleet } from "./contention";

let client: Etcd3;
let prefix: string;
let sampler: ShadowSampler | undefined;
const fleet = contendedFleet(
  () => client,
  () => prefix,
  "restated",
  "restated-worker",
);

async function stored(): Promise<{ meta: ChunkMeta; chunk: JournalChunk }[]> {
  const base = journalPrefix(prefix);
  const kvs = await readJournalValues(client, base, base, null);
  return kvs.map((kv) => ({ meta: parseChunkKey(prefix, kv.key)!, chunk: decodeChunk(kv.value) }));
}

/** The revisions at which a restatement's evaluation changed entries (the delta before it holds the change). */
function changedAtRestatements(journal: { meta: ChunkMeta; chunk: JournalChunk }[]): number[] {
  const restated = new Set(
    journal.filter((c) => c.meta.kind === "restated").map((c) => c.chunk.evaluations[0].revision),
  );
  return journal
    .filter((c) => c.meta.kind === "delta")
    .flatMap((c) => c.chunk.evaluations)
    .filter((ev) => restated.has(ev.revision) && ev.changed.size + ev.removed.length > 0)
    .map((ev) => ev.revision);
}

beforeAll(async () => {
  const endpoints = sharedEtcd();
  prefix = testPrefix("journal-restated");
  useConsoleEnv(endpoints, prefix);
  client = clientFor(endpoints);
});

afterAll(async () => {
  await sampler?.stop().catch(() => undefined);
  client?.close();
});

const TARGETS = ["r/a", "r/b", "r/c", "r/d", "r/e"];
const CODES = ["cycle_limit", "no_free_slot", "insufficient_bytes"] as const;
const EVALUATIONS = 50;

/** Evaluation `i`'s entries: each table's verdict moves with `i` (two of five placed at a time). */
function tablesAt(i: number): Map<string, TableState> {
  return new Map(
    TARGETS.map((t, k): [string, TableState] => [
      t,
      {
        class: k === 4 && i % 4 === 0 ? "tail" : "normal",
        verdict:
          (i + k) % 5 < 2
            ? { state: "would_place", code: null, executor: "w1" }
            : { state: "would_skip", code: CODES[(i + k) % 3], executor: null },
        write_turn: null,
        shadow_outcome: null,
      },
    ]),
  );
}

/** Evaluations in the still stretch (15–34) that wait until the one before is stored. */
const STILL_FLUSHED_BEFORE = [17, 24, 31];

async function flushedThrough(revision: number): Promise<void> {
  await until(
    async () =>
      (await stored()).some((c) => c.chunk.evaluations.some((e) => e.revision === revision)) ? true : undefined,
    10_000,
    { what: `a flush of evaluation ${revision}` },
  );
}

describe("restated checkpoints and a clock standing still, on a real etcd", () => {
  it("history and the reasons view read the deltas in the order written, leave the restatements unread, and answer as a full read", async () => {
    const start = Date.now() - 120_000;
    const written: { revision: number; now_ms: number }[] = [];
    let i = 0;
    let now = start;
    sampler = await fleet.sampler({
      evalMs: 50,
      checkpointMs: 2500,
      // no rollup: the scripted clock runs from 2 min ago, and a 10 min period closing in
      // between (one run in five) rolled the deltas that share their span into one chunk
      rollupMs: 1e15,
      evaluate: async () => {
        if (i >= EVALUATIONS) return null;
        // inside the stretch where the clock stands still, a flush between evaluations 16 and 17,
        // 23 and 24, 30 and 31: two chunks lie wholly inside it and share their span, however
        // the flush timer falls on a loaded machine (the writer's loops are apart, so this waits on it)
        if (STILL_FLUSHED_BEFORE.includes(i)) await flushedThrough(1000 + i - 1);
        // one evaluation in three keeps the clock of the one before, and a stretch of 20 all do
        if (i % 3 !== 2 && (i < 15 || i >= 35)) now += 1000;
        const ev = { revision: 1000 + i, now_ms: now, tables: tablesAt(i) };
        written.push({ revision: ev.revision, now_ms: ev.now_ms });
        i++;
        return ev;
      },
    });
    sampler.start();
    const last = 1000 + EVALUATIONS - 1;
    const got = await until(
      async () => {
        const journal = await stored();
        return [...foldChunks(journal.map((c) => c.chunk))].some((e) => e.revision === last) ? journal : undefined;
      },
      30_000,
      { what: `the journal holds evaluation ${last}` },
    );
    await sampler.stop();
    sampler = undefined;

    const journal = got.value;
    const full = journal.map((c) => c.chunk);
    const metas = journal.map((c) => c.meta);
    // the key order is the order written: every evaluation once, restatements aside
    const folded = [...foldChunks(full)].filter((e) => !e.checkpoint || e.revision === written[0].revision);
    expect(folded.map((e) => e.revision)).toEqual(written.map((w) => w.revision).slice(0, folded.length));
    expect(folded.length).toBe(EVALUATIONS);
    const sameSpan = metas.filter(
      (m, k) => metas.findIndex((o) => o.from_ms === m.from_ms && o.to_ms === m.to_ms) !== k,
    );
    expect(sameSpan.length, "chunks sharing their span").toBeGreaterThan(0);
    expect(changedAtRestatements(journal).length, "changes made at restated evaluations").toBeGreaterThan(0);

    const fromMs = written[2].now_ms;
    const toMs = written.at(-1)!.now_ms;
    const runs = chunkRuns(metas, fromMs, toMs)!;
    const unread = metas.filter(
      (m) => m.key >= runs[0].fromKey && !runs.some((r) => m.key >= r.fromKey && (r.toKey === null || m.key < r.toKey)),
    );
    expect(unread.length, "restatements left unread").toBeGreaterThan(0);
    expect(unread.every((m) => m.kind === "restated")).toBe(true);

    // one table's history from the journal: the runs read, one table's rows each
    const { journalWindow } = await import("@/lib/time/journal-history");
    for (const target of TARGETS) {
      const expected = targetTimeline(full, target, fromMs, toMs)
        .changes.filter((c) => c.state !== null)
        .map((c) => [c.revision, c.now_ms, c.state!.verdict.state, c.state!.verdict.code]);
      expect(expected.length, target).toBeGreaterThan(5);
      const read = (await journalWindow(target, fromMs, toMs)).points.map((p) => [
        p.revision,
        p.now_ms,
        p.verdict!.state,
        p.verdict!.code,
      ]);
      expect(read, target).toEqual(expected);
    }

    // the reasons view: its read (the runs, each row for its code) against every chunk fully decoded
    const { schedulerReasons } = await import("@/lib/time/journal-reasons");
    const stepMs = 1000;
    const q = reasonsQuerySchema.parse({ from_ms: String(fromMs), to_ms: String(toMs), step_ms: String(stepMs) });
    const answer = await schedulerReasons(q, toMs + 1000);
    expect(answer.points.length).toBeGreaterThan(10);
    expect(answer.points).toEqual(reasonPoints(full.map(codesOf), stepsOf(fromMs, toMs, stepMs)));
  }, 120_000);
});
