// Rolled-up chunks answer as their parts did (./rollup.ts): a journal written as the writer
// writes it (random changes, removals, periodic checkpoints, a lost write), then rolled up
// period by period as the writer does, gives byte-identical one-table histories — read in
// full or only for the table — and the same coverage, gaps and trim segments.
import type { WhyNotCode } from "@/lib/schema/codes";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { chunkKey, decodeChunk, encodeChunk, type ChunkMeta } from "./codec";
import { parseChunkKey } from "@/lib/schema/keys";
import { coverageOf, trimPlan } from "./coverage";
import type { TableState } from "./entry";
import { JournalLog } from "./log";
import { nextRollup, rollUp } from "./rollup";
import { chunkRuns, coveredSpans, targetTimeline } from "./window";

const TARGETS = ["a", "b", "c", "d"];
const CODES = ["no_free_slot", "cycle_limit", "already_running"] as const;
const PERIOD = 60_000;

interface Stored {
  meta: ChunkMeta;
  value: Buffer;
}

const store = (chunk: Parameters<typeof encodeChunk>[0]): Stored => {
  const value = encodeChunk(chunk);
  return { meta: parseChunkKey("/p", chunkKey("/p", chunk, value.length, "w1"))!, value };
};

/** Rolls up as the writer does, until nothing is left to roll (the stored list stays in key order). */
function rolledUp(stored: readonly Stored[], closedBeforeMs: number, maxParts: number): Stored[] {
  let out = [...stored];
  for (;;) {
    const run = nextRollup(
      out.map((s) => s.meta),
      closedBeforeMs,
      { periodMs: PERIOD, maxBytes: 1 << 20, maxParts },
    );
    if (run === null) return out;
    const keys = new Set(run.map((m) => m.key));
    const rolled = store(rollUp(out.filter((s) => keys.has(s.meta.key)).map((s) => decodeChunk(s.value))));
    out = [...out.filter((s) => !keys.has(s.meta.key)), rolled].sort((a, b) => (a.meta.key < b.meta.key ? -1 : 1));
  }
}

const stateArb = fc.record({
  place: fc.boolean(),
  code: fc.constantFrom(...CODES),
  pending: fc.nat(5),
});

describe("rollup", () => {
  it("gives byte-identical histories, coverage and trim segments", () => {
    let rolledRuns = 0;
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            changes: fc.dictionary(fc.constantFrom(...TARGETS), fc.option(stateArb)),
            advanceMs: fc.constantFrom(0, 1_000, 5_000, 20_000), // 0: the live plan keeps its clock across revisions
            flush: fc.boolean(),
            lose: fc.nat(19),
          }),
          { minLength: 5, maxLength: 80 },
        ),
        fc.constantFrom(2, 3, 1000),
        (script, maxParts) => {
          const log = new JournalLog({ checkpointEveryMs: 150_000, idleExtendMs: 10_000, maxChunkEntries: 6 });
          const tables = new Map<string, TableState>([["a", entry(true, "cycle_limit", 1)]]);
          const stored: Stored[] = [];
          let now = 1_000_000;
          let revision = 1;
          for (const { changes, advanceMs, flush, lose } of script) {
            now += advanceMs;
            revision++;
            for (const [t, s] of Object.entries(changes)) {
              if (s === null) tables.delete(t);
              else tables.set(t, entry(s.place, s.code, s.pending));
            }
            log.observe({ revision, now_ms: now }, new Map(tables));
            if (!flush) continue;
            const chunks = log.drain(now);
            if (lose === 0) log.lost("etcd_unavailable");
            else stored.push(...chunks.map(store));
          }
          stored.push(...log.drain(now + 60_000).map(store));
          const rolled = rolledUp(stored, now, maxParts);
          if (rolled.length < stored.length) rolledRuns++;
          const [before, after] = [stored, rolled].map((s) => s.map((x) => x.meta));
          const from = 1_000_000 + 30_000;
          for (const target of TARGETS) {
            const plain = JSON.stringify(
              targetTimeline(
                stored.map((s) => decodeChunk(s.value)),
                target,
                from,
                now,
              ),
            );
            for (const only of [undefined, target]) {
              const read = rolled.map((s) => decodeChunk(s.value, only));
              expect(JSON.stringify(targetTimeline(read, target, from, now))).toBe(plain);
            }
            // as history reads: only the chunk runs, the restatements in them left unread
            for (const journal of [stored, rolled]) {
              const runs = chunkRuns(
                journal.map((x) => x.meta),
                from,
                now,
              );
              const inRuns = journal.filter((x) =>
                (runs ?? []).some((r) => x.meta.key >= r.fromKey && (r.toKey === null || x.meta.key < r.toKey)),
              );
              const read = inRuns.map((x) => decodeChunk(x.value, target));
              if (runs !== null) expect(JSON.stringify(targetTimeline(read, target, from, now))).toBe(plain);
            }
          }
          const coverage = (m: ChunkMeta[]) => ({ ...coverageOf(m, null, now, 86_400_000), bytes: 0 });
          expect(coverage(after)).toEqual(coverage(before));
          expect(coveredSpans(after)).toEqual(coveredSpans(before));
          // trim drops whole segments: the same checkpoints start what is kept
          const keep = (m: ChunkMeta[]) => trimPlan(m, now + 86_400_000, 86_400_000 - 200_000, 1 << 30).keepFromKey;
          expect(keep(after)).toBe(keep(before));
          // one table's read needs no more chunk runs than before
          expect((chunkRuns(after, from, now) ?? []).length).toBeLessThanOrEqual(
            (chunkRuns(before, from, now) ?? []).length,
          );
        },
      ),
      { numRuns: 200 },
    );
    expect(rolledRuns).toBeGreaterThan(50); // the property is about rollups that happened
  });

  it("rolls up only a closed period's deltas, two or more, never across a checkpoint", () => {
    const m = (key: string, kind: ChunkMeta["kind"], from_ms: number, to_ms: number): ChunkMeta => ({
      key,
      kind,
      from_ms,
      to_ms,
      entries: 1,
      bytes: 10,
    });
    const metas = [
      m("k1", "after_no_sampler", 0, 5_000),
      m("k2", "delta", 5_000, 10_000),
      m("k3", "checkpoint", 20_000, 20_000),
      m("k4", "delta", 20_000, 30_000),
      m("k5", "delta", 30_000, 59_000),
      m("k6", "delta", 59_000, 65_000), // straddles the minute: stays alone
      m("k7", "delta", 65_000, 70_000),
      m("k8", "delta", 70_000, 80_000),
    ];
    const o = { periodMs: PERIOD, maxBytes: 1000, maxParts: 100 };
    expect(nextRollup(metas, 59_999, o)).toBeNull(); // the first minute has not closed
    expect(nextRollup(metas, 60_000, o)?.map((x) => x.key)).toEqual(["k4", "k5"]);
    expect(nextRollup(metas, 120_000, { ...o, maxParts: 1 })).toBeNull();
    expect(nextRollup(metas.slice(4), 120_000, o)?.map((x) => x.key)).toEqual(["k7", "k8"]);
  });
});

function entry(place: boolean, code: WhyNotCode, pending: number): TableState {
  return {
    class: place ? "normal" : "tail",
    verdict: place
      ? { state: "would_place", code: null, executor: "w1" }
      : { state: "would_skip", code, executor: null },
    write_turn: null,
    shadow_outcome: null,
    demand: { head: "other", pending_generations: pending, score: pending / 4, since_ms: 1000 },
  };
}
