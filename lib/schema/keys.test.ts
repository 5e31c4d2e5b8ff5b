import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  hex,
  keys,
  kindFromLabel,
  kindLabel,
  splitDemandEventKey,
  splitFailureKey,
  splitKindKey,
  unhex,
} from "./index";
import {
  auditIdOf,
  auditTimeKey,
  clockKey,
  clockPrefix,
  clockPrefixEnd,
  compactProbeKey,
  historyKey,
  historyPrefix,
  journalChunkKey,
  journalPrefix,
  KEY_DIRS,
  keyDirOf,
  keySuffix,
  parseChunkKey,
  policyKeys,
  revisionProbeKey,
  splitPolicyKey,
  trimmedKey,
  unhexTarget,
  type ChunkKind,
} from "./keys";

describe("hex / unhex (T19 hex_round_trips_and_rejects_odd_input)", () => {
  it.each(["alpha", "generic:beta", "", "ünïcödé"])("round-trips %j", (s) => {
    expect(unhex(hex(s))).toBe(s);
  });
  it("encodes lowercase UTF-8 bytes", () => {
    expect(hex("alpha")).toBe("616c706861");
    expect(hex("ü")).toBe("c3bc");
    expect(hex("generic:beta")).toBe("67656e657269633a62657461");
  });
  it("rejects odd length, non-hex digits and invalid UTF-8", () => {
    expect(unhex("abc")).toBeNull();
    expect(unhex("zz")).toBeNull();
    expect(unhex("6g")).toBeNull();
    expect(unhex("ff")).toBeNull(); // not UTF-8
    expect(unhex("c3")).toBeNull(); // truncated sequence
  });
  it("round-trips any string without lone surrogates", () => {
    fc.assert(fc.property(fc.string({ unit: "grapheme" }), (s) => unhex(hex(s)) === s));
  });
});

describe("key splits", () => {
  it("splits demand-event keys at the FIRST slash; the shard is raw", () => {
    expect(splitDemandEventKey(`${hex("alpha")}/s1`)).toEqual({ target: "alpha", shard: "s1" });
    expect(splitDemandEventKey(`${hex("a/b")}/x/y`)).toEqual({ target: "a/b", shard: "x/y" });
    expect(splitDemandEventKey("zz/s1")).toBeNull();
    expect(splitDemandEventKey(hex("alpha"))).toBeNull();
  });
  it("maps legacy kind labels exactly", () => {
    expect(kindLabel("merge_wal")).toBe("merge-wal");
    expect(kindLabel("index_id")).toBe("index-id");
    expect(kindFromLabel("compact")).toBe("compact");
    expect(kindFromLabel("repair")).toBe("repair");
    expect(kindFromLabel("merge_wal")).toBeNull();
    expect(kindFromLabel("toString")).toBeNull();
    expect(splitKindKey(`merge-wal/${hex("t")}`)).toEqual({ kind: "merge_wal", target: "t" });
    expect(splitKindKey(`index-id/${hex("generic:x")}`)).toEqual({ kind: "index_id", target: "generic:x" });
    expect(splitKindKey(`merge/${hex("t")}`)).toBeNull();
    expect(splitKindKey(`compact/abc`)).toBeNull();
  });
  it("splits failure keys into target and endpoint", () => {
    expect(splitFailureKey(`${hex("t")}/${hex("master:compact")}`)).toEqual({
      target: "t",
      endpoint: "master:compact",
    });
    expect(splitFailureKey(`${hex("t")}/zz`)).toBeNull();
  });
  it("builds keys under the prefix", () => {
    expect(keys.demandEvent("/p", "alpha", "s1")).toBe("/p/demand-events/616c706861/s1");
    expect(keys.cooldown("/p", "index_id", "alpha")).toBe("/p/cooldown/index-id/616c706861");
    expect(keys.assignment("/p", "alpha", "u1")).toBe("/p/assignments/616c706861/u1");
  });
});

const P = "/lc/master";

