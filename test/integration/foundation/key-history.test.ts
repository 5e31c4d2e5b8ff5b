// One key's earlier values against a real etcd (lib/etcd/key-history.ts): the keys of a
// table walked in step, one txn per round (`keyHistories`), give exactly what walking each
// key alone, one read per version, gives (`keyHistory` below, the reference) — versions, the value before the window, deletions and
// re-creations — for every window, walked whole or cut into parts side by side.
import { afterAll, describe, expect, it } from "vitest";
import type { Etcd3 } from "etcd3";
import { RevisionCompacted } from "@/lib/etcd/errors";
import { keyHistories, readRange, type KeyHistory, type VersionedKv } from "@/lib/etcd/key-history";
import { testPrefix } from "../../support/prefix";
import { suiteClient } from "./helpers";

const client = suiteClient();
afterAll(() => client.close());

/**
 * The reference: one key walked back alone, one read per version, from `uptoRevision`
 * down to `fromRevision`; a deletion ends the walk (no older version belongs to this life).
 */
async function keyHistory(
  client: Etcd3,
  consolePrefix: string,
  key: string,
  fromRevision: number,
  uptoRevision: number,
  maxVersions = 10_000,
): Promise<KeyHistory> {
  const versions: VersionedKv[] = [];
  let at = uptoRevision;
  for (let i = 0; i < maxVersions && at > 0; i++) {
    let kv: VersionedKv | undefined;
    try {
      kv = (await readRange(client, consolePrefix, { key, revision: at })).kvs[0];
    } catch (e) {
      if (e instanceof RevisionCompacted) return { versions: versions.reverse(), before: null, compacted: true };
      throw e;
    }
    if (!kv) return { versions: versions.reverse(), before: null, compacted: false };
    if (kv.modRevision < fromRevision) return { versions: versions.reverse(), before: kv, compacted: false };
    versions.push(kv);
    // the version before a (re)creation is a deleted gap: nothing older belongs to this life
    if (kv.modRevision === kv.createRevision) {
      at = kv.createRevision - 1;
      let prev: VersionedKv | undefined;
      try {
        prev = at > 0 ? (await readRange(client, consolePrefix, { key, revision: at })).kvs[0] : undefined;
      } catch (e) {
        // compaction took the gap's start: what came before is unknown (said, not guessed)
        if (e instanceof RevisionCompacted) return { versions: versions.reverse(), before: null, compacted: true };
        throw e;
      }
      if (!prev || prev.modRevision < fromRevision)
        return { versions: versions.reverse(), before: prev ?? null, compacted: false };
      continue;
    }
    at = kv.modRevision - 1;
  }
  return { versions: versions.reverse(), before: null, compacted: false };
}

describe("keyHistories", () => {
  it("equals keyHistory per key for every window: many versions, a deletion and re-creation, a key deleted, one never written", async () => {
    const P = testPrefix("key-history");
    const k = (name: string) => `${P}/walk/${name}`;
    const revisions: number[] = [];
    const put = async (name: string, value: string) =>
      revisions.push(Number((await client.put(k(name)).value(value).exec()).header.revision));
    const del = async (name: string) =>
      revisions.push(Number((await client.delete().key(k(name)).exec()).header.revision));
    await put("old", "o1");
    for (let i = 0; i < 12; i++) {
      await put("busy", `b${i}`);
      if (i % 3 === 0) await put("slow", `s${i}`);
      if (i === 4) await del("recreated-before");
      if (i === 2) await put("recreated-before", "r1");
      if (i === 6) await put("recreated-before", "r2");
      if (i === 8) await del("gone");
      if (i === 1) await put("gone", "g1");
    }
    const names = ["busy", "slow", "old", "recreated-before", "gone", "never"];
    const first = revisions[0];
    const last = revisions[revisions.length - 1];
    let windows = 0;
    for (let from = first - 1; from <= last + 1; from += 2)
      for (const upto of [last, last - 3, Math.min(last, from + 5)]) {
        if (upto < from) continue;
        windows++;
        const alone = await Promise.all(names.map((n) => keyHistory(client, P, k(n), from, upto)));
        // walked whole, and cut into parts walked side by side
        for (const parts of [undefined, 1, 2, 3, 5, 40]) {
          const together = await keyHistories(client, P, names.map(k), from, upto, { parts });
          expect(together, `window [${from}, ${upto}] in ${parts ?? "default"} parts`).toEqual(alone);
        }
      }
    expect(windows).toBeGreaterThan(20);
    // the whole window: the busy key's twelve versions, the re-created key's second life only
    const whole = await keyHistories(client, P, names.map(k), first, last);
    expect(whole[0].versions.map((v) => v.value)).toEqual(Array.from({ length: 12 }, (_, i) => `b${i}`));
    expect(whole[3].versions.map((v) => v.value)).toEqual(["r2"]);
    expect(whole[5]).toEqual({ versions: [], before: null, compacted: false });
  });
});
