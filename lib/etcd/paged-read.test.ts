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
});
