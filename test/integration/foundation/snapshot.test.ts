// §10 T18 end to end (keys in etcd → readFleet → fold) and bad input: every unparsable
// key is skipped and counted while the snapshot completes (console-api.md "Conventions").
import { afterAll, describe, expect, it } from "vitest";
import { deriveTable } from "@/lib/planner/derived";
import { FutureRevision } from "@/lib/etcd/errors";
import { keys } from "@/lib/schema/keys";
import { testPrefix } from "../../support/prefix";
import { foldRead, readerFor, suiteClient } from "./helpers";

const client = suiteClient();
afterAll(() => client.close());

const event = (shard: string, sealed: number, merged: number | null, extra: object = {}) =>
  JSON.stringify({
    shard,
    sealed_through: sealed,
    merged_through: merged,
    flushed_at_ms: 1000,
    writer_epoch: 1,
    source: "writer",
    ...extra,
  });

describe("readFleet", () => {
  it("T18 fold_events_groups_by_table_and_skips_garbage", async () => {
    const P = testPrefix("t18");
    const put = (key: string, value: string) => client.put(key).value(value);
    await put(keys.demandEvent(P, "alpha", "s1"), event("s1", 10, 4));
    await put(keys.demandEvent(P, "alpha", "s2"), event("s2", 3, null));
    await put(keys.demandEvent(P, "generic:beta", "s1"), event("s1", 7, 7));
    await put(`${P}/demand-events/zz/s1`, event("s1", 1, null));
    await put(keys.demandEvent(P, "alpha", "s9"), "not json");
    await put(keys.demandEvent(P, "gamma", "s1"), event("s1", 5, null, { v: 999 }));

    const read = await readerFor(client, P).readFleetWithKvs();
    const snap = read.snapshot;
    expect(snap.demandEvents.map((e) => `${e.target}/${e.shard}`)).toEqual(["alpha/s1", "alpha/s2", "generic:beta/s1"]);
    expect(snap.skipped.map((s) => [s.family, s.reason, s.target ?? null])).toEqual([
      ["demand-events", "bad_json", null],
      ["demand-events", "unknown_version", "gamma"],
      ["demand-events", "bad_key", null],
    ]);

    const folded = foldRead(read);
    expect(folded.skipped).toHaveLength(3);
    expect([...folded.tables.keys()].sort()).toEqual(["alpha", "gamma", "generic:beta"]);
    const alpha = folded.tables.get("alpha")!;
    expect(Object.keys(alpha.shards)).toHaveLength(2);
    expect(deriveTable(alpha).pending_generations).toBe(9);
    expect(deriveTable(folded.tables.get("generic:beta")!).pending_generations).toBe(0);
    expect(Object.keys(folded.tables.get("gamma")!.shards)).toHaveLength(0);
    // alpha's events were written at the 1st and 2nd revisions of this test
    const alphaRevisions = snap.demandEvents.filter((e) => e.target === "alpha").map((e) => e.modRevision);
    expect(alpha.observed_revision).toBe(Math.max(...alphaRevisions));
  });

  it("skips malformed JSON, wrong types, unknown v, bad hex and a value over 1 MiB, and completes", async () => {
    const P = testPrefix("bad-input");
    const put = (key: string, value: string) => client.put(key).value(value);
    await put(keys.demandEvent(P, "good", "s1"), event("s1", 10, 2));
    await put(keys.demandEvent(P, "malformed", "s1"), '{"shard": ');
    await put(keys.demandEvent(P, "wrong-types", "s1"), event("s1", 10, null, { sealed_through: "ten" }));
    await put(keys.demandEvent(P, "future", "s1"), event("s1", 10, null, { v: 3 }));
    await put(`${P}/demand-events/6g6f/s1`, event("s1", 1, null));
    await put(keys.demandEvent(P, "huge", "s1"), event("s1", 10, null, { padding: "x".repeat(1_100_000) }));
    await put(keys.executor(P, "e1"), JSON.stringify({ v: 1, kind: "worker", instance: "e1", heartbeat_ms: 5 }));
    await put(keys.executor(P, "e0"), JSON.stringify({ v: 0, kind: "worker", instance: "e0", heartbeat_ms: 5 }));
    await put(keys.leader(P), JSON.stringify({ v: 1, token: "tok", instance: "e1", since_ms: 1 }));
    await put(keys.leaderToken(P), "tok");
    await put(`${P}/target-locks/${"zz"}`, "token");
    await put(
      `${P}/queue/task-1`,
      JSON.stringify({ id: "task-1", kind: "merge_wal", target: "good", state: "queued" }),
    );

    const snap = await readerFor(client, P).readFleet();
    expect(snap.demandEvents.map((e) => e.target)).toEqual(["good"]);
    expect(snap.executors.map((e) => e.id)).toEqual(["e1"]);
    expect(snap.leader?.record.token).toBe("tok");
    expect(snap.leaderToken).toBe("tok");
    const reasons = Object.fromEntries(snap.skipped.map((s) => [s.key.slice(P.length + 1), s.reason]));
    expect(reasons).toEqual({
      [`demand-events/${"6g6f"}/s1`]: "bad_key",
      [keys.demandEvent("", "malformed", "s1").slice(1)]: "bad_json",
      [keys.demandEvent("", "wrong-types", "s1").slice(1)]: "schema",
      [keys.demandEvent("", "future", "s1").slice(1)]: "unknown_version",
      [keys.demandEvent("", "huge", "s1").slice(1)]: "too_large",
      "executors/e0": "unknown_version",
      "queue/task-1": "schema",
      "target-locks/zz": "bad_key",
    });
    expect(snap.skipped).toHaveLength(8);
  });

  it("shares one read between concurrent callers and does not re-read an unchanged revision", async () => {
    const P = testPrefix("singleflight");
    await client.put(keys.demandEvent(P, "t", "s")).value(event("s", 3, 1));
    const reader = readerFor(client, P);
    const [a, b, c] = await Promise.all([reader.readFleet(), reader.readFleet(), reader.readFleet()]);
    expect(b).toBe(a);
    expect(c).toBe(a);
    const again = await reader.readFleet();
    expect(again).toBe(a);
    const pinned = await reader.readFleet({ revision: a.revision });
    expect(pinned).toBe(a);
    await client.put(keys.demandEvent(P, "t", "s")).value(event("s", 4, 1));
    const next = await reader.readFleet();
    expect(next.revision).toBeGreaterThan(a.revision);
    expect(next.demandEvents[0].event.sealed_through).toBe(4);
    // time travel to the first revision still sees the old value
    reader.clearCache();
    const old = await reader.readFleet({ revision: a.revision });
    expect(old.demandEvents[0].event.sealed_through).toBe(3);
  });

  it("a revision the store has not reached fails with FutureRevision", async () => {
    const P = testPrefix("future");
    const current = (await readerFor(client, P).readFleet()).revision;
    const error = await readerFor(client, P)
      .readFleet({ revision: current + 1_000 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FutureRevision);
    expect((error as FutureRevision).revision).toBe(current + 1_000);
  });
});
