// The reasons view's read (./verdict-codes.ts, ./reasons.ts) against a full read: a journal
// written as the writer writes it (random classes, verdicts, outcomes, removals, periodic
// restatements, lost writes), read as GET /scheduler/reasons reads it — only the chunk runs,
// each row for its code — gives, at every step, the due tables by code that a full read of
// every chunk gives (./fold.ts `stateAt`, counted entry by entry); and the same tables for a
// click on a band. Both reads refuse the same chunks.
import { CLASS_NAMES, OUTCOMES, WHY_NOT_CODES } from "@/lib/schema/codes";
import { parseChunkKey } from "@/lib/schema/keys";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { chunkKey, decodeChunk, encodeChunk, JournalDecodeError, type JournalChunk } from "./codec";
import type { TableState } from "./entry";
import { stateAt } from "./fold";
import { JournalLog } from "./log";
import { reasonPoints, stepsOf, targetsAt } from "./reasons";
import { codeOf, decodeCodes, isDue } from "./verdict-codes";
import { chunkRuns } from "./window";

const TARGETS = ["a", "b", "c", "d", "e", "f"];
const CODES = ["cycle_limit", "no_free_slot", "already_running", "tail_below_threshold"] as const;

const stateArb = fc.record({
  cls: fc.constantFrom(...CLASS_NAMES),
  place: fc.boolean(),
  code: fc.constantFrom(...CODES),
  outcome: fc.option(fc.constantFrom(...OUTCOMES)),
});

function entry(s: {
  cls: TableState["class"];
  place: boolean;
  code: (typeof CODES)[number];
  outcome: TableState["shadow_outcome"];
}): TableState {
  return {
    class: s.cls,
    verdict: s.place
      ? { state: "would_place", code: null, executor: "w1" }
      : { state: "would_skip", code: s.code, executor: null },
    write_turn: null,
    shadow_outcome: s.outcome,
  };
}

/** Due tables by code at `atMs` from a full read of every chunk (null: not readable). */
function fullCounts(chunks: readonly JournalChunk[], atMs: number) {
  const at = stateAt(chunks, atMs);
  if (at === null) return null;
  const by: Record<string, number> = {};
  let due = 0;
  for (const s of at.state.values()) {
    if (!isDue(s)) continue;
    due++;
    by[codeOf(s)] = (by[codeOf(s)] ?? 0) + 1;
  }
  return { at_ms: atMs, due, by_code: Object.fromEntries(Object.entries(by).sort(([a], [b]) => a.localeCompare(b))) };
}

