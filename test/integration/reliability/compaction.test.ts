// Issue 7 "compaction races": etcd compacted while a paged fleet read is between pages.
// The read restarts ONCE at a fresh revision and never mixes revisions; a second
// compaction during the restart fails with RevisionCompacted (never a mixed snapshot); a
// read pinned to a compacted revision fails with RevisionCompacted and its compact
// revision. Library level (readFleet with 8-key pages, a hook in front of the client's
// range calls) so the compaction lands exactly between two pages; the HTTP 410 is
// checked in cluster.test.ts against a running console.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Etcd3 } from "etcd3";
import { createEtcdClient } from "@/lib/etcd/client";
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

/** A client whose demand-events range calls run `hook(n)` before the n-th pinned page (1-based). */
function hookedClient(hook: (page: number, pinned: number) => Promise<void>): { client: Etcd3; pinnedRevisions: number[] } {
  const pinnedRevisions: number[] = [];
  let page = 0;
  const eventsPrefix = `${P}/demand-events/`;
  const kv = Object.create(client.kv) as Etcd3["kv"];
  kv.range = async (req) => {
    const key = Buffer.isBuffer(req.key) ? req.key.toString("utf8") : String(req.key ?? "");
    const revision = Number(req.revision ?? 0);
    if (key.startsWith(eventsPrefix) && revision > 0) {
      page += 1;
      pinnedRevisions.push(revision);
      await hook(page, revision);
    }
    return client.kv.range(req);
  };
  const wrapped = Object.create(client) as Etcd3;
  Object.defineProperty(wrapped, "kv", { value: kv });
  return { client: wrapped, pinnedRevisions };
}

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
  client = createEtcdClient({ endpoints: [cluster.members[0].clientUrl] });
});

afterAll(async () => {
  client?.close();
  await cluster?.stop();
});

describe("compaction between pages of a fleet read", () => {
  it("restarts once at a fresh revision and returns one consistent revision", async () => {
    let compactedAt = 0;
    const hooked = hookedClient(async (page) => {
      if (page === 5) compactedAt = await writeAndCompact("a");
    });
    const reader = createFleetReader({ client: hooked.client, prefix: P, maxPageKeys: 8 });
    const snapshot = await reader.readFleet();

    const distinct = [...new Set(hooked.pinnedRevisions)];
    expect(distinct).toHaveLength(2); // the first attempt, then exactly one restart
    expect(distinct[1]).toBeGreaterThanOrEqual(compactedAt);
    expect(snapshot.revision).toBe(distinct[1]);
    // nothing newer than the snapshot's revision, and exactly what etcd holds at it
    expect(snapshot.demandEvents.every((e) => e.modRevision <= snapshot.revision)).toBe(true);
    const truth = await http.range(`${P}/demand-events/`, { revision: snapshot.revision });
    expect(snapshot.demandEvents.map((e) => e.key).sort()).toEqual(truth.kvs.map((kv) => kv.key.toString("utf8")).sort());
    expect(snapshot.demandEvents).toHaveLength(TABLES * 2 + 1); // + the table written mid-read
    expect(snapshot.skipped).toHaveLength(0);
    const changed = snapshot.demandEvents.find((e) => e.target === "table-00000" && e.shard === "shard-0")!;
    expect(changed.event.sealed_through).toBe(1001);
  });

  it("a second compaction during the restart fails with RevisionCompacted, never a mixed snapshot", async () => {
    let restartPages = 0;
    const hooked = hookedClient(async (page, pinned) => {
      if (page === 3) await writeAndCompact("b1"); // during the first attempt
      else if (pinned !== hooked.pinnedRevisions[0] && ++restartPages === 3) await writeAndCompact("b2"); // during the restart
    });
    const reader = createFleetReader({ client: hooked.client, prefix: P, maxPageKeys: 8 });
    const err = await reader.readFleet().then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(RevisionCompacted);
    expect(new Set(hooked.pinnedRevisions).size).toBe(2);
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
