// Exact by construction (issue 23, "Exact by construction"; console-api.md "The decision
// journal"): for random change sequences — demand (merge, compaction, repair heads; oldest
// flushes in the past or dated in the future), capacity, write turns that stall with the
// clock alone, removed tables — with random flushes and lost writes, every journal entry
// read back equals the plan at its revision and now_ms (its pending generations, wait and
// score derived at that now_ms included), and a moment whose write was lost is inside a
// recorded gap, never answered with an entry.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Execution } from "@/lib/schema/executions";
import { planFleet, type PlannerFleet } from "@/lib/planner/plan";
import { NOW, demand, fleet, heartbeat } from "@/lib/planner/plan/__fixtures__/fleet";
import { parseChunkKey } from "@/lib/schema/keys";
import { chunkKey, decodeChunk, encodeChunk, type ChunkMeta, type JournalChunk } from "./codec";
import { coverageOf } from "./coverage";
import { planStates, type TableState } from "./entry";
import { figuresAt, type DemandFigures } from "./demand";
import { stateAt, targetEntries } from "./fold";
import { JournalLog } from "./log";

const TARGETS = ["a", "b", "c", "d", "é"];

const execution = (target: string): Execution => ({
  id: `x-${target}`,
  target,
  endpoint: "http://w:1",
  instance: "w",
  timeout_secs: 1800,
  queue_timeout_secs: 600,
  idle_timeout_secs: 600,
  phase: "running",
  reclaimed: false,
  error: null,
  protocol: 2,
});

type Step =
  | { op: "demand"; t: number; pending: number; ageSecs: number; fragments: number; missing: boolean; merged: boolean }
  | { op: "remove"; t: number }
  | { op: "slots"; slots: number }
  | { op: "turn"; t: number; on: boolean }
  | { op: "clock" };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    op: fc.constant("demand" as const),
    t: fc.nat(TARGETS.length - 1),
    pending: fc.constantFrom(0, 1, 4, 9, 40),
    ageSecs: fc.constantFrom(0, 30, 300, 3600, -20),
    fragments: fc.constantFrom(0, 0, 3, 20),
    missing: fc.boolean(),
    merged: fc.boolean(),
  }),
  fc.record({ op: fc.constant("remove" as const), t: fc.nat(TARGETS.length - 1) }),
  fc.record({ op: fc.constant("slots" as const), slots: fc.nat(3) }),
  fc.record({ op: fc.constant("turn" as const), t: fc.nat(TARGETS.length - 1), on: fc.boolean() }),
  fc.record({ op: fc.constant("clock" as const) }),
);

interface World {
  tables: Record<string, ReturnType<typeof demand>>;
  slots: number;
  turns: Set<string>;
}

function fleetOf(w: World, now: number): PlannerFleet {
  const fences = Object.fromEntries(
    [...w.turns].map((t) => [
      t,
      {
        execution: execution(t),
        targetLock: `merge-execution:x-${t}`,
        progress: {
          sequence: 1,
          last_progress_revision: 1,
          last_progress_ms: NOW,
          last_progress_bound: "exact" as const,
        },
      },
    ]),
  );
  return fleet(
    {
      tables: w.tables,
      fences,
      heartbeats: {
        e1: heartbeat({ heartbeat_ms: now, slots_total: { index_id: 1, repair: 1, compact: 1, merge_wal: w.slots } }),
      },
    },
    { limits: { retireSecs: 600 } },
  );
}

const sameStates = (a: ReadonlyMap<string, TableState>, b: ReadonlyMap<string, TableState>) =>
  expect(Object.fromEntries(a)).toEqual(Object.fromEntries(b));

