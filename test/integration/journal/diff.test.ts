// The diff between two moments read from the decision journal, against a real etcd
// (console-api.md "The decision journal"; issue 23 "The diff between two moments"): where
// the journal covers both moments, the answer is the same as the fleet re-planned at each
// side's revision and now_ms (every field: tables, executors, policies, leader, shadow
// outcomes, counts); elsewhere the side is re-planned, and each side names its basis. The
// elected sampler runs in-process on this file's prefix; contention (four tables, one
// executor whose merge slots go 1 → 2) makes verdicts change between the moments.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedEtcd } from "../../support/shared-etcd";
import type { Etcd3 } from "etcd3";
import { until } from "../../support/observe";
import { testPrefix } from "../../support/prefix";
import { journalPrefix } from "@/lib/schema/keys";
import { diffQuerySchema, diffResponseSchema, type DiffResponse } from "@/lib/schema/api/diff";
import { historyResponseSchema } from "@/lib/schema/api/history";
import { readJournalValues } from "@/lib/etcd/journal-store";
import { chunkKey, decodeChunk, encodeChunk } from "@/lib/journal/codec";
import { foldChunks } from "@/lib/journal/fold";
import type { ShadowSampler } from "@/lib/live/sampler";
import { clientFor, useConsoleEnv } from "../time/world";
import { contendedFleet, datesSettled } from "./contention";

let client: Etcd3;
let prefix: string;
let sampler: ShadowSampler;
let beforeJournal = 0;
/** the revisions before the step's first demand write, of its last one, and of the second merge slot */
let stepStart = 0;
let demandRevision = 0;
let slotRevision = 0;
const fleet = contendedFleet(
  () => client,
  () => prefix,
  "moments",
  "diff-worker",
);
const { publishStep, setSlots, tables: TABLES } = fleet;

const api = async () => ({
  diff: (await import("@/lib/time/diff")).fleetDiff,
  sides: await import("@/lib/time/diff"),
  evaluation: (await import("@/lib/process/sampling")).journalEvaluation,
});
const diff = async (q: Record<string, string>) =>
  diffResponseSchema.parse(await (await api()).diff(diffQuerySchema.parse(q)));

/** The re-planned answer at the sides' own revisions and clocks (what a page pinned at `?revision=&now_ms=` plans). */
async function replanned(d: DiffResponse): Promise<DiffResponse> {
  const { compareSides, replannedSide } = (await api()).sides;
  return diffResponseSchema.parse(
    compareSides(await replannedSide(d.from.revision, d.from.now_ms), await replannedSide(d.to.revision, d.to.now_ms)),
  );
}

/**
 * The answer without the fields that name how it was reached, and without each side's time
 * estimate: the revision clock narrows a recent revision's interval as it samples, so its
 * midpoint moves between two askings (see `sameTimes`).
 */
const facts = (d: DiffResponse) => {
  const { verdict_basis: _b, from, to, ...rest } = d;
  const side = ({ verdict_basis: _v, error_ms: _e, at_ms: _a, ...s }: DiffResponse["from"]) => s;
  return { ...rest, from: side(from), to: side(to) };
};

/** Each side's time, asked twice, in intervals that overlap (the later one may be narrower). */
function expectSameTimes(a: DiffResponse, b: DiffResponse): void {
  for (const side of ["from", "to"] as const) {
    const x = a[side];
    const y = b[side];
    expect(x.basis, side).toBe(y.basis);
    expect(x.at_ms === null, side).toBe(y.at_ms === null);
    if (x.at_ms !== null && y.at_ms !== null)
      expect(Math.abs(x.at_ms - y.at_ms), side).toBeLessThanOrEqual((x.error_ms ?? 0) + (y.error_ms ?? 0));
  }
}

async function evaluations() {
  const base = journalPrefix(prefix);
  const kvs = await readJournalValues(client, base, base, null);
  return [...foldChunks(kvs.map((kv) => decodeChunk(kv.value)))].map((e) => ({
    revision: e.revision,
    now_ms: e.now_ms,
  }));
}

