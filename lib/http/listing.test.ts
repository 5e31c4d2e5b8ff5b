// A listing's changes (lib/http/listing.ts) applied by the page (lib/client/resources/demand.ts
// applyChanges) give exactly the new listing, for any old and new order and any set of
// changed, added and removed rows; and only what must travel is sent: a row whose wait,
// score or place in line alone changed is a patch, not the whole row.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { applyChanges } from "@/lib/client/resources/demand";
import type { TablePlan } from "@/lib/planner/plan";
import type { DemandPatch, TableSummary } from "@/lib/schema/api/demand";
import { digestOf, listingChanges, movingFields } from "./listing";

/** A row: `version` stands for everything but the moving fields. */
type Row = { target: string; version: number; wait: number | null; rank: number | null };

const summary = (r: Row) =>
  ({
    target: r.target,
    reason: `v${r.version}`,
    wait_ms: r.wait,
    score: r.wait === null ? 0 : r.wait / 10,
    position: r.rank === null ? null : { kind: "merge_wal", rank: r.rank, of: 99 },
  }) as unknown as TableSummary;

let names = 0;
// digestOf encodes a plan row with `encode`; here the rows are already summaries
const digest = (rows: Row[]) =>
  digestOf(`test-${++names}`, "f", rows.map(summary) as unknown as TablePlan[], (t) => t as unknown as TableSummary);

function roundTrip(base: Row[], next: Row[]) {
  const changes = listingChanges(digest(base), digest(next));
  const rows = next.map(summary);
  const wire = {
    since: "base",
    rows: changes.sent.map((at) => ({ at, table: rows[at] })),
    patches: changes.patched.map((at) => [at, ...movingFields(rows[at])] as DemandPatch),
    removed: changes.removed,
  };
  return { changes, applied: applyChanges(base.map(summary), wire, next.length) };
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
    fc.assert(
      fc.property(listing, listing, (base, next) => {
        expect(roundTrip(base, next).applied).toEqual(next.map(summary));
      }),
      { numRuns: 500 },
    );
  });

  it("send nothing when nothing changed", () => {
    const rows = Array.from({ length: 50 }, (_, i) => ({ target: `t${i}`, version: 0, wait: i, rank: i + 1 }));
    expect(roundTrip(rows, rows).changes).toEqual({ sent: [], patched: [], removed: [] });
  });

  it("patch a row whose wait, score or place in line alone moved; send it whole when more changed", () => {
    const base = [0, 1, 2].map((i) => ({ target: `t${i}`, version: 0, wait: 10, rank: i + 1 }));
    const next = [
      { target: "t0", version: 0, wait: 15, rank: 1 }, // the clock moved
      { target: "t1", version: 0, wait: 10, rank: 3 }, // its place in line moved
      { target: "t2", version: 1, wait: 15, rank: 2 }, // changed beyond that
    ];
    const { changes, applied } = roundTrip(base, next);
    expect(changes).toEqual({ sent: [2], patched: [0, 1], removed: [] });
    expect(applied).toEqual(next.map(summary));
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
    expect(changes).toEqual({ sent: [0, 2, 3], patched: [], removed: ["b"] });
    expect(applied).toEqual(next.map(summary));
  });

  it("refuses changes that do not fit the listing held", () => {
    const base = [{ target: "a", version: 0, wait: null, rank: null }].map(summary);
    expect(applyChanges(base, { since: "x", rows: [], patches: [], removed: [] }, 2)).toBeNull();
    expect(applyChanges(base, { since: "x", rows: [], patches: [[3, 1, 1, null, null]], removed: [] }, 1)).toBeNull();
  });
});
