// §10 T14 and T16 against a real etcd: the publish-side join with compare-and-swap (§3.5).
import { afterAll, describe, expect, it } from "vitest";
import { getStored } from "@/lib/etcd/cas";
import { executorMergedEvent } from "@/lib/planner/join";
import { parseDemandEvent, type DemandEvent } from "@/lib/schema/demand";
import { keys } from "@/lib/schema/keys";
import { publishDemandEvent } from "@/lib/sim/publish";
import { testPrefix } from "../../support/prefix";
import { suiteClient } from "./helpers";

const client = suiteClient();
afterAll(() => client.close());

/** §10 helper ev(shard, sealed, merged?, epoch, source): bytes sealed×1000, flushed sealed×10. */
function ev(
  shard: string,
  sealed: number,
  merged: number | null,
  epoch: number,
  source: DemandEvent["source"],
): DemandEvent {
  return {
    v: 1,
    shard,
    sealed_through: sealed,
    sealed_bytes_through: sealed * 1000,
    merged_through: merged,
    flushed_at_ms: sealed * 10,
    writer_epoch: epoch,
    source,
  };
}

async function stored(prefix: string, target: string, shard: string): Promise<DemandEvent> {
  const value = await getStored(client, keys.demandEvent(prefix, target, shard));
  const parsed = parseDemandEvent(value!.value);
  if (!parsed.ok) throw new Error(parsed.detail);
  return parsed.value;
}

describe("publish is a read–join–CAS (§3.5)", () => {
  it("T14 publish_is_a_join_and_never_lowers", async () => {
    const P = testPrefix("t14");
    const pub = (e: DemandEvent) => publishDemandEvent(client, P, "t", e);
    const results = [
      await pub(ev("s", 10, null, 1, "writer")),
      await pub(ev("s", 10, null, 1, "writer")),
      await pub(ev("s", 9, null, 1, "scan")),
      await pub(ev("s", 9, null, 1, "scan")),
      await pub(ev("s", 10, 4, 1, "executor")),
      await pub(ev("s", 10, 3, 1, "executor")),
      await pub(ev("s", 12, null, 1, "writer")),
      await pub(ev("s", 12, null, 2, "writer")),
      await pub(ev("other", 1, null, 1, "writer")),
    ];
    expect(results).toEqual([true, false, true, false, true, false, true, true, true]);
    const s = await stored(P, "t", "s");
    expect(s.sealed_through).toBe(12);
    expect(s.writer_epoch).toBe(2);
    expect(s.merged_through).toBe(4);
    expect(s.sealed_times!.toJSON()).toEqual({ "9": 90, "10": 100, "12": 120 });
  });

  it("T16 merged_publish_advances_only_merged_and_survives_writer_races", async () => {
    const P = testPrefix("t16");
    const pub = (e: DemandEvent) => publishDemandEvent(client, P, "t", e);
    expect(await pub(ev("s", 20, null, 3, "writer"))).toBe(true);
    expect(await pub(executorMergedEvent("s", 15, 5_000))).toBe(true);
    let s = await stored(P, "t", "s");
    expect([s.sealed_through, s.merged_through, s.writer_epoch, s.sealed_bytes_through]).toEqual([20, 15, 3, 20_000]);

    expect(await pub(executorMergedEvent("s", 12, 6_000))).toBe(false);

    const [writer, merged] = await Promise.all([
      pub(ev("s", 25, null, 3, "writer")),
      pub(executorMergedEvent("s", 18, 7_000)),
    ]);
    expect([writer, merged]).toEqual([true, true]);
    s = await stored(P, "t", "s");
    expect([s.sealed_through, s.merged_through]).toEqual([25, 18]);

    expect(await pub(executorMergedEvent("fresh", 7, 8_000))).toBe(true);
    const fresh = await stored(P, "t", "fresh");
    expect([fresh.sealed_through, fresh.merged_through, fresh.writer_epoch]).toEqual([7, 7, 0]);
  });

  it("refuses to overwrite a stored record of unknown version", async () => {
    const P = testPrefix("unknown-v");
    await client
      .put(keys.demandEvent(P, "t", "s"))
      .value(
        JSON.stringify({ v: 7, shard: "s", sealed_through: 1, flushed_at_ms: 0, writer_epoch: 1, source: "scan" }),
      );
    await expect(publishDemandEvent(client, P, "t", ev("s", 10, null, 1, "writer"))).rejects.toThrow(
      /unsupported version/,
    );
  });
});