async function caughtUp(revision: number): Promise<void> {
  const got = await until(
    async () => ((await evaluations()).some((e) => e.revision >= revision) ? true : undefined),
    30_000,
  );
  expect(got, `the journal reaches revision ${revision}`).not.toBeNull();
}

beforeAll(async () => {
  const endpoints = sharedEtcd();
  prefix = testPrefix("journal-diff");
  useConsoleEnv(endpoints, prefix);
  client = clientFor(endpoints);
  await fleet.seed();
  beforeJournal = await publishStep(0);
  sampler = await fleet.sampler();
  sampler.start();
  await caughtUp(beforeJournal);
  // changes the journal sees after its first checkpoint: new demand, then a second merge slot
  stepStart = Number((await client.get(`${prefix}/`).exec()).header.revision);
  demandRevision = await publishStep(1);
  // each change in a chunk of its own (the later tests read three chunks at least): the
  // sampler, left alone, may take both into one evaluation
  await caughtUp(demandRevision);
  slotRevision = await setSlots(2);
  await caughtUp(slotRevision);
}, 120_000);

afterAll(async () => {
  await sampler?.stop().catch(() => undefined);
  client?.close();
});

describe("the diff from the decision journal", () => {
  it("two journalled revisions: the same answer as the fleet re-planned at each side's revision and now_ms", async () => {
    const evs = await evaluations();
    const first = evs[0];
    const last = evs.at(-1)!;
    expect(last.revision).toBeGreaterThan(first.revision);
    const d = await diff({ from: String(first.revision), to: String(last.revision) });
    expect(d.verdict_basis).toBe("journal");
    expect([d.from.verdict_basis, d.to.verdict_basis]).toEqual(["journal", "journal"]);
    expect(d.from).toMatchObject({ revision: first.revision, now_ms: first.now_ms });
    expect(d.to).toMatchObject({ revision: last.revision, now_ms: last.now_ms });
    const again = await replanned(d);
    expect(facts(d)).toEqual(facts(again));
    expectSameTimes(d, again);
    // the moments differ: demand grew and a second slot places a second table
    expect(d.counts.verdict_changed + d.counts.class_changed).toBeGreaterThan(0);
    expect(d.counts.executors_changed).toBe(1);
  }, 60_000);

  it("a time inside the journal: the last evaluation at or before it, exact too", async () => {
    const evs = await evaluations();
    // a millisecond after an evaluation, before the next one (evaluations of close revisions may be
    // dated a millisecond apart by the revision clock: the first pair with room between them)
    const at = evs.findIndex((e, i) => i + 1 < evs.length && evs[i + 1].now_ms > e.now_ms + 1);
    expect(at, "two evaluations with a millisecond between them").toBeGreaterThanOrEqual(0);
    const mid = evs[at];
    const last = evs.at(-1)!;
    const d = await diff({ from: String(mid.now_ms + 1), to: new Date(last.now_ms).toISOString() });
    expect(d.verdict_basis).toBe("journal");
    expect(d.from).toMatchObject({ revision: mid.revision, now_ms: mid.now_ms });
    expect(d.to).toMatchObject({ revision: last.revision, now_ms: last.now_ms });
    const again = await replanned(d);
    expect(facts(d)).toEqual(facts(again));
    expectSameTimes(d, again);
  }, 60_000);

  it("a revision the journal never evaluated is re-planned, and says so", async () => {
    const evs = await evaluations();
    const evaluated = new Set(evs.map((e) => e.revision));
    const early = beforeJournal - 1; // a write of the seed, before the sampler started
    expect(evaluated.has(early)).toBe(false);
    const d = await diff({ from: String(early), to: String(evs.at(-1)!.revision) });
    expect(d.verdict_basis).toBe("fleet_plan");
    expect(d.from.verdict_basis).toBe("fleet_plan");
    expect(d.from.revision).toBe(early);
    expect(d.to.verdict_basis).toBe("journal");
    const again = await replanned(d);
    expect(facts(d)).toEqual(facts(again));
    expectSameTimes(d, again);
  }, 60_000);

  it("each history transition says what moved its inputs: the second slot is capacity on the named executor", async () => {
    const history = (await import("@/lib/time/history")).demandHistory;
    const evs = await evaluations();
    const fromMs = evs[0].now_ms;
    const toMs = evs.at(-1)!.now_ms;
    // its answers are compared byte for byte below: every point's date final first
    await datesSettled(Math.max(...evs.map((e) => e.revision)));
    const moved = new Map<string, string[]>();
    for (const target of TABLES) {
      const h = historyResponseSchema.parse(await history({ target, from_ms: fromMs, to_ms: toMs }));
      for (const p of h.points) {
        expect(p.moved_by, `${target} @${p.revision}`).not.toBeNull();
        moved.set(
          `${target}@${p.revision}`,
          p.moved_by!.map((c) => [c.cause, c.executor ?? c.target ?? c.clock].filter((x) => x !== null).join(":")),
        );
      }
    }
    // a table placed by the second slot: capacity on diff-worker moved, and (since before the step) its demand.
    // The journal evaluates the revision it finds (its own chunk writes move the revision too): the first
    // evaluation at or after the slot's revision is where the slot shows.
    const revisionOf = (k: string) => Number(k.slice(k.lastIndexOf("@") + 1));
    const afterSlot = [...moved.keys()].map(revisionOf).filter((r) => r >= slotRevision);
    expect(afterSlot.length, "a verdict changed at or after the slot's revision").toBeGreaterThan(0);
    const atSlot = [...moved].filter(([k]) => revisionOf(k) === Math.min(...afterSlot));
    for (const [k, causes] of atSlot) expect(causes, k).toContain("capacity:diff-worker");
    // and the step's demand moved each of those tables since before the step: at that point, or at the table's
    // point before it when the journal evaluated between the step and the slot (a loaded machine). Read from a
    // millisecond before the first evaluation: a window's first state is the last evaluation at or before its
    // start (lib/journal/window.ts), and a patched plan keeps its clock, so an evaluation after the step can
    // carry the first one's very now_ms; from before it, the first point is compared with the revision there.
    // The step writes the tables one by one: a table's own write may precede the step's last revision.
    for (const [k] of atSlot) {
      const target = k.slice(0, k.lastIndexOf("@"));
      const h = historyResponseSchema.parse(await history({ target, from_ms: fromMs - 1, to_ms: toMs }));
      const sinceStep = h.points
        .filter((p) => p.revision > stepStart && p.revision <= revisionOf(k))
        .flatMap((p) => p.moved_by?.map((c) => c.cause) ?? []);
      expect(sinceStep, k).toContain("demand");
    }
    expect(stepStart).toBeLessThan(demandRevision);
    expect(demandRevision).toBeLessThan(slotRevision);
    // what was read at a revision is kept (lib/time/history-moved-by.ts): answers from it are the
    // answers read afresh, table by table — each read cold (nothing kept), then again with every table's reads kept
    const kept = (await import("@/lib/time/history-moved-by")).keptInputReads;
    // From a millisecond before the journal's first evaluation: the window's start is a revision the journal
    // never marked, so each table reads at least that one from etcd (a window inside the journal may read
    // nothing at all, every revision marked).
    const answers = async () => {
      const out: string[] = [];
      for (const target of TABLES)
        out.push(JSON.stringify((await history({ target, from_ms: fromMs - 1, to_ms: toMs })).points));
      return out;
    };
    const cold: string[] = [];
    for (const target of TABLES) {
      kept.clear();
      cold.push(JSON.stringify((await history({ target, from_ms: fromMs - 1, to_ms: toMs })).points));
      expect(kept.size, `${target}: revisions read from etcd, cold`).toBeGreaterThan(0);
    }
    expect(await answers()).toEqual(cold);
    // and kept by table: another table's reads at the very same revisions never stand in for this one's
    const { withMovedBy } = await import("@/lib/time/history-moved-by");
    const { ownKeys } = await import("@/lib/journal/inputs");
    const { etcdPrefix } = await import("@/lib/etcd/client");
    // a table with points in the window (its keys came after revision 1) and one whose keys never move
    const a = atSlot[0][0].slice(0, atSlot[0][0].lastIndexOf("@"));
    const b = "never/written";
    const points = (await history({ target: a, from_ms: fromMs, to_ms: toMs })).points.map((p) => ({
      ...p,
      moved_by: null,
    }));
    const movedAs = (target: string) =>
      withMovedBy(points, 1, new Map(), ownKeys(etcdPrefix(), target)).then((ps) =>
        JSON.stringify(ps.map((p) => p.moved_by)),
      );
    kept.clear();
    const coldB = await movedAs(b);
    kept.clear();
    const coldA = await movedAs(a);
    expect(coldA).not.toBe(coldB); // the first table's own keys moved
    expect(await movedAs(b)).toBe(coldB);
  }, 60_000);

  it("what moved, from the journal's marks: the marks etcd gives at the same revisions, and the same answers as reading etcd at every point", async () => {
    const history = (await import("@/lib/time/history")).demandHistory;
    const { inputsReadAt } = await import("@/lib/time/history-moved-by");
    const { ownKeys } = await import("@/lib/journal/inputs");
    const { keys, policyKeys } = await import("@/lib/schema/keys");
    const [a, b, c] = TABLES;
    // inputs of every family, some that do not parse (a skipped key still moved): a write-turn lock
    // taken and let go, a policy that is not one, a merge failure that is not one, a heartbeat that is not one
    await client.put(keys.targetLock(prefix, a)).value("holder-1");
    await client.put(policyKeys.tablePolicy(prefix, b)).value("{not json");
    await client.put(keys.mergeFailure(prefix, c, "http://w:1")).value("[]");
    await client.put(keys.executor(prefix, "broken")).value("{}");
    await client.delete().key(keys.targetLock(prefix, a));
    const last = await publishStep(2);
    await caughtUp(last);
    const base = journalPrefix(prefix);
    const chunks = (await readJournalValues(client, base, base, null)).map((kv) => decodeChunk(kv.value));
    // every marked row and evaluation equals etcd read at its revision
    let rows = 0;
    let evaluated = 0;
    const families = new Set<string>();
    for (const chunk of chunks)
      for (const ev of chunk.evaluations) {
        for (const [target, st] of ev.changed) {
          if (!st.inputs) continue;
          const read = (await inputsReadAt(ownKeys(prefix, target), [ev.revision])).get(ev.revision)!;
          expect(st.inputs, `${target} @${ev.revision}`).toEqual(read.marks);
          rows++;
        }
        if (ev.capacities) {
          const read = (await inputsReadAt(ownKeys(prefix, a), [ev.revision])).get(ev.revision)!;
          expect([...ev.capacities].sort(), `capacities @${ev.revision}`).toEqual([...read.capacities].sort());
          evaluated++;
        }
      }
    expect(rows).toBeGreaterThanOrEqual(3);
    expect(evaluated).toBeGreaterThanOrEqual(3);
    // the histories: answered from the marks, then with every point read from etcd (nothing kept)
    const kept = (await import("@/lib/time/history-moved-by")).keptInputReads;
    const evs = await evaluations();
    const window = { from_ms: evs[0].now_ms, to_ms: evs.at(-1)!.now_ms };
    await datesSettled(Math.max(...evs.map((e) => e.revision)));
    let points = 0;
    for (const target of TABLES) {
      kept.clear();
      const marked = await history({ target, ...window });
      const readsForMarked = kept.size;
      kept.clear();
      const read = await history({ target, ...window }, { journalInputs: false });
      expect(JSON.stringify(marked.points), target).toBe(JSON.stringify(read.points));
      const journalled = new Set(marked.points.filter((p) => p.basis === "journal").map((p) => p.revision));
      // the marks spared the reads: only the window's start and the points the journal did not mark were read
      expect(readsForMarked, target).toBeLessThan(kept.size);
      for (const p of marked.points) for (const m of p.moved_by ?? []) families.add(m.cause);
      points += journalled.size;
    }
    expect(points).toBeGreaterThan(4);
    expect([...families]).toEqual(expect.arrayContaining(["demand", "capacity"]));
  }, 90_000);

  it("the chunk keys are held between requests: re-read only when a writer appended (just those) or trimmed (all)", async () => {
    await sampler.stop(); // nothing writes now but this test
    const { journalMetas } = await import("@/lib/journal/reader");
    const first = await journalMetas();
    expect(await journalMetas()).toBe(first); // unchanged keys: the held list itself
    const last = first.at(-1)!;
    const chunk = { kind: "delta" as const, from_ms: last.to_ms, to_ms: last.to_ms + 1000, evaluations: [] };
    const value = encodeChunk(chunk);
    const key = chunkKey(prefix, chunk, value.length, "test");
    await client.put(key).value(value);
    const appended = await journalMetas();
    expect(appended.map((m) => m.key)).toEqual([...first.map((m) => m.key), key]);
    await client.delete().key(first[0].key); // a trim
    const trimmed = await journalMetas();
    expect(trimmed.map((m) => m.key)).toEqual([...first.slice(1).map((m) => m.key), key]);
  }, 60_000);

  it("a table's chunks kept decoded are not fetched again; kept or fetched, the same chunks", async () => {
    // the sampler is stopped (above): the chunks stay as they are
    const { readJournalValuesWhere } = await import("@/lib/etcd/journal-store");
    const { tableChunks } = await import("@/lib/journal/reader");
    const base = journalPrefix(prefix);
    const all = await readJournalValues(client, base, base, null);
    expect(all.length).toBeGreaterThanOrEqual(3);
    const listed = await readJournalValuesWhere(client, base, base, null, (key) => key === all[1].key);
    expect(listed.map((kv) => [kv.key, kv.modRevision])).toEqual(all.map((kv) => [kv.key, kv.modRevision]));
    // the needed value alone
    expect(listed.map((kv) => kv.value)).toEqual(all.map((kv, i) => (i === 1 ? kv.value : null)));
    const plain = (v: unknown) => JSON.stringify(v, (_, x) => (x instanceof Map ? [...x] : x));
    const runs = [{ fromKey: base, toKey: null }];
    const keptDecodes = (await import("@/lib/journal/reader")).keptTableDecodes;
    keptDecodes.clear();
    const fetched = await tableChunks(base, runs, TABLES[0]);
    expect(keptDecodes.size).toBe(all.length);
    const kept = await tableChunks(base, runs, TABLES[0]);
    expect(kept).not.toBeNull();
    expect(kept!.every((c, i) => c === fetched![i])).toBe(true); // the very decodes kept, nothing read again
    expect(plain(kept)).toBe(plain(all.map((kv) => decodeChunk(kv.value, TABLES[0]))));
  }, 60_000);

  it("values are paged by their bytes: chunks of ~900 KB come back whole, never one 4 MiB message", async () => {
    const base = `${journalPrefix(prefix)}paged-by-bytes/`;
    const big = (i: number) => Buffer.alloc(900_000, 65 + i);
    for (let i = 0; i < 8; i++) await client.put(`${base}${i}`).value(big(i));
    const all = await readJournalValues(client, base, base, null);
    expect(all.map((kv) => [kv.key.slice(base.length), kv.value.length, kv.value[0]])).toEqual(
      Array.from({ length: 8 }, (_, i) => [String(i), 900_000, 65 + i]),
    );
    await client.delete().prefix(base);
  }, 60_000);
});
