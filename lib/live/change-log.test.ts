// The change log a pinned read near the live view is put back from: the value a key had at
// R is the value before its first change after R; what the log dropped, or a change whose
// previous value is unknown, makes earlier revisions unknown (null), never wrong.
import { describe, expect, it } from "vitest";
import type { RawKv } from "@/lib/etcd/paged-read";
import { ChangeLog } from "./change-log";

const kv = (key: string, value: string, modRevision: number): RawKv => ({
  key,
  value: Buffer.from(value),
  modRevision,
  lease: "0",
});
const shown = (values: { key: string; value: RawKv | null }[] | null) =>
  values && values.map(({ key, value }) => [key, value ? `${value.value.toString()}@${value.modRevision}` : null]);

describe("ChangeLog", () => {
  it("gives each key changed after R its value at R, in the order of first change", () => {
    const log = new ChangeLog(10);
    log.record(11, "a", kv("a", "a10", 10)); // a: a10 → a11
    log.record(12, "b", null); // b created
    log.record(13, "a", kv("a", "a11", 11)); // a: a11 → a13
    log.record(13, "c", kv("c", "c5", 5)); // same transaction: c deleted
    expect(shown(log.valuesAt(10))).toEqual([
      ["a", "a10@10"],
      ["b", null],
      ["c", "c5@5"],
    ]);
    expect(shown(log.valuesAt(11))).toEqual([
      ["b", null],
      ["a", "a11@11"],
      ["c", "c5@5"],
    ]);
    expect(shown(log.valuesAt(12))).toEqual([
      ["a", "a11@11"],
      ["c", "c5@5"],
    ]);
    expect(log.valuesAt(13)).toEqual([]);
    expect(log.valuesAt(9)).toBeNull(); // before the read
  });

  it("forgets every change it kept: only the newest revision recorded is known after, and later changes are kept again", () => {
    const log = new ChangeLog(10);
    log.record(11, "a", kv("a", "a10", 10));
    log.record(12, "b", null);
    log.forget();
    expect(log.since).toBe(12);
    expect(log.valuesAt(11)).toBeNull();
    expect(log.valuesAt(12)).toEqual([]);
    log.record(13, "a", kv("a", "a11", 11));
    expect(shown(log.valuesAt(12))).toEqual([["a", "a11@11"]]);
    const empty = new ChangeLog(7); // nothing kept: nothing moves
    empty.forget();
    expect(empty.since).toBe(7);
  });

  it("drops its oldest changes past its byte budget; the revisions they leave unknown answer null", () => {
    const log = new ChangeLog(0, 2_000);
    for (let r = 1; r <= 40; r++) log.record(r, `k${r % 3}`, kv(`k${r % 3}`, "x".repeat(50), r - 1));
    expect(log.since).toBeGreaterThan(0);
    expect(log.valuesAt(log.since - 1)).toBeNull();
    const values = log.valuesAt(log.since)!;
    // each key's value at `since` is the value before its first change after it
    expect(values.map((v) => v.key).sort()).toEqual(["k0", "k1", "k2"]);
    for (const { key, value } of values) {
      let first = log.since + 1;
      while (`k${first % 3}` !== key) first++;
      expect(value!.modRevision, key).toBe(first - 1);
    }
  });

  it("a change whose previous value is unknown starts it afresh from that change", () => {
    const log = new ChangeLog(0);
    log.record(1, "a", kv("a", "a0", 0));
    log.record(2, "b", undefined);
    log.record(3, "a", kv("a", "a1", 1));
    expect(log.valuesAt(1)).toBeNull();
    expect(shown(log.valuesAt(2))).toEqual([["a", "a1@1"]]);
  });

  it("keeps each value in a buffer of its own, not a view of the one it was decoded from", () => {
    const log = new ChangeLog(0);
    const response = Buffer.from("..a0..");
    log.record(1, "a", { key: "a", value: response.subarray(2, 4), modRevision: 0, lease: "0" });
    response.write("zz", 2);
    const kept = log.valuesAt(0)![0].value!.value;
    expect(kept.toString()).toBe("a0");
    expect(kept.buffer.byteLength, "a buffer of its own, not a pool slab").toBe(2);
  });

  it("holds nothing of what it dropped, and what it holds costs at most its bound (784 bytes a 300-byte change, measured)", () => {
    const maxBytes = 1_000_000;
    const log = new ChangeLog(0, maxBytes);
    const changes = 20_000;
    const key = (r: number) => `/lance-context/master/demand/orders/table-${String(r).padStart(5, "0")}/s0/ev`;
    for (let r = 1; r <= changes; r++) log.record(r, key(r), kv(key(r), "x".repeat(300), r - 1));
    const slots = (log as unknown as { changes: (object | null)[] }).changes;
    const held = slots.filter((c) => c !== null).length;
    // one change a revision: it can put back the revisions from `since` on, and holds exactly those changes
    expect(held).toBe(changes - log.since);
    expect(held * 784).toBeLessThanOrEqual(maxBytes * 1.05);
    expect(held * 784).toBeGreaterThan(maxBytes * 0.8);
  });
});
