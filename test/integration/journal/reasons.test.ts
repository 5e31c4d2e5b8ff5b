// GET /scheduler/reasons against a real etcd (console-api.md "The decision journal"; issue
// 23): chunks in the journal's stored form (gzip, keys naming span and kind) are written
// under this file's prefix, then the API module folds them. Every count below is worked out
// by hand from the chunks: `due` = class neither tail nor idle; `placed` = would_place.
import type { ClassName, WhyNotCode } from "@/lib/schema/codes";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedEtcd } from "../../support/shared-etcd";
import type { Etcd3 } from "etcd3";
import { testPrefix } from "../../support/prefix";
import { chunkKey, encodeChunk, type JournalChunk } from "@/lib/journal/codec";
import type { TableState } from "@/lib/journal/entry";
import { reasonsQuerySchema, reasonsResponseSchema } from "@/lib/schema/api/reasons";
import { journalCoverageSchema } from "@/lib/schema/api/journal";
import { clientFor, failure, useConsoleEnv } from "../time/world";

const MIN = 60_000;
let client: Etcd3;
let prefix: string;
/** the journal's first moment: 3 hours ago, on a whole minute */
const T = Math.floor((Date.now() - 3 * 3_600_000) / MIN) * MIN;
const NOW = T + 40 * MIN;

const s = (cls: ClassName, code: WhyNotCode | null): TableState => ({
  class: cls,
  verdict:
    code === null
      ? { state: "would_place", code: null, executor: "w1" }
      : { state: "would_skip", code, executor: null },
  write_turn: null,
  shadow_outcome: null,
});
const m = (o: Record<string, TableState>) => new Map(Object.entries(o));

// T+0 checkpoint: a placed, b no_free_slot, c tail (not due), d idle (not due)
// T+5 a → cycle_limit; T+10 b gone, e appears placed
// T+15 delta (next chunk): c promoted to normal no_free_slot
// T+20 periodic checkpoint restating the state; T+25 a → placed
// gap (no sampler) T+25..T+30; T+30 checkpoint after it: a placed, e placed
const CHUNKS: JournalChunk[] = [
  {
    kind: "after_no_sampler",
    from_ms: T,
    to_ms: T + 10 * MIN,
    evaluations: [
      {
        revision: 10,
        now_ms: T,
        changed: m({
          "r/a": s("normal", null),
          "r/b": s("critical", "no_free_slot"),
          "r/c": s("tail", "no_free_slot"),
          "r/d": s("idle", "no_demand"),
        }),
        removed: [],
      },
      { revision: 11, now_ms: T + 5 * MIN, changed: m({ "r/a": s("normal", "cycle_limit") }), removed: [] },
      { revision: 12, now_ms: T + 10 * MIN, changed: m({ "r/e": s("recovery", null) }), removed: ["r/b"] },
    ],
  },
  {
    kind: "delta",
    from_ms: T + 10 * MIN,
    to_ms: T + 15 * MIN,
    evaluations: [
      { revision: 14, now_ms: T + 15 * MIN, changed: m({ "r/c": s("normal", "no_free_slot") }), removed: [] },
    ],
  },
  {
    kind: "checkpoint",
    from_ms: T + 20 * MIN,
    to_ms: T + 25 * MIN,
    evaluations: [
      {
        revision: 15,
        now_ms: T + 20 * MIN,
        changed: m({
          "r/a": s("normal", "cycle_limit"),
          "r/c": s("normal", "no_free_slot"),
          "r/d": s("idle", "no_demand"),
          "r/e": s("recovery", null),
        }),
        removed: [],
      },
      { revision: 16, now_ms: T + 25 * MIN, changed: m({ "r/a": s("normal", null) }), removed: [] },
    ],
  },
  {
    kind: "after_no_sampler",
    from_ms: T + 30 * MIN,
    to_ms: T + 35 * MIN,
    evaluations: [
      {
        revision: 20,
        now_ms: T + 30 * MIN,
        changed: m({ "r/a": s("normal", null), "r/e": s("recovery", null) }),
        removed: [],
      },
    ],
  },
];

const api = () => import("@/lib/time/journal-reasons").then((mod) => mod.schedulerReasons);
const ask = async (q: Record<string, string>) =>
  reasonsResponseSchema.parse(await (await api())(reasonsQuerySchema.parse(q), NOW));

