// A listing's changes (lib/http/listing.ts digests, ./listing-changes.ts) applied by the page (lib/client/resources/demand.ts
// applyChanges) give exactly the new listing, for any old and new order and any set of
// changed, added and removed rows; and only what must travel is sent: a row whose wait,
// score or place in line alone changed is a patch, not the whole row.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { applyChanges } from "@/lib/client/resources/demand";
import { replanFleet, type FleetPlan, type PlannerFleet, type TablePlan } from "@/lib/planner/plan";
import type { PlanLine } from "@/lib/planner/plan/types";
import { NOW, demand, fleet, heartbeat } from "@/lib/planner/plan/__fixtures__/fleet";
import type { TableDemand } from "@/lib/schema/demand";
import type { TableSummary } from "@/lib/schema/api/demand";
import { metrics } from "@/lib/metrics";
import { digestOf, digestRowsAhead, type RowCoder } from "./listing";
import { changesOnWire, listingChanges } from "./listing-changes";

/** A row: `version` stands for everything but the moving fields. */
type Row = { target: string; version: number; wait: number | null; rank: number | null };

/** `of`: the listing's count in line (every row in line has it). */
const summary = (r: Row, of = 99) =>
  ({
    target: r.target,
    reason: `v${r.version}`,
    wait_ms: r.wait,
    score: r.wait === null ? 0 : r.wait / 10,
    position: r.rank === null ? null : { kind: "merge_wal", rank: r.rank, of },
  }) as unknown as TableSummary;

let names = 0;
// digestOf says a plan row as its coder does; here the rows are already summaries (a new id: nothing kept)
const asSummaries = (of: number): RowCoder => ({
  id: {},
  encode: (t) => t as unknown as TableSummary,
  ranks: (rows) => ({ ranks: Int32Array.from(rows, (t) => (t as unknown as TableSummary).position?.rank ?? 0) }),
  lines: { merge_wal: of },
});
const summaries = (rows: Row[], of: number) => rows.map((r) => summary(r, of)) as unknown as TablePlan[];
const digest = (rows: Row[], of = 99) => digestOf(`test-${++names}`, "f", summaries(rows, of), asSummaries(of));

function roundTrip(base: Row[], next: Row[], ofs: [number, number] = [99, 99]) {
  const nextDigest = digest(next, ofs[1]);
  const changes = listingChanges(digest(base, ofs[0]), nextDigest);
  const wire = { since: "base", ...changesOnWire(changes, nextDigest, summaries(next, ofs[1]), asSummaries(ofs[1])) };
  const applied = applyChanges(
    base.map((r) => summary(r, ofs[0])),
    wire,
    next.length,
  );
  return { changes, wire, applied };
}

const row = fc.record({
  target: fc.integer({ min: 0, max: 40 }).map((n) => `t${n}`),
  version: fc.integer({ min: 0, max: 2 }),
  wait: fc.option(fc.integer({ min: 0, max: 3 }), { nil: null }),
  rank: fc.option(fc.integer({ min: 1, max: 3 }), { nil: null }),
});
const listing = fc.uniqueArray(row, { selector: (r) => r.target, maxLength: 30 });