describe("journal exactness (property)", () => {
  it("every entry read back equals the plan at its revision and now_ms; lost moments fall in gaps", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            step: stepArb,
            advanceSecs: fc.constantFrom(0, 1, 5, 120, 700),
            flush: fc.boolean(),
            lose: fc.nat(9),
          }),
          { minLength: 1, maxLength: 40 },
        ),
        (script) => {
          const w: World = { tables: { a: demand(9, NOW - 60_000) }, slots: 1, turns: new Set() };
          const log = new JournalLog({ checkpointEveryMs: 1_800_000, idleExtendMs: 60_000, maxChunkEntries: 4 });
          const stored: { meta: ChunkMeta; chunk: JournalChunk }[] = [];
          const expected: {
            revision: number;
            now: number;
            state: Map<string, TableState>;
            figures: Record<string, DemandFigures>;
            written: boolean;
          }[] = [];
          let now = NOW;
          let revision = 1;
          let pendingFrom = 0; // expected[] index of the first evaluation not yet written
          for (const { step, advanceSecs, flush, lose } of script) {
            now += advanceSecs * 1000 + 1;
            if (step.op !== "clock") revision++;
            const t = TARGETS[(step as { t?: number }).t ?? 0];
            if (step.op === "demand") {
              const d = demand(step.pending, now - step.ageSecs * 1000, {
                fragment_count: step.fragments,
                missing_fragments: step.missing && step.fragments > 0,
              });
              // all merged: nothing pending, and past the retire idleness the head is a retire with its own wait
              if (step.merged && d.shards.s) d.shards.s.merged = { epoch: 1, value: step.pending };
              w.tables[t] = d;
            }
            if (step.op === "remove") delete w.tables[t];
            if (step.op === "slots") w.slots = step.slots;
            if (step.op === "turn") {
              if (step.on) w.turns.add(t);
              else w.turns.delete(t);
            }
            const plan = planFleet(fleetOf(w, now), now);
            const state = planStates(plan, null);
            const figures = Object.fromEntries(
              plan.tables.map((p) => [
                p.target,
                { pending_generations: p.pending_generations, wait_ms: p.wait_ms, score: p.score },
              ]),
            );
            log.observe({ revision, now_ms: now }, state);
            expected.push({ revision, now, state, figures, written: false });
            if (!flush) continue;
            const chunks = log.drain(now);
            if (lose === 0) {
              log.lost("etcd_unavailable"); // the write failed: nothing of it is stored
              pendingFrom = expected.length;
              continue;
            }
            for (const chunk of chunks) {
              const bytes = encodeChunk(chunk);
              stored.push({
                meta: parseChunkKey("/p", chunkKey("/p", chunk, bytes.length, "w1"))!,
                chunk: decodeChunk(bytes),
              });
            }
            if (chunks.length === 0) continue; // nothing changed since the last write: written with the next one
            for (let i = pendingFrom; i < expected.length; i++) expected[i].written = true;
            pendingFrom = expected.length;
          }
          const chunks = stored.map((s) => s.chunk);
          const coverage = coverageOf(
            stored.map((s) => s.meta),
            null,
            now,
            Number.MAX_SAFE_INTEGER,
          );
          for (const e of expected) {
            const read = stateAt(chunks, e.now);
            const inGap = coverage.gaps.some((g) => e.now > g.from_ms && e.now < g.to_ms);
            if (e.written) {
              expect(read).not.toBeNull();
              sameStates(read!.state, e.state);
              // the chart's figures, derived at this moment from what the journal kept, are the plan's
              const derived = [...read!.state].map(([target, st]) => [target, figuresAt(st.demand!, e.now)]);
              expect(Object.fromEntries(derived)).toEqual(e.figures);
            } else if (read && coverage.to_ms !== null && e.now <= coverage.to_ms) {
              // a moment whose chunk was lost is never answered as if entered: it is in a gap
              expect(inGap).toBe(true);
            }
          }
          // each target's entries are exactly its changes between consecutive written evaluations
          for (const target of TARGETS) {
            for (const entry of targetEntries(chunks, target)) {
              const at = expected.find((e) => e.revision === entry.revision && e.now === entry.now_ms)!;
              if ("gone" in entry) expect(at.state.has(target)).toBe(false);
              else
                expect({ ...entry }).toEqual({
                  target,
                  at_ms: at.now,
                  revision: at.revision,
                  now_ms: at.now,
                  ...at.state.get(target)!,
                });
            }
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