describe("family directories", () => {
  it("finds the directory of every key a builder makes, and the suffix after it", () => {
    const cases: [string, string, string][] = [
      [keys.demandEvent(P, "a/b", "s1"), KEY_DIRS.demandEvents, `${hex("a/b")}/s1`],
      [keys.demandTable(P, "alpha"), KEY_DIRS.demand, hex("alpha")],
      [keys.executor(P, "w1"), KEY_DIRS.executors, "w1"],
      [keys.assignment(P, "alpha", "u1"), KEY_DIRS.assignments, `${hex("alpha")}/u1`],
      [keys.cooldown(P, "compact", "alpha"), KEY_DIRS.cooldown, `compact/${hex("alpha")}`],
      [keys.mergeFailure(P, "alpha", "e"), KEY_DIRS.mergeFailures, `${hex("alpha")}/${hex("e")}`],
      [keys.targetLock(P, "alpha"), KEY_DIRS.targetLocks, hex("alpha")],
      [keys.mergeExecution(P, "alpha"), KEY_DIRS.mergeExecutions, hex("alpha")],
      [keys.mergeProgress(P, "x1"), KEY_DIRS.mergeProgress, "x1"],
      [keys.mergeWork(P, "x1"), KEY_DIRS.mergeWork, "x1"],
      [keys.task(P, "t1"), KEY_DIRS.tasks, "t1"],
      [keys.queued(P, "t1"), KEY_DIRS.queue, "t1"],
      [keys.running(P, "t1"), KEY_DIRS.running, "t1"],
      [keys.claim(P, "t1"), KEY_DIRS.claims, "t1"],
      [keys.mergeClaim(P, "alpha"), KEY_DIRS.mergeClaims, hex("alpha")],
      [keys.catchupActive(P, "alpha"), KEY_DIRS.catchupActive, hex("alpha")],
      [keys.compactPreparation(P, "alpha"), KEY_DIRS.compactPreparations, hex("alpha")],
      [keys.compactCommitReady(P, "alpha"), KEY_DIRS.compactCommitReady, hex("alpha")],
      [policyKeys.policy(P, "alpha"), KEY_DIRS.policies, hex("alpha")],
      [policyKeys.policy(P, "_default"), KEY_DIRS.policies, "_default"],
      [keys.leader(P), KEY_DIRS.leader, ""],
      [keys.leaderToken(P), KEY_DIRS.leader, "-token"],
    ];
    for (const [key, dir, suffix] of cases) {
      expect(keyDirOf(P, key)).toBe(dir);
      expect(keySuffix(P, dir, key)).toBe(suffix);
      expect(key.startsWith(keys.dir(P, dir as never))).toBe(true);
    }
  });
  it("names no directory for keys outside the prefix or without one", () => {
    expect(keyDirOf(P, "/lc/masterx/tasks/t1")).toBeNull();
    expect(keyDirOf(P, "/other/tasks/t1")).toBeNull();
    expect(keyDirOf(P, `${P}/tasks`)).toBeNull();
    expect(keyDirOf(P, `${P}//x`)).toBeNull();
    expect(keyDirOf(P, `${P}/leader-x`)).toBeNull();
  });
  it("builds a table's own prefixes", () => {
    expect(keys.demandEventsOf(P, "alpha")).toBe("/lc/master/demand-events/616c706861/");
    expect(keys.assignmentsOf(P, "alpha")).toBe("/lc/master/assignments/616c706861/");
    expect(keys.mergeFailuresOf(P, "alpha")).toBe("/lc/master/merge-failures/616c706861/");
    expect(keys.demandEvent(P, "alpha", "s1").startsWith(keys.demandEventsOf(P, "alpha"))).toBe(true);
  });
});

describe("policy keys", () => {
  it("round-trips a table's key and the default", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", minLength: 1 }), (target) => {
        const split = splitPolicyKey(keySuffix(P, KEY_DIRS.policies, policyKeys.policy(P, target)));
        return target === "_default" ? split?.target === null : split?.target === target;
      }),
    );
    expect(policyKeys.policy(P, "_default")).toBe("/lc/master/policies/_default");
    expect(policyKeys.tablePolicy(P, "_default")).toBe(`/lc/master/policies/${hex("_default")}`);
    expect(splitPolicyKey(hex("_default"))).toEqual({ target: "_default" });
  });
  it("rejects empty, slashed and undecodable suffixes", () => {
    expect(splitPolicyKey("")).toBeNull();
    expect(splitPolicyKey(`${hex("a")}/x`)).toBeNull();
    expect(splitPolicyKey("zz")).toBeNull();
    expect(unhexTarget("")).toBeNull();
  });
  it("keys the audit log by zero-padded write time", () => {
    expect(policyKeys.auditEntry(P, `${auditTimeKey(1_764_000_000_000.7)}-ab`)).toBe(
      "/lc/master/console/audit/001764000000000-ab",
    );
    expect(auditTimeKey(-5)).toBe("000000000000000");
    expect(auditTimeKey(9) < auditTimeKey(10)).toBe(true);
  });
  it("round-trips an audit id through its key", () => {
    fc.assert(
      fc.property(fc.nat(), fc.stringMatching(/^[0-9a-f]{1,16}$/), (ms, random) => {
        const id = `${auditTimeKey(ms)}-${random}`;
        return auditIdOf(P, policyKeys.auditEntry(P, id)) === id;
      }),
    );
    expect(auditIdOf(P, "/lc/master/console/audit/001764000000000-ab")).toBe("001764000000000-ab");
  });
  it("names the directory of every key a table's history compares", () => {
    // lib/time/history-moved-by.ts sorts a table's own keys into families by directory
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", minLength: 1 }), (target) => {
        const dirs = [
          [policyKeys.tablePolicy(P, target), KEY_DIRS.policies],
          [policyKeys.policy(P, "_default"), KEY_DIRS.policies],
          [keys.demandTable(P, target), KEY_DIRS.demand],
          [keys.targetLock(P, target), KEY_DIRS.targetLocks],
          [keys.mergeExecution(P, target), KEY_DIRS.mergeExecutions],
          [keys.mergeClaim(P, target), KEY_DIRS.mergeClaims],
          [keys.catchupActive(P, target), KEY_DIRS.catchupActive],
          [keys.compactPreparation(P, target), KEY_DIRS.compactPreparations],
          [keys.compactCommitReady(P, target), KEY_DIRS.compactCommitReady],
          [keys.cooldown(P, "compact", target), KEY_DIRS.cooldown],
          [`${keys.demandEventsOf(P, target)}s1`, KEY_DIRS.demandEvents],
          [keys.mergeFailure(P, target, "http://w"), KEY_DIRS.mergeFailures],
          [keys.assignment(P, target, "u1"), KEY_DIRS.assignments],
        ];
        return dirs.every(([key, dir]) => keyDirOf(P, key) === dir);
      }),
    );
  });
});