describe("listing changes", () => {
  it("rebuild the new listing from the old one exactly", () => {
    const of = fc.integer({ min: 1, max: 3 });
    fc.assert(
      fc.property(listing, listing, fc.tuple(of, of), (base, next, ofs) => {
        expect(roundTrip(base, next, ofs).applied).toEqual(next.map((r) => summary(r, ofs[1])));
      }),
      { numRuns: 500 },
    );
  });

  it("send nothing when nothing changed", () => {
    const rows = Array.from({ length: 50 }, (_, i) => ({ target: `t${i}`, version: 0, wait: i, rank: i + 1 }));
    expect(roundTrip(rows, rows).changes).toEqual({ sent: [], patched: [], shifted: [], removed: [] });
  });

  it("patch a row whose wait or score moved, shift one whose place in line alone did; send it whole when more changed", () => {
    const base = [0, 1, 2].map((i) => ({ target: `t${i}`, version: 0, wait: 10, rank: i + 1 }));
    const next = [
      { target: "t0", version: 0, wait: 15, rank: 1 }, // the clock moved
      { target: "t1", version: 0, wait: 10, rank: 3 }, // its place in line moved
      { target: "t2", version: 1, wait: 15, rank: 2 }, // changed beyond that
    ];
    const { changes, applied } = roundTrip(base, next);
    expect(changes).toEqual({ sent: [2], patched: [0], shifted: [[1, 1, 1]], removed: [] });
    expect(applied).toEqual(next.map((r) => summary(r)));
  });

  it("say a table that moves up the line, and the count in line, in a few words, not a patch per row", () => {
    // t9 moves from last to first: every row it passed moves one place down the line, and one
    // more table in line changes the count of every row
    const base = Array.from({ length: 10 }, (_, i) => ({ target: `t${i}`, version: 0, wait: 10, rank: i + 1 }));
    const next = [
      { target: "t9", version: 1, wait: 10, rank: 1 },
      ...base.slice(0, 9).map((r) => ({ ...r, rank: r.rank + 1 })),
      { target: "t10", version: 0, wait: 10, rank: 11 },
    ];
    const { changes, wire, applied } = roundTrip(base, next, [10, 11]);
    expect(changes).toEqual({ sent: [0, 10], patched: [], shifted: [[1, 9, 1]], removed: [] });
    expect(wire.lines).toEqual({ merge_wal: 11 });
    expect(applied).toEqual(next.map((r) => summary(r, 11)));
  });

  it("send the changed row, the added row and the row that moved, and name the removed one", () => {
    const base = ["a", "b", "c", "d", "e"].map((target) => ({ target, version: 0, wait: null, rank: null }));
    // c changes; b leaves; f arrives; e moves to the front (a and d keep their order)
    const next = ["e", "a", "c", "f", "d"].map((target) => ({
      target,
      version: target === "c" ? 1 : 0,
      wait: null,
      rank: null,
    }));
    const { changes, applied } = roundTrip(base, next);
    expect(changes).toEqual({ sent: [0, 2, 3], patched: [], shifted: [], removed: ["b"] });
    expect(applied).toEqual(next.map((r) => summary(r)));
  });

  it("are exactly what the plain definition gives (the fast paths change nothing)", () => {
    // the definition, as first written: a map of old places, every row looked up, the
    // patience sort with a set; listingChanges must give the same arrays
    // a row's wait and score as text: what the wire tells apart
    const motion = (d: ReturnType<typeof digest>, i: number) =>
      `${d.cells[i].summary.wait_ms}|${d.cells[i].summary.score}`;
    const plain = (base: ReturnType<typeof digest>, next: ReturnType<typeof digest>) => {
      const position = new Map(base.order.map((t, i) => [t, i]));
      const sent: number[] = [];
      const stay: number[] = [];
      const old: number[] = [];
      next.order.forEach((target, i) => {
        const was = position.get(target);
        if (was === undefined || base.cells[was].hash !== next.cells[i].hash) sent.push(i);
        else {
          stay.push(i);
          old.push(was);
        }
      });
      const tails: number[] = [];
      const prev: number[] = [];
      old.forEach((x, i) => {
        let lo = 0;
        let hi = tails.length;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if (old[tails[mid]] < x) lo = mid + 1;
          else hi = mid;
        }
        prev[i] = lo > 0 ? tails[lo - 1] : -1;
        tails[lo] = i;
      });
      const keep = new Set<number>();
      for (let i = tails.length > 0 ? tails[tails.length - 1] : -1; i >= 0; i = prev[i]) keep.add(i);
      const patched: number[] = [];
      const shifted: number[][] = [];
      stay.forEach((i, k) => {
        if (!keep.has(k)) sent.push(i);
        else if (motion(base, old[k]) !== motion(next, i)) patched.push(i);
        else if (base.ranks[old[k]] !== next.ranks[i]) shifted.push([i, i, next.ranks[i] - base.ranks[old[k]]]);
      });
      // adjacent single shifts by the same amount are one run
      const runs: number[][] = [];
      for (const s of shifted) {
        const last = runs[runs.length - 1];
        if (last && last[1] === s[0] - 1 && last[2] === s[2]) last[1] = s[0];
        else runs.push([...s]);
      }
      sent.sort((a, b) => a - b);
      const now = new Set(next.order);
      return { sent, patched, shifted: runs, removed: base.order.filter((t) => !now.has(t)) };
    };
    // long listings where most rows keep their place or shift together, as between plan steps
    const shifted = fc
      .tuple(fc.integer({ min: 0, max: 120 }), fc.array(fc.tuple(fc.nat(), fc.nat(), fc.nat(3)), { maxLength: 6 }))
      .map(([n, edits]) => {
        const base = Array.from({ length: n }, (_, i) => ({
          target: `t${i}`,
          version: 0,
          wait: i % 3,
          rank: i % 4 === 0 ? null : i,
        }));
        const next = base.map((r) => ({ ...r }));
        for (const [a, b, kind] of edits) {
          if (next.length === 0) break;
          const from = a % next.length;
          if (kind === 0)
            next.splice(b % (next.length + 1), 0, next.splice(from, 1)[0]); // a row moves
          else if (kind === 1)
            next.splice(from, 1); // a row leaves
          else if (kind === 2) next.splice(from, 0, { target: `new${a}-${b}`, version: 0, wait: 0, rank: null });
          else next[from] = { ...next[from], version: 1, wait: b % 3 }; // a row changes
        }
        // the places in line are counted again, as a plan does
        let rank = 0;
        return [base, next.map((r) => (r.rank === null ? r : { ...r, rank: ++rank }))] as const;
      });
    fc.assert(
      fc.property(fc.oneof(fc.tuple(listing, listing), shifted), ([base, next]) => {
        const [b, n] = [digest(base), digest(next)];
        expect(listingChanges(b, n)).toEqual(plain(b, n));
      }),
      { numRuns: 1000 },
    );
  });

  it("refuses changes that do not fit the listing held", () => {
    const base = [{ target: "a", version: 0, wait: null, rank: null }].map((r) => summary(r));
    const none = { since: "x", rows: [], patches: [], shifts: [], lines: {}, removed: [] };
    expect(applyChanges(base, none, 2)).toBeNull();
    // fewer places than the rows held that the changes keep
    const two = [
      { target: "a", version: 0, wait: null, rank: null },
      { target: "b", version: 0, wait: null, rank: null },
    ];
    expect(
      applyChanges(
        two.map((r) => summary(r)),
        none,
        1,
      ),
    ).toBeNull();
    expect(
      applyChanges(
        two.map((r) => summary(r)),
        { ...none, removed: ["b"] },
        1,
      ),
    ).toEqual([summary(two[0])]);
    expect(applyChanges(base, { ...none, patches: [[3, 1, 1, null, null]] }, 1)).toBeNull();
    // a shift of a row not in line, or past the end; a row in line of a kind with no count
    expect(applyChanges(base, { ...none, shifts: [[0, 0, 1]] }, 1)).toBeNull();
    expect(applyChanges(base, { ...none, shifts: [[0, 1, 1]] }, 1)).toBeNull();
    const inLine = [{ target: "a", version: 0, wait: null, rank: 1 }].map((r) => summary(r));
    expect(applyChanges(inLine, none, 1)).toBeNull();
    expect(applyChanges(inLine, { ...none, lines: { merge_wal: 99 } }, 1)).toEqual(inLine);
  });
});

