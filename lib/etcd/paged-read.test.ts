import { describe, expect, it } from "vitest";
import { PAGE_BUDGET_BYTES, PAGE_MAX_KEYS, PAGE_START_KEYS, SplitHints } from "./paged-read";

const kvs = (n: number, valueBytes: number) =>
  Array.from({ length: n }, (_, i) => ({ key: `/p/k-${String(i).padStart(6, "0")}`, value: Buffer.alloc(valueBytes) }));

describe("SplitHints", () => {
  it("cuts a large family at its quantile keys, at most 4 parts of 2,048 keys or more", () => {
    const hints = new SplitHints();
    hints.learn("/p/", kvs(40_000, 10));
    expect(hints.get("/p/")?.map((k) => k.toString())).toEqual(["/p/k-010000", "/p/k-020000", "/p/k-030000"]);
    hints.learn("/p/", kvs(10_000, 10));
    expect(hints.get("/p/")?.map((k) => k.toString())).toEqual(["/p/k-002500", "/p/k-005000", "/p/k-007500"]);
    hints.learn("/p/", kvs(6_000, 10));
    expect(hints.get("/p/")?.map((k) => k.toString())).toEqual(["/p/k-003000"]);
    hints.learn("/p/", kvs(4_000, 10));
    expect(hints.get("/p/")).toBeUndefined();
  });

  it("starts the next read at ~90% of the byte budget by the last read's mean record size", () => {
    const hints = new SplitHints();
    const records = kvs(3_000, 789); // 11-byte keys: 800 bytes a record
    hints.learn("/p/", records);
    expect(hints.startLimit("/p/")).toBe(Math.floor((PAGE_BUDGET_BYTES * 0.9) / 800));
  });

  it("keeps the first page within [512, 4096] keys, and forgets it for a family that fits in one first page", () => {
    const hints = new SplitHints();
    hints.learn("/big/", kvs(1_000, 100_000));
    expect(hints.startLimit("/big/")).toBe(PAGE_START_KEYS);
    hints.learn("/tiny/", kvs(1_000, 1));
    expect(hints.startLimit("/tiny/")).toBe(PAGE_MAX_KEYS);
    hints.learn("/tiny/", kvs(PAGE_START_KEYS, 1));
    expect(hints.startLimit("/tiny/")).toBeUndefined();
  });

  it("another thread's reader starts from what one learned: the same cuts and first pages, posted as a copy", () => {
    const learned = new SplitHints();
    learned.learn("/p/", kvs(40_000, 10));
    learned.learn("/q/", kvs(1_000, 800)); // one part, a larger first page
    const data = structuredClone(learned.toData()); // as postMessage / workerData carry it
    const started = new SplitHints(data);
    for (const prefix of ["/p/", "/q/", "/none/"]) {
      expect(started.get(prefix)?.map(String)).toEqual(learned.get(prefix)?.map(String));
      expect(started.startLimit(prefix)).toBe(learned.startLimit(prefix));
    }
    expect(started.get("/q/")).toBeUndefined();
    expect(started.startLimit("/q/")).toBeGreaterThan(PAGE_START_KEYS);
    // the data is a copy: changing it changes neither reader
    learned.toData()[0].cuts[0].fill(0);
    expect(learned.get("/p/")?.[0].toString()).toBe("/p/k-010000");
    expect(new SplitHints().toData()).toEqual([]);
  });
});
