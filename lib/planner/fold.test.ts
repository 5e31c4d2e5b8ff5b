import { describe, expect, it } from "vitest";
import { emptyTableDemand } from "@/lib/schema";
import { deriveShard, deriveTable, foldEvent } from "./index";
import { cloneDemandEvent, content, ev, foldAll, permutations, rebuild } from "./__fixtures__/demand";

describe("T1 fold_is_order_independent_and_idempotent", () => {
  const events = [
    ev("a", 10, null, 1, "W"),
    ev("a", 12, 8, 1, "Ex"),
    ev("a", 11, 11, 1, "Ex"),
    ev("b", 3, null, 2, "W"),
    ev("b", 5, null, 2, "Scan"),
  ];
  const direct = foldAll(events);
  it("folds to a.sealed 12, a.merged 11, b.sealed 5, pending 6", () => {
    expect(direct.shards.a.sealed).toEqual({ epoch: 1, value: 12 });
    expect(direct.shards.a.merged).toEqual({ epoch: 1, value: 11 });
    expect(direct.shards.b.sealed).toEqual({ epoch: 2, value: 5 });
    expect(deriveTable(direct).pending_generations).toBe(6);
  });
  it("every one of 120 permutations, doubled, replayed and rebuilt gives the same table", () => {
    const perms = permutations(events);
    expect(perms).toHaveLength(120);
    const expected = content(direct);
    for (const p of perms) {
      const doubled = p.flatMap((e) => [e, e]);
      expect(content(foldAll(doubled))).toEqual(expected);
      expect(content(rebuild(p))).toEqual(expected);
      const replay = foldAll(p);
      for (const e of p) expect(foldEvent(replay, cloneDemandEvent(e), 99, 0)).toBe("NotNewer");
    }
  });
});

describe("T2 round3_counterexamples_fold_to_one_answer", () => {
  it.each([
    [[ev("s", 100, 40, 1, "Ex"), ev("s", 60, null, 2, "W")], 60],
    [[ev("s", 30, 10, 1, "W"), ev("s", 20, 20, 1, "Scan")], 10],
  ] as const)("pending %#", (events, pending) => {
    for (const p of permutations(events)) expect(deriveTable(foldAll(p)).pending_generations).toBe(pending);
  });
});

describe("T3 merged_from_an_older_epoch_still_counts_against_a_newer_flush", () => {
  const events = [ev("s", 40, 40, 1, "Ex"), ev("s", 60, null, 2, "W")];
  it("sealed {2,60}, merged {1,40}, pending 20; join and rebuild agree", () => {
    const t = foldAll(events);
    expect(t.shards.s.sealed).toEqual({ epoch: 2, value: 60 });
    expect(t.shards.s.merged).toEqual({ epoch: 1, value: 40 });
    expect(deriveTable(t).pending_generations).toBe(20);
    expect(deriveTable(rebuild(events)).pending_generations).toBe(20);
    expect(deriveTable(rebuild([...events].reverse())).pending_generations).toBe(20);
  });
});

describe("T4 writer_event_never_forgets_merged", () => {
  it("pending 4", () => {
    const events = [ev("s", 10, 8, 1, "Ex"), ev("s", 12, null, 1, "W")];
    expect(deriveTable(foldAll(events)).pending_generations).toBe(4);
    expect(rebuild(events).shards.s.merged).toEqual({ epoch: 1, value: 8 });
  });
});

describe("T11 aggregates_and_revision_tracking", () => {
  it("pending 14, bytes 18,000, revision 9, updated 300; a NotNewer keeps revision 9", () => {
    const t = emptyTableDemand();
    expect(foldEvent(t, ev("a", 10, 4, 1, "W"), 7, 100)).toBe("Changed");
    expect(foldEvent(t, ev("b", 3, 3, 1, "W"), 9, 200)).toBe("Changed");
    expect(foldEvent(t, ev("c", 8, null, 1, "W"), 8, 300)).toBe("Changed");
    const d = deriveTable(t);
    expect(d.pending_generations).toBe(14);
    expect(d.pending_bytes).toBe(18_000);
    expect(t.observed_revision).toBe(9);
    expect(t.updated_ms).toBe(300);
    expect(foldEvent(t, ev("b", 3, null, 1, "W"), 50, 400)).toBe("NotNewer");
    expect(t.observed_revision).toBe(9);
    expect(t.updated_ms).toBe(300);
  });
});

