// The master's reference scenarios for the demand fold (scheduler-model.md §10 T18, T23)
// run through the fold requests are served by: raw kvs → the fleet read's parsers
// (buildSnapshot, byte fast path included) → DemandIndex.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { deriveTable } from "@/lib/planner/derived";
import { content, ev, eventArb, rebuild } from "@/lib/planner/__fixtures__/demand";
import { joinEvent } from "@/lib/planner/join";
import { hex, stringifyDemandEvent, type DemandEvent } from "@/lib/schema";
import { buildSnapshot, groupByFamily } from "./build";
import { foldSnapshot } from "./demand-index";
import type { SnapshotKv } from "./types";

const P = "/p";
const kv = (key: string, value: string, modRevision: number): SnapshotKv => ({
  key,
  value: Buffer.from(value),
  modRevision,
  lease: "0",
});
const eventKv = (target: string, shard: string, value: DemandEvent | string, rev: number) =>
  kv(`${P}/demand-events/${hex(target)}/${shard}`, typeof value === "string" ? value : JSON.stringify(value), rev);

/** What a request sees of these kvs: the snapshot's skips and the folded tables. */
function production(prefix: string, kvs: SnapshotKv[]) {
  const snapshot = buildSnapshot(prefix, 1, groupByFamily(prefix, kvs));
  return { snapshot, tables: foldSnapshot(snapshot) };
}

describe("T18 fold_events_groups_by_table_and_skips_garbage", () => {
  it("3 skipped, 3 tables, alpha pending 9 with 2 shards, beta 0, gamma empty, alpha revision 2", () => {
    const { snapshot, tables } = production(P, [
      eventKv("alpha", "s1", ev("s1", 10, 4, 1, "W"), 1),
      eventKv("alpha", "s2", ev("s2", 3, null, 1, "W"), 2),
      eventKv("generic:beta", "s1", ev("s1", 7, 7, 1, "W"), 3),
      kv(`${P}/demand-events/zz/s1`, JSON.stringify(ev("s1", 1, null, 1, "W")), 4),
      eventKv("alpha", "s9", "not json", 5),
      eventKv("gamma", "s1", { ...ev("s1", 5, null, 1, "W"), v: 999 }, 6),
    ]);
    // skips in key order: alpha/s9, gamma, zz
    expect(snapshot.skipped.map((s) => [s.reason, s.target ?? null])).toEqual([
      ["bad_json", null],
      ["unknown_version", "gamma"],
      ["bad_key", null],
    ]);
    expect(snapshot.demandEvents.length + snapshot.skipped.length).toBe(6);
    expect([...tables.keys()].sort()).toEqual(["alpha", "gamma", "generic:beta"]);
    const alpha = tables.get("alpha")!;
    expect(deriveTable(alpha).pending_generations).toBe(9);
    expect(Object.keys(alpha.shards)).toHaveLength(2);
    expect(alpha.observed_revision).toBe(2);
    expect(deriveTable(tables.get("generic:beta")!).pending_generations).toBe(0);
    expect(Object.keys(tables.get("gamma")!.shards)).toHaveLength(0);
  });
});

describe("T23 shape in memory (the fold half of reconcile_at_production_scale)", () => {
  it("26,810 events → 13,405 tables, 0 skipped, Σ pending 656,620, 13,136 tables pending", () => {
    const prefix = "/lance-context/master";
    const kvs: SnapshotKv[] = [];
    for (let i = 0; i < 13_405; i++) {
      const target = `exp-${String(i).padStart(5, "0")}`;
      const p = i % 50;
      for (const s of [1, 2]) {
        const shard = `aaaaaaaa-0000-0000-0000-00000000000${s}`;
        const times: Record<string, number> = {};
        for (let g = 1001; g <= 1000 + p; g++) times[g] = 1_700_000_000_000 + g;
        const value = JSON.stringify({
          v: 1,
          shard,
          sealed_through: 1000 + p,
          sealed_bytes_through: 67_108_864,
          merged_through: 1000,
          flushed_at_ms: 1_700_000_000_000,
          writer_epoch: 3,
          source: "scan",
          ...(p > 0 ? { sealed_times: times } : {}),
        });
        kvs.push(kv(`${prefix}/demand-events/${hex(target)}/${shard}`, value, kvs.length + 1));
      }
    }
    const { snapshot, tables } = production(prefix, kvs);
    expect(snapshot.demandEvents).toHaveLength(26_810);
    expect(snapshot.skipped).toEqual([]);
    expect(tables.size).toBe(13_405);
    let sum = 0;
    let withPending = 0;
    for (const t of tables.values()) {
      const p = deriveTable(t).pending_generations;
      sum += p;
      if (p > 0) withPending++;
    }
    expect(sum).toBe(656_620);
    expect(withPending).toBe(13_136);
    // exact age: generation 1001 keeps its own flush time (the scan's own time is only for 1000+p)
    expect(deriveTable(tables.get("exp-00049")!).oldest_pending_exact_ms).toBe(1_700_000_001_001);
  });
});

describe("the production fold of stored events", () => {
  it("equals the in-memory fold of the events publishers joined into those records (§3.5, §3.7)", () => {
    fc.assert(
      fc.property(fc.array(eventArb, { minLength: 1, maxLength: 25 }), (events) => {
        // one stored record per shard, as the read–join–CAS publishers leave it
        const stored = new Map<string, DemandEvent>();
        for (const e of events) {
          const joined = joinEvent(stored.get(e.shard) ?? null, e);
          if (joined !== "unchanged") stored.set(e.shard, joined);
        }
        const kvs = [...stored.values()].map((e, i) =>
          kv(`${P}/demand-events/${hex("t")}/${e.shard}`, stringifyDemandEvent(e), i + 1),
        );
        const { snapshot, tables } = production(P, kvs);
        expect(snapshot.skipped).toEqual([]);
        expect(content(tables.get("t")!)).toEqual(content(rebuild(events)));
      }),
      { numRuns: 300 },
    );
  });
});
