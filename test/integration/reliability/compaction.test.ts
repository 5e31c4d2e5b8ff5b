// Compaction races (§8.1): etcd compacted while a paged fleet read is between pages.
// The read restarts ONCE at a fresh revision and never mixes revisions; a second
// compaction during the restart fails with RevisionCompacted (never a mixed snapshot); a
// read pinned to a compacted revision fails with RevisionCompacted and its compact
// revision. Library level (readFleet with 8-key pages, a hook in front of the client's
// KV calls, on etcd3's connection pool) so the compaction lands between two pages; the HTTP 410 is
// checked in cluster.test.ts against a running console.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Etcd3 } from "etcd3";
import { createRawEtcdClient } from "@/lib/etcd/raw";
import { RevisionCompacted } from "@/lib/etcd/errors";
import { createFleetReader } from "@/lib/snapshot";
import { startEtcd, type EtcdCluster } from "../../support/etcd";
import { EtcdHttp } from "../../support/etcd-http";
import { demandEventPuts } from "../../support/fleet-records";

const P = "/rel-compaction/lance-context/master";
const TABLES = 1500;

let cluster: EtcdCluster;
let http: EtcdHttp;
let client: Etcd3;

/**
 * A client whose every KV call first runs `hook(call, compactedSoFar)`: the hook sits on
 * etcd3's connection pool (every range, whichever code path lib/etcd uses, goes through
 * `pool.withConnection`), so the compaction lands exactly between two pages.
 * `compactedSoFar` counts the KV calls that failed because their revision was compacted.
 */
function hookedClient(hook: (call: number, compactedFailures: number) => Promise<void>): {
  client: Etcd3;
  calls: () => number;
  compactedFailures: () => number;
} {
  const real = createRawEtcdClient({ endpoints: [cluster.members[0].clientUrl] });
  const pool = (
    real as unknown as { pool: { withConnection: (service: string, fn: unknown, hosts?: unknown) => Promise<unknown> } }
  ).pool;
  const original = pool.withConnection.bind(pool);
  let calls = 0;
  let compacted = 0;
  pool.withConnection = async (service, fn, hosts) => {
    if (service === "KV") {
      calls += 1;
      await hook(calls, compacted);
    }
    try {
      return await original(service, fn, hosts);
    } catch (e) {
      if (/compacted/.test((e as Error).message)) compacted += 1;
      throw e;
    }
  };
  opened.push(real);
  return { client: real, calls: () => calls, compactedFailures: () => compacted };
}

const opened: Etcd3[] = [];

/** Writes one more table and changes an existing one, then compacts to the current revision. */
async function writeAndCompact(tag: string): Promise<number> {
  const puts = demandEventPuts(P, [`late-${tag}`], 1, 999);
  puts.push(...demandEventPuts(P, ["table-00000"], 1, 1000 + tag.length));
  const rev = await http.putMany(puts);
  await http.compact(rev);
  return rev;
}

beforeAll(async () => {
  cluster = await startEtcd({ size: 1 });
  http = new EtcdHttp(cluster.members[0].clientUrl);
  const names = Array.from({ length: TABLES }, (_, i) => `table-${String(i).padStart(5, "0")}`);
  await http.putMany(demandEventPuts(P, names, 2, 10));
  client = createRawEtcdClient({ endpoints: [cluster.members[0].clientUrl] });
});

afterAll(async () => {
  client?.close();
  for (const c of opened) c.close();
  await cluster?.stop();
});

describe("compaction between pages of a fleet read", () => {
  it("restarts once at a fresh revision and returns one consistent revision", async () => {
    let compactedAt = 0;
    const hooked = hookedClient(async (call) => {
      if (call === 30) compactedAt = await writeAndCompact("a"); // well inside the first attempt's pages
    });
    const reader = createFleetReader({ client: hooked.client, prefix: P, maxPageKeys: 8 });
    const snapshot = await reader.readFleet();

    expect(compactedAt).toBeGreaterThan(0);
    expect(hooked.compactedFailures()).toBeGreaterThan(0); // the first attempt did hit the compaction
    expect(snapshot.revision).toBeGreaterThanOrEqual(compactedAt); // ...and the read restarted after it
    // nothing newer than the snapshot's revision, and exactly what etcd holds at it
    expect(snapshot.demandEvents.every((e) => e.modRevision <= snapshot.revision)).toBe(true);
    const truth = await http.range(`${P}/demand-events/`, { revision: snapshot.revision });
    expect(snapshot.demandEvents.map((e) => e.key).sort()).toEqual(
      truth.kvs.map((kv) => kv.key.toString("utf8")).sort(),
    );
    expect(snapshot.demandEvents).toHaveLength(TABLES * 2 + 1); // + the table written mid-read
    expect(snapshot.skipped).toHaveLength(0);
    const changed = snapshot.demandEvents.find((e) => e.target === "table-00000" && e.shard === "shard-0")!;
    expect(changed.event.sealed_through).toBe(1001);
  });

  it("a second compaction during the restart fails with RevisionCompacted, never a mixed snapshot", async () => {
    // compact once during the first attempt, and again inside the restart: after the first
    // compacted page, at most one more page per family (19) of the first attempt and one
    // revision probe can arrive before the restart's own pages
    let firstFailureAt = 0;
    let second = false;
    const hooked = hookedClient(async (call, compacted) => {
      if (call === 30) await writeAndCompact("b1");
      if (compacted > 0 && firstFailureAt === 0) firstFailureAt = call;
      if (firstFailureAt > 0 && !second && call === firstFailureAt + 21) {
        second = true;
        await writeAndCompact("b2");
      }
    });
    const reader = createFleetReader({ client: hooked.client, prefix: P, maxPageKeys: 8 });
    const err = await reader.readFleet().then(
      () => null,
      (e: unknown) => e,
    );
    expect(second).toBe(true);
    expect(err).toBeInstanceOf(RevisionCompacted);
  });

  it("a read pinned to a compacted revision fails with RevisionCompacted and the compact revision", async () => {
    const before = await http.revision();
    const compactRev = await writeAndCompact("c");
    const reader = createFleetReader({ client, prefix: P });
    const err = (await reader.readFleet({ revision: before - 1 }).catch((e: unknown) => e)) as RevisionCompacted;
    expect(err).toBeInstanceOf(RevisionCompacted);
    expect(err.revision).toBe(before - 1);
    expect(err.compactRevision).toBe(compactRev);
    // the live read still works right after
    const live = await reader.readFleet();
    expect(live.revision).toBeGreaterThanOrEqual(compactRev);
  });
});
