import { describe, expect, it } from "vitest";
import { SealedTimes, stringifyDemandEvent, type DemandEvent } from "@/lib/schema";
import { executorMergedEvent, joinEvent, joinStoredValue } from "./index";
import { cloneDemandEvent, ev } from "./__fixtures__/demand";

/** Successive publishes to one store (shard → stored record); returns the "changed" booleans. */
function publisher() {
  const store = new Map<string, DemandEvent>();
  return {
    store,
    publish(e: DemandEvent): boolean {
      const joined = joinEvent(store.get(e.shard) ?? null, cloneDemandEvent(e));
      if (joined === "unchanged") return false;
      store.set(e.shard, joined);
      return true;
    },
  };
}

describe("T14 publish_is_a_join_and_never_lowers (as pure join results)", () => {
  it("true,false,true,false,true,false,true,true; other shard true", () => {
    const p = publisher();
    const results = [
      p.publish(ev("s", 10, null, 1, "W")),
      p.publish(ev("s", 10, null, 1, "W")),
      p.publish(ev("s", 9, null, 1, "Scan")), // time only
      p.publish(ev("s", 9, null, 1, "Scan")),
      p.publish(ev("s", 10, 4, 1, "Ex")),
      p.publish(ev("s", 10, 3, 1, "Ex")),
      p.publish(ev("s", 12, null, 1, "W")),
      p.publish(ev("s", 12, null, 2, "W")),
      p.publish(ev("o", 1, null, 1, "W")),
    ];
    expect(results).toEqual([true, false, true, false, true, false, true, true, true]);
    const s = p.store.get("s")!;
    expect(s).toMatchObject({
      sealed_through: 12,
      writer_epoch: 2,
      merged_through: 4,
      merged_epoch: 1,
      source: "writer",
    });
    expect(s.sealed_times!.toJSON()).toEqual({ "9": 90, "10": 100, "12": 120 });
  });
});

describe("T16 merged_publish_advances_only_merged_and_survives_writer_races (as pure join results)", () => {
  const writer = (sealed: number): DemandEvent => ({ ...ev("s", sealed, null, 3, "W") });
  it("merged advances alone; a lower merged is refused; races converge; a new shard starts at epoch 0", () => {
    const p = publisher();
    expect(p.publish(writer(20))).toBe(true);
    expect(p.publish(executorMergedEvent("s", 15, 5000))).toBe(true);
    expect(p.store.get("s")).toMatchObject({
      merged_through: 15,
      sealed_through: 20,
      writer_epoch: 3,
      sealed_bytes_through: 20_000,
    });
    expect(p.publish(executorMergedEvent("s", 12, 6000))).toBe(false);
    // concurrent writer (25) and merged 18, in both interleavings
    for (const order of [
      [writer(25), executorMergedEvent("s", 18, 7000)],
      [executorMergedEvent("s", 18, 7000), writer(25)],
    ]) {
      const q = publisher();
      q.publish(writer(20));
      q.publish(executorMergedEvent("s", 15, 5000));
      expect(order.map((e) => q.publish(e))).toEqual([true, true]);
      expect(q.store.get("s")).toMatchObject({ sealed_through: 25, merged_through: 18 });
    }
    expect(p.publish(executorMergedEvent("n", 7, 8000))).toBe(true);
    expect(p.store.get("n")).toMatchObject({ sealed_through: 7, merged_through: 7, writer_epoch: 0 });
    expect("merged_epoch" in p.store.get("n")!).toBe(false);
  });
});

describe("join against raw stored values", () => {
  it("overwrites invalid JSON, refuses an unknown stored version, forces v 1", () => {
    const e = ev("s", 5, null, 1, "W");
    const fresh = joinStoredValue("not json", e);
    expect(fresh.kind).toBe("put");
    expect(fresh.kind === "put" && JSON.parse(fresh.value).v).toBe(1);
    const refused = joinStoredValue(JSON.stringify({ ...e, v: 7 }), e);
    expect(refused.kind).toBe("error");
    expect(refused.kind === "error" && refused.message).toContain("unsupported version");
    const v0 = joinStoredValue(JSON.stringify({ ...e, v: 0 }), ev("s", 6, null, 1, "W"));
    expect(v0.kind === "put" && v0.record.v).toBe(1);
    expect(fresh.kind === "put" && joinStoredValue(fresh.value, e).kind).toBe("unchanged");
  });
  it("drops merged_epoch equal to writer_epoch on create", () => {
    const joined = joinEvent(null, { ...ev("s", 5, 3, 2, "W"), merged_epoch: 2 });
    expect(joined !== "unchanged" && JSON.parse(stringifyDemandEvent(joined))).not.toHaveProperty("merged_epoch");
  });
  it("equal sealed mark with more bytes wins and moves source/flush time to the event", () => {
    const a = joinEvent(null, { ...ev("s", 5, null, 1, "W"), sealed_bytes_through: 10 });
    const b =
      a !== "unchanged"
        ? joinEvent(a, { ...ev("s", 5, null, 1, "Scan"), sealed_bytes_through: 20, flushed_at_ms: 77 })
        : a;
    expect(b).toMatchObject({
      source: "scan",
      sealed_bytes_through: 20,
      flushed_at_ms: 77,
      sealed_times: SealedTimes.fromRecord({ "5": 50 }),
    });
  });
});
