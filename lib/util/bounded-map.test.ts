import { describe, expect, it } from "vitest";
import { BoundedMap } from "./bounded-map";

const keysOf = <K, V>(m: BoundedMap<K, V>) => [...m.keys()];

describe("BoundedMap", () => {
  it("least-recently-set: a read keeps the entry's place, a set makes it the newest", () => {
    const m = new BoundedMap<string, number>({ evict: "least-recently-set", maxEntries: 3 });
    m.set("a", 1).set("b", 2).set("c", 3);
    expect(m.get("a")).toBe(1);
    m.set("d", 4); // a is still the oldest
    expect(keysOf(m)).toEqual(["b", "c", "d"]);
    m.set("b", 20); // set again: newest
    m.set("e", 5);
    expect(keysOf(m)).toEqual(["d", "b", "e"]);
    expect(m.get("b")).toBe(20);
    expect(m.has("c")).toBe(false);
  });

  it("least-recently-used: a read makes the entry the newest; peek does not", () => {
    const m = new BoundedMap<string, number>({ evict: "least-recently-used", maxEntries: 3 });
    m.set("a", 1).set("b", 2).set("c", 3);
    expect(m.get("a")).toBe(1);
    expect(m.peek("b")).toBe(2);
    m.set("d", 4); // b was least recently used (peek does not count)
    expect(keysOf(m)).toEqual(["c", "a", "d"]);
    expect(m.get("missing")).toBeUndefined();
    expect(m.size).toBe(3);
  });

  it("an undefined value is an entry like any other", () => {
    const m = new BoundedMap<string, number | undefined>({ evict: "least-recently-used", maxEntries: 2 });
    m.set("a", undefined).set("b", 1);
    expect(m.get("a")).toBeUndefined();
    m.set("c", 2); // a was read last but one: b goes
    expect(keysOf(m)).toEqual(["a", "c"]);
  });

  it("by weight: drops the oldest until the total fits, but always keeps the newest", () => {
    const m = new BoundedMap<string, string>({ evict: "least-recently-used", weigh: (v) => v.length, maxWeight: 10 });
    m.set("a", "xxxx").set("b", "xxxx");
    expect(m.weight).toBe(8);
    m.get("a");
    m.set("c", "xxxx"); // 12 > 10: b (least recently used) goes
    expect(keysOf(m)).toEqual(["a", "c"]);
    expect(m.weight).toBe(8);
    m.set("a", "x"); // replacing a value re-weighs it
    expect(m.weight).toBe(5);
    m.set("big", "x".repeat(25)); // heavier than the budget alone: kept, everything else goes
    expect(keysOf(m)).toEqual(["big"]);
    expect(m.weight).toBe(25);
    expect(m.delete("big")).toBe(true);
    expect(m.delete("big")).toBe(false);
    expect(m.weight).toBe(0);
  });

  it("clear forgets the entries and their weight; iteration runs oldest to newest", () => {
    const m = new BoundedMap<number, string>({ evict: "least-recently-set", maxEntries: 2, weigh: (v) => v.length });
    m.set(1, "a").set(2, "bb").set(3, "ccc");
    expect([...m]).toEqual([
      [2, "bb"],
      [3, "ccc"],
    ]);
    expect([...m.values()]).toEqual(["bb", "ccc"]);
    expect([...m.entries()]).toEqual([...m]);
    expect(m.weight).toBe(5);
    m.clear();
    expect(m.size).toBe(0);
    expect(m.weight).toBe(0);
  });
});
