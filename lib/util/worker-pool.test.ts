import { describe, expect, it } from "vitest";
import { mapPooled } from "./worker-pool";

/** a promise settled from outside */
function later<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

const flush = () => new Promise<void>((r) => setImmediate(r));

describe("mapPooled", () => {
  it("never runs more than `concurrency` at once, starts items in order, answers in item order", async () => {
    const items = Array.from({ length: 10 }, (_, i) => i);
    const pending = items.map(() => later<string>());
    const started: number[] = [];
    let inFlight = 0;
    let most = 0;
    const all = mapPooled(items, 3, async (item, index) => {
      expect(index).toBe(item);
      started.push(item);
      most = Math.max(most, ++inFlight);
      try {
        return await pending[item].promise;
      } finally {
        inFlight--;
      }
    });
    await flush();
    expect(started).toEqual([0, 1, 2]);
    pending[1].resolve("one"); // finishing one starts the next item, not more
    await flush();
    expect(started).toEqual([0, 1, 2, 3]);
    // finish the rest out of order
    for (const i of [3, 0, 2, 5, 4, 9, 8, 7, 6]) {
      pending[i].resolve(i === 1 ? "one" : `#${i}`);
      await flush();
    }
    expect(await all).toEqual(["#0", "one", "#2", "#3", "#4", "#5", "#6", "#7", "#8", "#9"]);
    expect(started).toEqual(items);
    expect(most).toBe(3);
  });

  it("one at a time when asked for 1 (or less), and nothing for no items", async () => {
    let inFlight = 0;
    let most = 0;
    const out = await mapPooled([1, 2, 3], 0, async (n) => {
      most = Math.max(most, ++inFlight);
      await flush();
      inFlight--;
      return n * 2;
    });
    expect(out).toEqual([2, 4, 6]);
    expect(most).toBe(1);
    expect(await mapPooled([], 4, () => Promise.reject(new Error("never called")))).toEqual([]);
  });

  it("the first failure rejects the whole and no item starts after it", async () => {
    const started: number[] = [];
    const refused = new Error("guard failed");
    const pending = [0, 1, 2, 3, 4].map(() => later<number>());
    const all = mapPooled([0, 1, 2, 3, 4], 2, (i) => (started.push(i), pending[i].promise));
    await flush();
    pending[0].reject(refused);
    await expect(all).rejects.toBe(refused);
    pending[1].resolve(1); // the other worker finishes its item and takes no more
    await flush();
    expect(started).toEqual([0, 1]);
  });
});
