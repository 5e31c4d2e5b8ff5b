import { describe, expect, it } from "vitest";
import { LayeredMap, LayeredMapWriter, layeredDifference } from "./layered-map";

/** mulberry32: seeded, so a failing sequence is replayed from its seed */
function rng(seed: number) {
  let a = seed >>> 0;
  return (n: number) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}

const KEYS = Array.from({ length: 24 }, (_, i) => `k${i}`);

/** Everything a reader can see of a map, in iteration order. */
function seen(m: ReadonlyMap<string, object>) {
  const each: [string, object][] = [];
  m.forEach((v, k) => each.push([k, v]));
  return { entries: [...m], keys: [...m.keys()], values: [...m.values()], each, size: m.size };
}

/** The naive difference of two maps: keys whose value (by identity) or presence differs; and same key order. */
function naive(a: ReadonlyMap<string, object>, b: ReadonlyMap<string, object>) {
  const keys = new Set<string>();
  for (const k of new Set([...a.keys(), ...b.keys()])) if (a.get(k) !== b.get(k)) keys.add(k);
  const ka = [...a.keys()];
  const kb = [...b.keys()];
  return { keys: [...keys].sort(), sameOrder: ka.length === kb.length && ka.every((k, i) => k === kb[i]) };
}

describe("LayeredMapWriter / LayeredMap: a Map edited the same way, handed out after every edit", () => {
  it("reads, iterates and sizes exactly as a Map after any sequence of sets and deletes, and earlier hand-outs never change", () => {
    for (let seed = 1; seed <= 300; seed++) {
      const r = rng(seed);
      const initial = new Map<string, object>();
      for (const k of KEYS) if (r(2) === 0) initial.set(k, { k });
      const model = new Map(initial);
      const writer = new LayeredMapWriter<string, object>(initial, seed % 4 === 0 ? () => 2 : undefined);
      const handedOut: { map: ReadonlyMap<string, object>; was: ReturnType<typeof seen> }[] = [];
      for (let step = 0; step < 40; step++) {
        const k = KEYS[r(KEYS.length)];
        if (r(3) === 0) {
          model.delete(k);
          writer.delete(k);
        } else {
          const v = { k, step };
          model.set(k, v);
          writer.set(k, v);
        }
        expect(writer.size, `seed ${seed} step ${step}`).toBe(model.size);
        expect(writer.get(k), `seed ${seed} step ${step}`).toBe(model.get(k));
        if (r(2) === 0) {
          const map = writer.publish();
          expect(writer.publish(), "unchanged: the same hand-out").toBe(map);
          expect(seen(map), `seed ${seed} step ${step}`).toEqual(seen(model));
          for (const key of KEYS) {
            expect(map.get(key), `seed ${seed} step ${step} get ${key}`).toBe(model.get(key));
            expect(map.has(key), `seed ${seed} step ${step} has ${key}`).toBe(model.has(key));
          }
          handedOut.push({ map, was: seen(map) });
        }
      }
      for (const h of handedOut) expect(seen(h.map), `seed ${seed}: a hand-out changed later`).toEqual(h.was);
      expect(initial.size === 0 || [...initial.values()].every((v) => "k" in v)).toBe(true);
    }
  });

  it("puts a deleted key that comes back at the end, as a Map does", () => {
    const writer = new LayeredMapWriter(
      new Map<string, object>([
        ["a", { a: 1 }],
        ["b", { b: 1 }],
        ["c", { c: 1 }],
      ]),
    );
    writer.delete("a");
    writer.set("a", { a: 2 });
    writer.set("b", { b: 2 });
    expect([...writer.publish().keys()]).toEqual(["b", "c", "a"]);
    expect(writer.publish()).toBeInstanceOf(LayeredMap);
  });

  it("hands out the base itself while nothing changed, and a new base after compacting", () => {
    const base = new Map<string, object>([["a", { a: 1 }]]);
    const writer = new LayeredMapWriter(base, () => 1);
    expect(writer.publish()).toBe(base);
    writer.set("b", { b: 1 });
    expect(writer.publish()).toBeInstanceOf(LayeredMap); // one change: within the layer
    writer.set("c", { c: 1 });
    const compacted = writer.publish();
    expect(compacted).not.toBeInstanceOf(LayeredMap); // two: folded into a new base
    expect([...compacted.keys()]).toEqual(["a", "b", "c"]);
    expect([...base.keys()]).toEqual(["a"]);
  });
});

describe("LayeredMapWriter from a hand-out", () => {
  it("continues it as a Map copy would, and two writers continue one hand-out apart", () => {
    const first = new LayeredMapWriter(
      new Map<string, object>([
        ["a", { a: 1 }],
        ["b", { b: 1 }],
      ]),
    );
    first.set("c", { c: 1 });
    first.delete("a");
    const handOut = first.publish();
    const was = [...handOut];
    const x = new LayeredMapWriter(handOut);
    const y = new LayeredMapWriter(handOut);
    x.set("b", { b: "x" });
    y.set("a", { a: "y" });
    const model = (edit: (m: Map<string, object>) => void) => {
      const m = new Map(handOut);
      edit(m);
      return [...m];
    };
    expect([...x.publish()]).toEqual(model((m) => m.set("b", { b: "x" })));
    expect([...y.publish()]).toEqual(model((m) => m.set("a", { a: "y" })));
    expect([...handOut]).toEqual(was);
    expect(layeredDifference(x.publish(), y.publish())!.keys).toEqual(new Set(["b", "a"]));
  });
});

describe("layeredDifference: two hand-outs compared through their layers", () => {
  it("equals the naive walk of both maps, and is null when they share no base", () => {
    let compared = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const r = rng(seed);
      const initial = new Map<string, object>();
      for (const k of KEYS) if (r(2) === 0) initial.set(k, { k });
      const writer = new LayeredMapWriter<string, object>(initial, seed % 5 === 0 ? () => 3 : undefined);
      const maps: ReadonlyMap<string, object>[] = [writer.publish()];
      for (let step = 0; step < 30; step++) {
        const k = KEYS[r(KEYS.length)];
        if (r(3) === 0) writer.delete(k);
        else if (r(4) === 0 && writer.get(k))
          writer.set(k, writer.get(k)!); // the same object again
        else writer.set(k, { k, step });
        if (r(2) === 0) maps.push(writer.publish());
      }
      for (let i = 0; i < maps.length; i++)
        for (let j = i; j < maps.length; j++) {
          const d = layeredDifference(maps[i], maps[j]);
          const base = (m: ReadonlyMap<string, object>) => (m instanceof LayeredMap ? m.base : m);
          if (
            base(maps[i]) !== base(maps[j]) ||
            (!(maps[i] instanceof LayeredMap) && !(maps[j] instanceof LayeredMap))
          ) {
            expect(d).toBeNull();
            continue;
          }
          compared++;
          expect({ keys: [...d!.keys].sort(), sameOrder: d!.sameOrder }, `seed ${seed} maps ${i}, ${j}`).toEqual(
            naive(maps[i], maps[j]),
          );
        }
    }
    expect(compared).toBeGreaterThan(1000);
  });
});
