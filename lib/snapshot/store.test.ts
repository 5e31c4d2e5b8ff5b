// LiveStore + DemandIndex: a watch batch re-parses only its keys, the snapshot stays sorted
// and immutable per revision, and only touched tables are re-folded.
import { describe, expect, it } from "vitest";
import { buildSnapshot } from "@/lib/snapshot/build";
import type { FamilyName, SnapshotKv } from "@/lib/snapshot/types";
import { hex } from "@/lib/schema/keys";
import { deriveTable } from "@/lib/planner/derived";
import { DemandIndex, eventsOfTarget, foldSnapshot } from "@/lib/snapshot/demand-index";
import { keyedListOf } from "@/lib/snapshot/patched-list";
import { uuidv7 } from "@/lib/schema/task-id";
import { LiveStore } from "./store";

const P = "/p";
let rev = 0;
const kv = (key: string, value: unknown): SnapshotKv => ({
  key,
  value: Buffer.from(typeof value === "string" ? value : JSON.stringify(value)),
  modRevision: ++rev,
  lease: "0",
});
const ev = (target: string, shard: string, sealed: number, merged: number | null = null) =>
  kv(`${P}/demand-events/${hex(target)}/${shard}`, {
    shard,
    sealed_through: sealed,
    merged_through: merged,
    flushed_at_ms: sealed * 10,
    writer_epoch: 1,
    source: "writer",
  });
const hb = (id: string) => kv(`${P}/executors/${id}`, { v: 1, kind: "worker", instance: id, heartbeat_ms: 1 });

function start() {
  const events = [ev("alpha", "s1", 10, 4), ev("alpha", "s2", 3), ev("beta", "s1", 7, 7)];
  const snapshot = buildSnapshot(
    P,
    rev,
    new Map<FamilyName, SnapshotKv[]>([
      ["demand-events", events],
      ["executors", [hb("e1"), hb("e3")]],
    ]),
  );
  return { store: new LiveStore(snapshot), demand: new DemandIndex(foldSnapshot(snapshot)), snapshot, events };
}

describe("LiveStore", () => {
  it("applies puts, updates and deletes at the batch revision, keeping key order", () => {
    const { store, snapshot } = start();
    const put = hb("e2");
    const res = store.apply({
      revision: 100,
      changes: [
        { type: "put", kv: put },
        { type: "delete", kv: { ...hb("e3"), value: Buffer.alloc(0) } },
      ],
    });
    expect(res.changedKeys).toBe(2);
    const next = store.snapshot();
    expect(next.revision).toBe(100);
    expect(next.executors.map((e) => e.id)).toEqual(["e1", "e2"]);
    expect(snapshot.executors.map((e) => e.id)).toEqual(["e1", "e3"]); // the old snapshot is untouched
    expect(store.snapshot()).toBe(next);
  });

  it("updates every existing key in place, wherever it sits", () => {
    // etcd's UTF-8 byte order puts "e\uFFFD" before "e\u{1F600}"; string order the other way
    const ids = ["a", "e\uFFFD", "e\u{1F600}", "m", "z"];
    const snapshot = buildSnapshot(P, rev, new Map<FamilyName, SnapshotKv[]>([["executors", ids.map(hb)]]));
    const store = new LiveStore(snapshot);
    for (const id of ids) {
      const next = kv(`${P}/executors/${id}`, { v: 1, kind: "worker", instance: `${id}-2`, heartbeat_ms: 2 });
      store.apply({ revision: rev, changes: [{ type: "put", kv: next }] });
      const s = store.snapshot();
      expect(s.executors.map((e) => e.id)).toEqual(snapshot.executors.map((e) => e.id));
      expect(s.executors.find((e) => e.id === id)!.heartbeat.instance).toBe(`${id}-2`);
    }
    expect(store.snapshot().executors.every((e) => e.heartbeat.instance.endsWith("-2"))).toBe(true);
  });

  it("an update of an existing key replaces it in place; a bad value becomes a skip", () => {
    const { store } = start();
    store.apply({ revision: 101, changes: [{ type: "put", kv: ev("alpha", "s2", 9) }] });
    const s = store.snapshot();
    expect(s.demandEvents.map((e) => [e.target, e.shard, e.event.sealed_through])).toEqual([
      ["alpha", "s1", 10],
      ["alpha", "s2", 9],
      ["beta", "s1", 7],
    ]);
    store.apply({
      revision: 102,
      changes: [{ type: "put", kv: kv(`${P}/demand-events/${hex("beta")}/s1`, "not json") }],
    });
    const t = store.snapshot();
    expect(t.demandEvents.map((e) => e.target)).toEqual(["alpha", "alpha"]);
    expect(t.skipped.map((x) => x.reason)).toEqual(["bad_json"]);
  });
});

