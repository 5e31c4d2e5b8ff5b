// Pushed change-sets (issue 24): a page that applies every frame its stream is sent holds
// exactly the listing a fresh read gives, for any sequence of plans, any coalescing of them
// into steps (the loop skips the plans made while a step ran), pages that join at any step
// holding any listing (the last step's, an older one still held, or none), and reconnects.
// The frames are made as the server makes them (lib/http/listing.ts changes, one builder),
// and applied as the page applies them (lib/client/resources/demand.ts withChanges).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { withChanges } from "@/lib/client/resources/demand";
import type { TablePlan } from "@/lib/planner/plan";
import type { DemandChanges, DemandList, TableSummary } from "@/lib/schema/api/demand";
import { digestOf, knownDigest, type RowCoder } from "./listing";
import { changesOnWire, listingChanges } from "./listing-changes";
import { StepChannel, type StepSource, type StepSubscriber } from "./step-channel";

type Row = { target: string; version: number; wait: number | null };

const summary = (r: Row) =>
  ({
    target: r.target,
    reason: `v${r.version}`,
    wait_ms: r.wait,
    score: r.wait === null ? 0 : r.wait / 10,
    position: null,
  }) as unknown as TableSummary;

let runs = 0;

/** The rows are summaries already, none in line (a new id: nothing kept). */
const summaries: RowCoder = {
  id: {},
  encode: (t) => t as unknown as TableSummary,
  ranks: (rows) => ({ ranks: new Int32Array(rows.length) }),
  lines: {},
};

/** One plan's listing: named, its digest kept (as the server keeps it when a listing is served or compared). */
function listingOf(name: string, rows: Row[]): DemandList {
  const tables = rows.map(summary);
  digestOf(name, "f", tables as unknown as TablePlan[], summaries);
  return { listing: name, tables, matched: tables.length, next_cursor: null } as unknown as DemandList;
}

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** The server's source for a listing: its frame from any listing, null changes when that one's digest is gone. */
function sourceOf(next: DemandList): StepSource {
  return {
    listing: next.listing,
    frameFrom(since) {
      const base = since === null ? undefined : knownDigest(since);
      const digest = knownDigest(next.listing)!;
      const changes = base && listingChanges(base, digest);
      const rows = next.tables as unknown as TablePlan[];
      const body = {
        listing: next.listing,
        matched: next.matched,
        changes: changes ? { since, ...changesOnWire(changes, digest, rows, summaries) } : null,
      };
      return encoder.encode(`id: ${next.listing}\nevent: changes\ndata: ${JSON.stringify(body)}\n\n`);
    },
  };
}

/** A page: holds a listing, applies each frame as lib/client/fleet-stream.ts does (re-reading when one does not fit). */
class Page implements StepSubscriber {
  rereads = 0;
  frames = 0;
  constructor(
    public held: DemandList | null,
    private readonly fresh: () => DemandList,
  ) {}
  get at() {
    return this.held?.listing ?? null;
  }
  set at(_listing: string | null) {
    // what the server believes the page holds; the page's own `held` must end up there
  }
  write(frame: Uint8Array) {
    this.frames++;
    const text = decoder.decode(frame);
    const body = JSON.parse(text.slice(text.indexOf("data: ") + 6)) as DemandChanges;
    if (this.held?.listing === body.listing) return;
    const next = this.held && withChanges(this.held, body);
    if (next) this.held = next;
    else {
      this.rereads++;
      this.held = this.fresh();
    }
  }
}

const row = fc.record({
  target: fc.integer({ min: 0, max: 25 }).map((n) => `t${n}`),
  version: fc.integer({ min: 0, max: 2 }),
  wait: fc.option(fc.integer({ min: 0, max: 3 }), { nil: null }),
});
const rows = fc.uniqueArray(row, { selector: (r) => r.target, maxLength: 20 });

describe("pushed change-sets", () => {
  it("a page that applies every frame holds exactly the listing a fresh read gives, over coalesced steps, joins and reconnects", () => {
    fc.assert(
      fc.property(
        fc.array(rows, { minLength: 1, maxLength: 12 }),
        // per plan: stepped (true) or passed over while a step ran (false)
        fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }),
        // pages joining: before which step, holding which earlier plan's listing (-1: none)
        fc.array(fc.record({ at: fc.nat(12), holds: fc.integer({ min: -1, max: 11 }) }), { maxLength: 4 }),
        fc.integer({ min: 2, max: 6 }),
        (plans, stepped, joins, kept) => {
          const run = ++runs;
          const listings = plans.map((r, i) => listingOf(`run${run}.plan${i}`, r));
          const channel = new StepChannel<Page>(kept);
          let current = listings[0];
          const pages: Page[] = [new Page(listings[0], () => current)];
          channel.join(pages[0]);
          listings.forEach((l, i) => {
            current = l;
            for (const j of joins)
              if (j.at === i) {
                const page = new Page(j.holds >= 0 && j.holds < i ? listings[j.holds] : null, () => current);
                // a page that holds none reads the fleet first (the first load), then streams from it
                if (page.held === null) page.held = channel.listing === null ? listings[0] : current;
                pages.push(page);
                channel.join(page);
              }
            if (stepped[i] || i === listings.length - 1) channel.step(sourceOf(l));
          });
          const last = listings[listings.length - 1];
          for (const p of pages) {
            expect(p.held?.listing).toBe(last.listing);
            expect(p.held?.tables).toEqual(last.tables);
          }
          // every listing of the run is still held (16 digests are kept): no page ever had to read again
          expect(pages.map((p) => p.rereads)).toEqual(pages.map(() => 0));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("writes one step's frame once and the same bytes to every page at the last step", () => {
    const a = listingOf("same.a", [{ target: "x", version: 0, wait: 1 }]);
    const b = listingOf("same.b", [{ target: "x", version: 1, wait: 2 }]);
    const channel = new StepChannel<StepSubscriber & { got: Uint8Array[] }>();
    const made: (string | null)[] = [];
    const counted = (l: DemandList): StepSource => {
      const s = sourceOf(l);
      return { listing: s.listing, frameFrom: (since) => (made.push(since), s.frameFrom(since)) };
    };
    const subs = Array.from({ length: 50 }, () => {
      const got: Uint8Array[] = [];
      return { at: a.listing as string | null, got, write: (f: Uint8Array) => void got.push(f) };
    });
    for (const s of subs) channel.join(s);
    // the join of a fresh channel sends nothing; the first step makes one frame for all fifty
    expect(subs.every((s) => s.got.length === 0)).toBe(true);
    expect(channel.step(counted(b))).toBe(true);
    expect(made).toEqual([a.listing]);
    expect(subs.every((s) => s.got.length === 1 && s.got[0] === subs[0].got[0] && s.at === b.listing)).toBe(true);
    // a step to the same listing makes none
    expect(channel.step(counted(b))).toBe(false);
    expect(made).toHaveLength(1);
  });
});
