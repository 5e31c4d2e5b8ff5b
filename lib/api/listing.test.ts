// A listing's changes (lib/api/listing.ts) applied by the page (lib/client/resources/demand.ts
// applyChanges) give exactly the new listing, for any old and new order and any set of
// changed, added and removed rows; and only what must travel is sent.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { applyChanges } from "@/lib/client/resources/demand";
import type { TableSummary } from "@/lib/schema/api/demand";
import { listingChanges, type Digest } from "./listing";

/** A listing of (target, version) rows: the version stands for the row's bytes. */
type Row = { target: string; version: number };

function digest(rows: Row[]): Digest {
  const order = rows.map((r) => r.target);
  return { fingerprint: "f", order, hashes: rows.map((r) => `${r.target}@${r.version}`), position: new Map(order.map((t, i) => [t, i])) };
}

// applyChanges only reads `target` and copies rows through; a row's version rides along in `score`
const summary = (r: Row) => ({ target: r.target, score: r.version }) as unknown as TableSummary;

function roundTrip(base: Row[], next: Row[]) {
  const changes = listingChanges(digest(base), digest(next));
  const wire = { since: "base", rows: changes.sent.map((at) => ({ at, table: summary(next[at]) })), removed: changes.removed };
  return { changes, applied: applyChanges(base.map(summary), wire, next.length) };
}

const listing = fc.uniqueArray(fc.record({ target: fc.integer({ min: 0, max: 40 }).map((n) => `t${n}`), version: fc.integer({ min: 0, max: 2 }) }), { selector: (r) => r.target, maxLength: 30 });

describe("listing changes", () => {
  it("rebuild the new listing from the old one exactly", () => {
    fc.assert(
      fc.property(listing, listing, (base, next) => {
        const { applied } = roundTrip(base, next);
        expect(applied).toEqual(next.map(summary));
      }),
      { numRuns: 500 },
    );
  });

  it("send nothing when nothing changed", () => {
    const rows = Array.from({ length: 50 }, (_, i) => ({ target: `t${i}`, version: 0 }));
    expect(roundTrip(rows, rows).changes).toEqual({ sent: [], removed: [] });
  });

  it("send the changed row, the added row and the row that moved, and name the removed one", () => {
    const base = ["a", "b", "c", "d", "e"].map((target) => ({ target, version: 0 }));
    // c's bytes change; b leaves; f arrives; e moves to the front (d and a keep their order)
    const next = [{ target: "e", version: 0 }, { target: "a", version: 0 }, { target: "c", version: 1 }, { target: "f", version: 0 }, { target: "d", version: 0 }];
    const { changes, applied } = roundTrip(base, next);
    expect(changes).toEqual({ sent: [0, 2, 3], removed: ["b"] });
    expect(applied).toEqual(next.map(summary));
  });

  it("refuses changes that do not fit the listing held", () => {
    const base = [{ target: "a", version: 0 }].map(summary);
    expect(applyChanges(base, { since: "x", rows: [], removed: [] }, 2)).toBeNull();
  });
});