describe("DemandIndex", () => {
  it("re-folds only the touched table and equals a fresh fold", () => {
    const { demand, store } = start();
    expect(deriveTable(demand.tables(store.snapshot()).get("alpha")!).pending_generations).toBe(9);
    const betaBefore = demand.tables(store.snapshot()).get("beta");
    const change = ev("alpha", "s2", 8);
    const applied = store.apply({ revision: 103, changes: [{ type: "put", kv: change }] });
    expect([...applied.changedTargets]).toEqual(["alpha"]);
    for (const target of applied.changedTargets) demand.touch(target);
    const before = demand.refolds;
    const tables = demand.tables(store.snapshot());
    expect(demand.refolds - before).toBe(1);
    expect(deriveTable(tables.get("alpha")!).pending_generations).toBe(14);
    const fresh = foldSnapshot(store.snapshot());
    expect(deriveTable(fresh.get("alpha")!).pending_generations).toBe(14);
    expect(tables.get("beta")).toBe(betaBefore); // untouched table: same folded object
  });

  it("a table whose only event has an unknown version exists with zero shards (§3.6)", () => {
    const odd = kv(`${P}/demand-events/${hex("gamma")}/s1`, {
      v: 999,
      shard: "s1",
      sealed_through: 1,
      flushed_at_ms: 0,
      writer_epoch: 1,
      source: "scan",
    });
    const snapshot = buildSnapshot(P, rev, new Map<FamilyName, SnapshotKv[]>([["demand-events", [odd]]]));
    const tables = foldSnapshot(snapshot);
    expect([...tables.keys()]).toEqual(["gamma"]);
    expect(Object.keys(tables.get("gamma")!.shards)).toEqual([]);
  });
});

describe("LiveStore windows", () => {
  it("drops tasks/ records that left the 24 h window, as a full read from that moment would not hold them", () => {
    const task = (ms: number, n: number) => {
      const id = uuidv7(ms, n);
      return kv(`${P}/tasks/${id}`, { id, kind: "merge_wal", target: "alpha", state: "done", enqueued_at: ms });
    };
    const day = 86_400_000;
    const [old, edge, fresh] = [task(1_000, 1), task(day, 2), task(2 * day, 3)];
    const snapshot = buildSnapshot(P, rev, new Map<FamilyName, SnapshotKv[]>([["tasks", [old, edge]]]));
    const store = new LiveStore(snapshot);
    store.apply({ revision: rev + 1, changes: [{ type: "put", kv: fresh }] });
    const before = store.snapshot();
    expect(before.tasks.map((t) => t.key)).toEqual([old.key, edge.key, fresh.key]);
    const version = store.contentVersion;
    expect(store.trimWindows(day)).toBe(1);
    const after = store.snapshot();
    expect(after.tasks.map((t) => t.key)).toEqual([edge.key, fresh.key]);
    expect(store.contentVersion).toBe(version + 1);
    expect(before.tasks).toHaveLength(3); // the snapshot handed out before is untouched
    expect(store.trimWindows(day)).toBe(0);
    expect(store.snapshot()).toBe(after);
  });
});