describe("T12 schema_version_is_set_and_enforced (fold side)", () => {
  it("v 999 → UnknownVersion with no shard created; v 0 is accepted", () => {
    const t = emptyTableDemand();
    expect(foldEvent(t, { ...ev("s", 5, null, 1, "W"), v: 999 }, 1, 0)).toBe("UnknownVersion");
    expect(Object.keys(t.shards)).toEqual([]);
    expect(foldEvent(t, { ...ev("s", 5, null, 1, "W"), v: 0 }, 1, 0)).toBe("Changed");
    expect(t.shards.s.sealed.value).toBe(5);
  });
});

describe("sealed_times: lower sealed still teaches a time; cap keeps lowest 63 + highest", () => {
  it("a lower sealed value adds its flush time (a change)", () => {
    const t = foldAll([ev("s", 10, null, 1, "W")]);
    expect(foldEvent(t, ev("s", 9, null, 1, "Scan"), 5, 0)).toBe("Changed");
    expect(t.shards.s.sealed_times.toJSON()).toEqual({ "9": 90, "10": 100 });
  });
  it("prunes to 64 entries numerically (not lexically)", () => {
    const t = emptyTableDemand();
    for (let g = 1; g <= 100; g++) foldEvent(t, { ...ev("s", g, null, 1, "W"), flushed_at_ms: g }, g, 0);
    const gens = t.shards.s.sealed_times.generations();
    expect(gens).toHaveLength(64);
    expect(gens.slice(0, 63)).toEqual(Array.from({ length: 63 }, (_, i) => i + 1));
    expect(gens[63]).toBe(100);
  });
  it("prunes numerically for generations past 2^32 that cross a digit count (not array indices)", () => {
    const t = emptyTableDemand();
    const base = 9_999_999_950; // 10 digits → 11 digits at 10,000,000,000
    for (let g = base; g < base + 100; g++)
      foldEvent(t, { ...ev("s", g, null, 1, "W"), flushed_at_ms: g - base }, 1, 0);
    const gens = t.shards.s.sealed_times.generations();
    expect(gens).toHaveLength(64);
    expect(gens[0]).toBe(base);
    expect(gens[62]).toBe(base + 62);
    expect(gens[63]).toBe(base + 99);
    foldEvent(t, ev("s", 1, base + 9, 1, "Ex"), 2, 0);
    expect(deriveShard(t.shards.s)).toEqual({ pending: 90, oldest_pending_ms: 10, bound: "exact" });
  });
  it("oldest pending is exact at merged+1, else the next kept generation as an upper bound", () => {
    const t = emptyTableDemand();
    for (let g = 1; g <= 100; g++) foldEvent(t, { ...ev("s", g, null, 1, "W"), flushed_at_ms: 1000 + g }, g, 0);
    foldEvent(t, ev("s", 10, 62, 1, "Ex"), 200, 0);
    expect(deriveShard(t.shards.s)).toEqual({ pending: 38, oldest_pending_ms: 1063, bound: "exact" });
    foldEvent(t, ev("s", 10, 70, 1, "Ex"), 201, 0);
    // 71..99 were pruned: the next kept generation is 100
    expect(deriveShard(t.shards.s)).toEqual({ pending: 30, oldest_pending_ms: 1100, bound: "upper" });
    const d = deriveTable(t);
    expect(d.oldest_pending_exact_ms).toBeNull();
    expect(d.oldest_pending_wait_floor_ms).toBe(1100);
  });
});

describe("shard ids are data", () => {
  it("a shard named __proto__ is an ordinary shard", () => {
    const t = foldAll([ev("__proto__", 5, null, 1, "W"), ev("constructor", 3, null, 1, "W")]);
    expect(Object.keys(t.shards).sort()).toEqual(["__proto__", "constructor"]);
    expect(deriveTable(t).pending_generations).toBe(8);
  });
});