describe("the reasons view's read", () => {
  it("equals a full read of every chunk at every step, reading only the chunk runs", () => {
    let restatementsSkipped = 0;
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            changes: fc.dictionary(fc.constantFrom(...TARGETS), fc.option(stateArb)),
            advanceMs: fc.constantFrom(0, 1_000, 7_000, 20_000), // 0: the live plan keeps its clock across revisions
            flush: fc.boolean(),
            lose: fc.nat(24),
          }),
          { minLength: 5, maxLength: 60 },
        ),
        fc.nat(1000),
        fc.nat(1000),
        (script, a, b) => {
          const log = new JournalLog({ checkpointEveryMs: 60_000, idleExtendMs: 10_000, maxChunkEntries: 5 });
          const tables = new Map<string, TableState>();
          const stored: { key: string; value: Buffer; chunk: JournalChunk }[] = [];
          const keep = (chunks: JournalChunk[]) => {
            for (const chunk of chunks) {
              const value = encodeChunk(chunk);
              stored.push({ key: chunkKey("/p", chunk, value.length, "w1"), value, chunk });
            }
          };
          let now = 1_000_000;
          let revision = 1;
          for (const { changes, advanceMs, flush, lose } of script) {
            now += advanceMs;
            revision++;
            for (const [t, s] of Object.entries(changes)) {
              if (s === null) tables.delete(t);
              else tables.set(t, entry(s));
            }
            log.observe({ revision, now_ms: now }, new Map(tables));
            if (!flush) continue;
            const chunks = log.drain(now);
            if (lose === 0) log.lost("etcd_unavailable");
            else keep(chunks);
          }
          keep(log.drain(now + 60_000));
          stored.sort((x, y) => (x.key < y.key ? -1 : 1));
          const metas = stored.map((x) => parseChunkKey("/p", x.key)!);
          const full = stored.map((x) => decodeChunk(x.value));
          const from = 1_000_000 + Math.min(a, b) * ((now - 1_000_000) / 1000);
          const to = 1_000_000 + Math.max(a, b) * ((now - 1_000_000) / 1000) + 1;
          const runs = chunkRuns(metas, from, to);
          if (runs === null) return;
          const read = stored.filter((x) =>
            runs.some((r) => x.key >= r.fromKey && (r.toKey === null || x.key < r.toKey)),
          );
          restatementsSkipped += stored.filter(
            (x, i) => x.chunk.kind === "restated" && !read.includes(x) && x.key > runs[0].fromKey && i > 0,
          ).length;
          const codes = read.map((x) => decodeCodes(x.value));
          const steps = stepsOf(from, to, Math.max(1, Math.floor((to - from) / 17)));
          // the reasons view reads a window the journal covers, with no gap in it: compare the steps after the last restart before `to`
          const restarts = metas.filter((m) => m.kind.startsWith("after_") && m.from_ms <= to).map((m) => m.from_ms);
          const lastRestart = Math.max(...restarts, -Infinity);
          if (lastRestart > from) return;
          const points = reasonPoints(codes, steps);
          const expected = steps.map((t) => fullCounts(full, t)).filter((p) => p !== null);
          expect(points).toEqual(expected);
          for (const t of steps)
            for (const code of [...CODES, "placed"]) {
              const at = stateAt(full, t);
              const want =
                at === null
                  ? null
                  : {
                      revision: at.revision,
                      now_ms: at.now_ms,
                      targets: [...at.state]
                        .filter(([, s]) => isDue(s) && codeOf(s) === code)
                        .map(([x]) => x)
                        .sort(),
                    };
              expect(targetsAt(codes, t, code)).toEqual(want);
            }
        },
      ),
      { numRuns: 300 },
    );
    expect(restatementsSkipped).toBeGreaterThan(50); // the property is about reads that skipped restatements
  });

  it("refuses the chunks a full read refuses", () => {
    const good: TableState = {
      class: "normal",
      verdict: { state: "would_skip", code: "cycle_limit", executor: null },
      write_turn: null,
      shadow_outcome: null,
    };
    const bad: TableState[] = [
      { ...good, class: "urgent" as TableState["class"] },
      {
        ...good,
        verdict: { state: "would_skip", code: "no_such_code" as (typeof WHY_NOT_CODES)[number], executor: null },
      },
      { ...good, shadow_outcome: "vanished" as TableState["shadow_outcome"] },
      { ...good, verdict: { state: "would_place", code: null, executor: null as unknown as string } },
    ];
    const chunkOf = (s: TableState): JournalChunk => ({
      kind: "delta",
      from_ms: 0,
      to_ms: 10,
      evaluations: [
        {
          revision: 2,
          now_ms: 10,
          changed: new Map([
            ["a", good],
            ["b", s],
          ]),
          removed: [],
        },
      ],
    });
    expect(decodeCodes(encodeChunk(chunkOf(good))).evaluations[0].codes).toEqual(["cycle_limit", "cycle_limit"]);
    for (const s of bad) {
      const bytes = encodeChunk(chunkOf(s));
      expect(() => decodeChunk(bytes)).toThrow(JournalDecodeError);
      expect(() => decodeCodes(bytes)).toThrow(JournalDecodeError);
    }
  });
});