describe("the listing of a patched plan", () => {
  // one encoder for every step, as the demand listing has (its rows' digests are kept by it);
  // a few of the wire's fields, so a verdict or a place in line can change alone
  let encoded = 0;
  const summaryOf = (t: TablePlan, line: PlanLine) =>
    ({
      target: t.target,
      class: t.class,
      pending_generations: t.pending_generations,
      wait_ms: t.wait_ms,
      score: t.score,
      verdict: t.verdict,
      position: line.positionOf(t),
    }) as unknown as TableSummary;
  const KEPT = {};
  const coderOf = (plan: FleetPlan, id = KEPT): RowCoder => ({
    id,
    encode: (t) => (encoded++, summaryOf(t, plan.line)),
    ranks: (rows, carried) => {
      const at = plan.line.placesAlong(rows, carried);
      return { ranks: plan.line.ranksAt(at), places: { line: plan.line.token, at } };
    },
    lines: plan.line.sizes(),
  });
  const lent = async () =>
    (await metrics().listingRowHashes.get()).values
      .filter((v) => v.labels.source === "lent")
      .reduce((n, v) => n + v.value, 0);
  const TARGETS = Array.from({ length: 200 }, (_, i) => `t${String(i).padStart(3, "0")}`);
  const edit = fc.record({
    table: fc.integer({ min: 0, max: TARGETS.length - 1 }),
    pending: fc.constantFrom(0, 1, 8, 20, 300),
    ageS: fc.integer({ min: 0, max: 7200 }),
  });

  it("is digested exactly as from scratch, and only the rows the patch changed are hashed again", async () => {
    const step = fc.record({
      changes: fc.array(edit, { minLength: 1, maxLength: 4 }),
      clockS: fc.constantFrom(0, 0, 5, 600),
      // the plan's rows digested ahead (as a full plan's are before it goes live, while streams are open)
      ahead: fc.boolean(),
    });
    const lentBefore = await lent();
    let carried = 0;
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 12 }), (steps) => {
        let tables = new Map<string, TableDemand>(
          TARGETS.map((t, i) => [t, demand(8 + (i % 50), NOW - 1_800_000 - i)]),
        );
        const heartbeats = new Map([
          ["e1", heartbeat()],
          ["e2", heartbeat()],
        ]);
        let now = NOW;
        // fleet-wide records kept between steps (as the live view's are): the steps are patches
        const wide = fleet();
        let plan = replanFleet(null, { ...wide, tables, heartbeats } as PlannerFleet, now);
        const seen = new Set<TablePlan>(plan.tables);
        let held = digestOf(`kept-${++names}`, "f", plan.tables, coderOf(plan));
        for (const { changes, clockS, ahead } of steps) {
          tables = new Map(tables);
          for (const c of changes) tables.set(TARGETS[c.table], demand(c.pending, NOW - c.ageS * 1000));
          now += clockS * 1000; // the clock moved: a full plan, every row made anew
          const before = plan;
          plan = replanFleet(plan, { ...wide, tables, heartbeats } as PlannerFleet, now);
          const fresh = plan.tables.filter((t) => !seen.has(t)).length;
          encoded = 0;
          if (ahead) for (const _ of digestRowsAhead(plan.tables, coderOf(plan), before.byTarget));
          const encodedAhead = encoded;
          // as a step does: the new listing digested alike the one the page holds
          const kept = digestOf(`kept-${++names}`, "f", plan.tables, coderOf(plan), held);
          expect(encoded).toBe(fresh);
          // rows digested ahead leave the step nothing to encode
          if (ahead) expect(encoded).toBe(encodedAhead);
          // a new coder id holds no row and borrows no hash: everything from scratch
          const scratch = digestOf(`scratch-${++names}`, "f", plan.tables, coderOf(plan, {}));
          // each row's hash, wait and score (the place in line a summary was first encoded with is not the digest's: `ranks`)
          const said = (d: typeof kept) => d.cells.map((c) => [c.hash, c.summary.wait_ms, c.summary.score]);
          expect(said(kept)).toEqual(said(scratch));
          expect(kept.ranks).toEqual(scratch.ranks);
          expect(kept.places).toEqual({ ...scratch.places, line: plan.line.token });
          expect(kept.order).toEqual(scratch.order);
          // the rows kept by object, and where each row sat in the held listing: as found by target
          expect(kept.from?.key).toBe(held.key);
          expect([...kept.from!.was]).toEqual(kept.order.map((t) => held.order.indexOf(t)));
          if (plan.tables.some((t) => before.tables.includes(t))) carried++;
          // the changes said with those places are the changes found without them
          expect(listingChanges(held, kept)).toEqual(listingChanges(held, { ...kept, from: null }));
          for (const t of plan.tables) seen.add(t);
          held = kept;
        }
      }),
      { numRuns: 60 },
    );
    // the clock's plans made rows anew that took the hash of the row the page held
    expect((await lent()) - lentBefore).toBeGreaterThan(1000);
    // and patches kept rows by object
    expect(carried).toBeGreaterThan(100);
  });
});