describe("the console's own keys", () => {
  it("dates samples in key order and bounds the clock's range", () => {
    expect(historyKey(P, 1_764_000_000_000)).toBe("/lc/master/console/shadow-history/001764000000000");
    expect(clockKey(P, 5)).toBe("/lc/master/console/revision-clock/000000000000005");
    expect(historyKey(P, 5).startsWith(historyPrefix(P))).toBe(true);
    fc.assert(
      fc.property(fc.nat(), fc.nat(), (a, b) => {
        const [ka, kb] = [clockKey(P, a), clockKey(P, b)];
        return (
          Math.sign(a - b) === (ka < kb ? -1 : ka > kb ? 1 : 0) &&
          ka.startsWith(clockPrefix(P)) &&
          ka < clockPrefixEnd(P)
        );
      }),
    );
  });
  it("places the probes under the prefix", () => {
    expect(compactProbeKey(P)).toBe("/lc/master/console/compact-probe");
    expect(compactProbeKey(`${P}//`)).toBe("/lc/master/console/compact-probe");
    expect(revisionProbeKey(P)).toBe("/lc/master/");
    expect(revisionProbeKey(`${P}/`)).toBe("/lc/master/");
    expect(revisionProbeKey(undefined)).toBe("\0");
  });
});

describe("journal chunk keys", () => {
  const kinds: ChunkKind[] = ["delta", "restated", "checkpoint", "after_no_sampler", "after_etcd_unavailable"];
  it("round-trips every field", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...kinds),
        fc.nat({ max: 999_999_998_000_000 }),
        fc.nat({ max: 1_000_000 }),
        fc.nat(),
        fc.nat(),
        fc.stringMatching(/^[A-Za-z0-9]{1,12}$/),
        fc.nat(),
        (kind, from, span, entries, bytes, writer, revision) => {
          const meta = { kind, from_ms: from, to_ms: from + span, entries, bytes };
          const key = journalChunkKey(P, meta, writer, revision);
          expect(parseChunkKey(P, key)).toEqual({ key, ...meta });
        },
      ),
    );
  });
  it("writes the layout the journal reads", () => {
    const key = journalChunkKey(P, { kind: "restated", from_ms: 5, to_ms: 7, entries: 3, bytes: 120 }, "w1", 42);
    expect(key).toBe("/lc/master/console/journal/000000000000005-000000000000007-000000000000042-b-3-120-w1");
    // a key written before the revision was in it is read the same
    expect(parseChunkKey(P, `${journalPrefix(P)}000000000000005-000000000000007-c-3-120-w1`)).toMatchObject({
      kind: "checkpoint",
      from_ms: 5,
      to_ms: 7,
      entries: 3,
      bytes: 120,
    });
    expect(key.startsWith(journalPrefix(P))).toBe(true);
    expect(trimmedKey(P)).toBe("/lc/master/console/journal-trimmed");
    expect(trimmedKey(P).startsWith(journalPrefix(P))).toBe(false);
  });
  it("orders chunks sharing their span by their first evaluation's revision", () => {
    const key = (revision: number, entries: number, bytes: number) =>
      journalChunkKey(P, { kind: "delta", from_ms: 5, to_ms: 5, entries, bytes }, "w1", revision);
    // the later chunk is smaller: without the revision its key would sort first
    expect([key(1000, 2, 90), key(999, 40, 3000)].sort()).toEqual([key(999, 40, 3000), key(1000, 2, 90)]);
  });
  it("rejects keys that are not chunks", () => {
    const base = journalPrefix(P);
    expect(parseChunkKey(P, trimmedKey(P))).toBeNull();
    expect(parseChunkKey(P, `${base}000000000000007-000000000000005-d-1-1-w`)).toBeNull(); // ends before it starts
    expect(parseChunkKey(P, `${base}000000000000005-000000000000007-x-1-1-w`)).toBeNull(); // no such kind
    expect(parseChunkKey(P, `${base}5-7-d-1-1-w`)).toBeNull(); // times not padded
    expect(parseChunkKey(P, `${base}000000000000005-000000000000007-d-1-1-w/x`)).toBeNull();
    expect(parseChunkKey("/other", `${base}000000000000005-000000000000007-d-1-1-w`)).toBeNull();
  });
});
