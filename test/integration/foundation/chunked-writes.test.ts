// §10 T20 with real txns (§8.2): ≤ 100 ops and ≤ 768 KiB per txn, an oversized op alone.
import { afterAll, describe, expect, it } from "vitest";
import { writeChunked, type WriteOp } from "@/lib/etcd/writes";
import { chunkOps } from "@/lib/schema/txn-chunks";
import { testPrefix } from "../../support/prefix";
import { suiteClient } from "./helpers";

const client = suiteClient();
afterAll(() => client.close());

/** n puts whose op cost (key + value + 32) is exactly `cost` bytes. */
function puts(P: string, n: number, cost: number): WriteOp[] {
  return Array.from({ length: n }, (_, i) => {
    const key = `${P}/chunk/${String(i).padStart(4, "0")}`;
    return { type: "put" as const, key, value: "v".repeat(cost - key.length - 32) };
  });
}

describe("chunked writes (T20)", () => {
  it("300 ops × 100 B commit as three txns of 100", async () => {
    const P = testPrefix("t20a");
    const ops = puts(P, 300, 100);
    expect(chunkOps(ops).map((c) => c.length)).toEqual([100, 100, 100]);
    const result = await writeChunked(client, ops);
    expect(result).toMatchObject({ txns: 3, ops: 300 });
    const count = await client.getAll().prefix(`${P}/chunk/`).count();
    expect(count).toBe(300);
  });

  it("20 ops × 102,400 B commit as txns of 7, 7 and 6, each within etcd's request cap", async () => {
    const P = testPrefix("t20b");
    const ops = puts(P, 20, 102_400);
    expect(chunkOps(ops).map((c) => c.length)).toEqual([7, 7, 6]);
    const result = await writeChunked(client, ops);
    expect(result.txns).toBe(3);
    expect(await client.getAll().prefix(`${P}/chunk/`).count()).toBe(20);
  });

  it("an op over the byte budget goes alone", () => {
    const ops = [
      { type: "put" as const, key: "a", value: "x".repeat(2 * 786_432) },
      { type: "put" as const, key: "b", value: "x".repeat(10) },
    ];
    expect(chunkOps(ops).map((c) => c.map((op) => op.key))).toEqual([["a"], ["b"]]);
  });

  it("a guarded chunk fails when the guard key no longer matches", async () => {
    const P = testPrefix("guard");
    await client.put(`${P}/leader-token`).value("mine");
    const ok = await writeChunked(client, puts(P, 5, 100), { guard: { key: `${P}/leader-token`, value: "mine" } });
    expect(ok.txns).toBe(1);
    await client.put(`${P}/leader-token`).value("theirs");
    await expect(
      writeChunked(client, puts(P, 5, 100), { guard: { key: `${P}/leader-token`, value: "mine" } }),
    ).rejects.toThrow(/write guard failed/);
  });
});