beforeAll(async () => {
  const endpoints = sharedEtcd();
  prefix = testPrefix("journal-reasons");
  useConsoleEnv(endpoints, prefix);
  client = clientFor(endpoints);
  for (const chunk of CHUNKS) {
    const bytes = encodeChunk(chunk);
    await client.put(chunkKey(prefix, chunk, bytes.length, "w1")).value(bytes);
  }
});

afterAll(() => client?.close());

describe("GET /scheduler/reasons from the journal", () => {
  it("counts due tables by code at each step, across a delta chunk and a periodic checkpoint", async () => {
    const r = await ask({ from_ms: String(T), to_ms: String(T + 25 * MIN), step_ms: String(5 * MIN) });
    expect(r).toEqual({
      from_ms: T,
      to_ms: T + 25 * MIN,
      step_ms: 5 * MIN,
      points: [
        { at_ms: T, due: 2, by_code: { no_free_slot: 1, placed: 1 } },
        { at_ms: T + 5 * MIN, due: 2, by_code: { cycle_limit: 1, no_free_slot: 1 } },
        { at_ms: T + 10 * MIN, due: 2, by_code: { cycle_limit: 1, placed: 1 } },
        { at_ms: T + 15 * MIN, due: 3, by_code: { cycle_limit: 1, no_free_slot: 1, placed: 1 } },
        { at_ms: T + 20 * MIN, due: 3, by_code: { cycle_limit: 1, no_free_slot: 1, placed: 1 } },
        { at_ms: T + 25 * MIN, due: 3, by_code: { no_free_slot: 1, placed: 2 } },
      ],
    });
  });

  it("a window starting inside a segment reads back from its checkpoint; a step between evaluations holds the earlier one", async () => {
    const r = await ask({ from_ms: String(T + 22 * MIN), to_ms: String(T + 25 * MIN), step_ms: String(2 * MIN) });
    expect(r.points).toEqual([
      { at_ms: T + 22 * MIN, due: 3, by_code: { cycle_limit: 1, no_free_slot: 1, placed: 1 } },
      { at_ms: T + 24 * MIN, due: 3, by_code: { cycle_limit: 1, no_free_slot: 1, placed: 1 } },
      { at_ms: T + 25 * MIN, due: 3, by_code: { no_free_slot: 1, placed: 2 } },
    ]);
  });

  it("after a gap, the checkpoint that closes it starts afresh (c is no longer entered)", async () => {
    const r = await ask({ from_ms: String(T + 30 * MIN), to_ms: String(T + 35 * MIN), step_ms: String(5 * MIN) });
    expect(r.points).toEqual([
      { at_ms: T + 30 * MIN, due: 2, by_code: { placed: 2 } },
      { at_ms: T + 35 * MIN, due: 2, by_code: { placed: 2 } },
    ]);
  });

  it("answers 409 journal_not_covering with the coverage for a window over a gap, before the journal or past its end", async () => {
    const coverage = {
      from_ms: T,
      to_ms: T + 35 * MIN,
      entries: 15,
      bytes: expect.any(Number),
      retention_ms: 7 * 24 * 3_600_000,
      gaps: [{ from_ms: T + 25 * MIN, to_ms: T + 30 * MIN, reason: "no_sampler" }],
    };
    for (const [from, to] of [
      [T + 20 * MIN, T + 31 * MIN],
      [T - MIN, T + 5 * MIN],
      [T + 30 * MIN, T + 39 * MIN],
    ]) {
      const e = await failure(
        (await api())(reasonsQuerySchema.parse({ from_ms: String(from), to_ms: String(to) }), NOW),
      );
      expect(e?.status).toBe(409);
      expect(e?.body.error.code).toBe("journal_not_covering");
      expect(journalCoverageSchema.parse(e?.body.error.coverage)).toEqual(coverage);
    }
  });

  it("answers 400 for a to_ms more than 5 minutes ahead, a from_ms after to_ms and too many steps; a to_ms a little ahead reads as now", async () => {
    const bad = async (q: Record<string, string>) => {
      const e = await failure((await api())(reasonsQuerySchema.parse(q), NOW));
      return [e?.status, e?.body.error.code, (e?.body.error.issues as { path: string[] }[])[0].path[0]];
    };
    expect(await bad({ from_ms: String(T), to_ms: String(NOW + 5 * MIN + 1) })).toEqual([
      400,
      "invalid_query",
      "to_ms",
    ]);
    expect(await bad({ from_ms: String(NOW + MIN), to_ms: String(NOW + 4 * MIN) })).toEqual([
      400,
      "invalid_query",
      "from_ms",
    ]);
    expect(await bad({ from_ms: String(T), to_ms: String(NOW), step_ms: "1000" })).toEqual([
      400,
      "invalid_query",
      "step_ms",
    ]);
    expect(reasonsQuerySchema.safeParse({ step_ms: "999" }).success).toBe(false);
    expect(reasonsQuerySchema.safeParse({ from_ms: "5", to_ms: "5" }).success).toBe(false);
    const { reasonsWindow } = await import("@/lib/time/journal-reasons");
    expect(reasonsWindow(reasonsQuerySchema.parse({ from_ms: String(T), to_ms: String(NOW + 4 * MIN) }), NOW)).toEqual({
      from: T,
      to: NOW,
      step: 40_000,
    });
  });

  it("lists the due tables holding a code at a step (the band opened), from the evaluation that held then", async () => {
    const { reasonTargets } = await import("@/lib/time/journal-reasons");
    const { reasonTargetsQuerySchema: reasonTargetsQuery, reasonTargetsResponseSchema: reasonTargetsResponse } =
      await import("@/lib/schema/api/reasons");
    const at = async (atMs: number, code: string) =>
      reasonTargetsResponse.parse(await reasonTargets(reasonTargetsQuery.parse({ at_ms: String(atMs), code }), NOW));
    expect(await at(T + 17 * MIN, "no_free_slot")).toEqual({
      at_ms: T + 17 * MIN,
      code: "no_free_slot",
      revision: 14,
      now_ms: T + 15 * MIN,
      targets: ["r/c"],
    });
    expect(await at(T + 25 * MIN, "placed")).toEqual({
      at_ms: T + 25 * MIN,
      code: "placed",
      revision: 16,
      now_ms: T + 25 * MIN,
      targets: ["r/a", "r/e"],
    });
    // the idle table's code is not a due table's
    expect((await at(T + 25 * MIN, "no_demand")).targets).toEqual([]);
    const e = await failure(
      reasonTargets(reasonTargetsQuery.parse({ at_ms: String(T + 27 * MIN), code: "placed" }), NOW),
    );
    expect([e?.status, e?.body.error.code]).toEqual([409, "journal_not_covering"]);
    expect(reasonTargetsQuery.safeParse({ at_ms: "5", code: "Not A Code" }).success).toBe(false);
  });

  it("a chunk naming a code this console does not know is counted and never read: the reasons view says not covered, history re-plans that window", async () => {
    const bad: JournalChunk = {
      kind: "delta",
      from_ms: T + 35 * MIN,
      to_ms: T + 40 * MIN,
      evaluations: [
        {
          revision: 21,
          now_ms: T + 38 * MIN,
          // another version's code (the type says no; the stored form does not know types)
          changed: m({
            "r/a": {
              ...s("normal", null),
              verdict: { state: "would_skip", code: "warp_drive" as WhyNotCode, executor: null },
            },
          }),
          removed: [],
        },
      ],
    };
    const bytes = encodeChunk(bad);
    const key = chunkKey(prefix, bad, bytes.length, "w2");
    await client.put(key).value(bytes);
    const { metrics } = await import("@/lib/metrics");
    const unreadable = async () => (await metrics().journalChunksUnreadable.get()).values[0]?.value ?? 0;
    try {
      const before = await unreadable();
      const e = await failure(
        (await api())(
          reasonsQuerySchema.parse({
            from_ms: String(T + 30 * MIN),
            to_ms: String(T + 40 * MIN),
            step_ms: String(5 * MIN),
          }),
          NOW,
        ),
      );
      expect([e?.status, e?.body.error.code]).toEqual([409, "journal_not_covering"]);
      expect(e?.body.error.message).toContain("unreadable chunk");
      const { journalWindow } = await import("@/lib/time/journal-history");
      const w = await journalWindow("r/a", T + 30 * MIN, T + 40 * MIN);
      expect([w.points, w.initial, w.uncovered]).toEqual([[], null, [{ from_ms: T + 30 * MIN, to_ms: T + 40 * MIN }]]);
      // before the bad chunk, the same table's window still reads from the journal
      expect((await journalWindow("r/a", T + 20 * MIN, T + 30 * MIN)).points.length).toBeGreaterThan(0);
      expect(await unreadable()).toBe(before + 2);
      // a read never rewrites: the chunk is in etcd as it was put
      expect((await client.get(key).buffer())?.equals(bytes)).toBe(true);
    } finally {
      await client.delete().key(key);
    }
  });
});