describe("LiveStore lists handed out patched (./patched-list.ts)", () => {
  it("every snapshot's lists equal the whole lists of their moment, read early or late; look-ups need not make them", () => {
    let seed = 20_261_206;
    const random = (n: number) => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31), seed % n);
    const targets = Array.from({ length: 40 }, (_, i) => `t${String(i).padStart(2, "0")}`);
    const model = new Map<string, number>(); // key → sealed_through, the events that parse
    const initial = targets.flatMap((t) => ["s1", "s2"].map((s) => ev(t, s, 1)));
    for (const e of initial) model.set(e.key, 1);
    const store = new LiveStore(buildSnapshot(P, rev, new Map<FamilyName, SnapshotKv[]>([["demand-events", initial]])));
    const expected = () => [...model].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const handedOut: { snapshot: ReturnType<typeof store.snapshot>; was: [string, number][] }[] = [];
    let patchedSeen = 0;
    for (let step = 0; step < 600; step++) {
      const changes = [];
      const kind = random(20);
      const t = targets[random(targets.length)];
      const shard = random(2) === 0 ? "s1" : "s2";
      const key = `${P}/demand-events/${hex(t)}/${shard}`;
      if (kind === 0) {
        changes.push({ type: "delete" as const, kv: { ...ev(t, shard, 0), value: Buffer.alloc(0) } });
        model.delete(key);
      } else if (kind === 1) {
        changes.push({ type: "put" as const, kv: kv(key, "not json") });
        model.delete(key);
      } else if (kind === 2) {
        changes.push({ type: "put" as const, kv: hb(`e${step}`) }); // another family: the list stays the same
      } else {
        for (let k = 0; k < 1 + random(3); k++) {
          const tk = targets[random(targets.length)];
          const sealed = 2 + random(1000);
          const e = ev(tk, random(2) === 0 ? "s1" : "s2", sealed);
          changes.push({ type: "put" as const, kv: e });
          model.set(e.key, sealed);
        }
      }
      const before = store.snapshot();
      store.apply({ revision: ++rev, changes });
      const snapshot = store.snapshot();
      const pending = keyedListOf(snapshot, "demandEvents");
      if (!Array.isArray(pending)) patchedSeen += 1;
      // a look-up by key reads the patched list as the whole list reads
      const target = targets[random(targets.length)];
      const looked = eventsOfTarget(snapshot, target).map((e) => [e.key, e.event.sealed_through]);
      if (kind === 2) expect(snapshot.demandEvents).toBe(before.demandEvents); // unchanged: the same list
      handedOut.push({ snapshot, was: expected() });
      // read some now, the rest after later batches
      if (random(3) === 0)
        expect(snapshot.demandEvents.map((e) => [e.key, e.event.sealed_through])).toEqual(expected());
      expect(looked).toEqual(expected().filter(([k]) => k.startsWith(`${P}/demand-events/${hex(target)}/`)));
    }
    expect(patchedSeen).toBeGreaterThan(300);
    for (const { snapshot, was } of handedOut)
      expect(snapshot.demandEvents.map((e) => [e.key, e.event.sealed_through])).toEqual(was);
  });
});

describe("LiveStore against a read of the same keys", () => {
  const demandKey = (target: string) => `${P}/demand/${hex(target)}`;

  it("lists skipped keys in a read's order (family as registered, then key), so /skipped and `by_reason` are the same live or pinned", () => {
    const bad = [kv(demandKey("b"), "{"), kv(`${P}/demand-events/${hex("a")}/s1`, "not json"), kv(demandKey("a"), "[")];
    const { store } = start();
    store.apply({ revision: rev, changes: bad.map((k) => ({ type: "put" as const, kv: k })) });
    const read = buildSnapshot(
      P,
      rev,
      new Map<FamilyName, SnapshotKv[]>([
        ["demand-events", [...start().snapshot.demandEvents.map((e) => ev(e.target, e.shard, 1)), bad[1]]],
        ["demand", [bad[2], bad[0]]],
      ]),
    );
    expect(read.skipped.map((s) => s.key)).toHaveLength(3);
    expect(store.snapshot().skipped.map((s) => [s.family, s.key])).toEqual(read.skipped.map((s) => [s.family, s.key]));
  });

  it("rewindTo puts every changed key back to its earlier value and takes the earlier revision", () => {
    const { store, snapshot, events } = start();
    const before = events[0]; // alpha/s1
    const alphaS1 = ev("alpha", "s1", 99, 4);
    const gamma = ev("gamma", "s1", 5);
    store.apply({
      revision: rev,
      changes: [
        { type: "put", kv: alphaS1 },
        { type: "put", kv: gamma },
        { type: "delete", kv: { ...hb("e1"), value: Buffer.alloc(0) } },
        { type: "put", kv: kv(demandKey("zz"), "{") },
      ],
    });
    const earlier = new LiveStore(store.snapshot(), 12345);
    earlier.rewindTo(snapshot.revision, [
      { type: "put", kv: before },
      { type: "delete", kv: { key: gamma.key, value: Buffer.alloc(0), modRevision: 0, lease: "0" } },
      { type: "put", kv: { ...hb("e1"), modRevision: snapshot.executors[0].modRevision } },
      { type: "delete", kv: { key: demandKey("zz"), value: Buffer.alloc(0), modRevision: 0, lease: "0" } },
    ]);
    const back = earlier.snapshot();
    expect(back.revision).toBe(snapshot.revision);
    expect(back.readAtMs).toBe(12345);
    const { readAtMs: _a, stats: _s, ...want } = snapshot;
    const { readAtMs: _b, stats: _t, ...got } = back;
    expect(got).toEqual(want);
    expect(store.snapshot().demandEvents.map((e) => e.target)).toContain("gamma"); // the live store is untouched
  });
});
