// §10 T23 at full scale: 13,405 tables × 2 shards read at ONE revision by the paged
// reader; the same prefix in one unpaged range is over the 4 MiB response cap. The reader
// lets go of each value once parsed, and its answer is what the kvs' own bytes build.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EtcdMessageTooLarge } from "@/lib/etcd/errors";
import { readFolded } from "@/lib/live/read";
import { deriveTable } from "@/lib/planner/derived";
import { keys } from "@/lib/schema/keys";
import { seedScenarios } from "@/lib/sim/seed";
import { readPrefixesAtRevision } from "@/lib/etcd/paged-read";
import type { TableDemand } from "@/lib/schema/demand";
import { buildSnapshot, groupByFamily } from "@/lib/snapshot/build";
import { foldSnapshot } from "@/lib/snapshot/demand-index";
import { createFleetReader, type FleetRead } from "@/lib/snapshot/read";
import { testPrefix } from "../../support/prefix";
import { foldRead, readerFor, suiteClient } from "./helpers";

const client = suiteClient();
const P = testPrefix("t23");
let read: FleetRead;
let readMs = 0;
const reader = readerFor(client, P);

beforeAll(async () => {
  await seedScenarios(client, ["production"], { prefix: P });
  const started = performance.now();
  read = await reader.readFleetWithKvs();
  readMs = performance.now() - started;
}, 180_000);
afterAll(() => client.close());

describe("T23 reconcile_at_production_scale_pages_reads_and_keeps_the_lease (read side)", () => {
  it("an unpaged read of the prefix fails on the response cap, and the client is not blocked after", async () => {
    const prefix = Buffer.from(keys.demandEvents(P));
    const end = Buffer.from(prefix);
    end[end.length - 1] += 1;
    await expect(client.kv.range({ key: prefix, range_end: end })).rejects.toBeInstanceOf(EtcdMessageTooLarge);
    const started = performance.now();
    const one = await client.kv.range({ key: prefix, range_end: end, limit: 1 });
    expect(one.kvs).toHaveLength(1);
    expect(performance.now() - started).toBeLessThan(500);
  });

  it("reads 26,810 events at one revision with nothing skipped", () => {
    const snap = read.snapshot;
    expect(snap.demandEvents).toHaveLength(26_810);
    expect(snap.skipped).toHaveLength(0);
    expect(snap.stats.keys).toBe(26_810);
    expect(snap.stats.pages).toBeGreaterThan(26_810 / 4096);
    expect(snap.stats.bytes).toBeGreaterThan(4 * 1024 * 1024);
    expect(Math.max(...snap.demandEvents.map((e) => e.modRevision))).toBeLessThanOrEqual(snap.revision);
    console.log(
      `T23 readFleet: ${readMs.toFixed(0)} ms, ${snap.stats.pages} pages, ${snap.stats.shrinks} shrinks, ${snap.stats.bytes} bytes`,
    );
  });

  it("folds 13,405 tables, Σ pending 656,620, 13,136 with pending > 0", () => {
    const folded = foldRead(read);
    expect(folded.skipped).toHaveLength(0);
    expect(folded.tables.size).toBe(13_405);
    let total = 0;
    let withPending = 0;
    for (const table of folded.tables.values()) {
      const pending = deriveTable(table).pending_generations;
      total += pending;
      if (pending > 0) withPending += 1;
    }
    expect(total).toBe(656_620);
    expect(withPending).toBe(13_136);
  });

  it("a second read, cut into parallel sub-ranges at the first read's quantiles, returns the same keys", async () => {
    await client.put(`${P}/unrelated`).value("bump the revision");
    const again = await reader.readFleetWithKvs();
    expect(again.snapshot.revision).toBeGreaterThan(read.snapshot.revision);
    const keysOf = (r: FleetRead) => r.kvsByFamily.get("demand-events")!.map((kv) => kv.key);
    expect(keysOf(again)).toEqual(keysOf(read));
    expect(again.snapshot.demandEvents).toHaveLength(26_810);
    expect(again.snapshot.skipped).toHaveLength(0);
  });

  it("the live cache's re-read, in parallel parts cut at its first read's quantiles, folds the same tables", async () => {
    const first = await readFolded(client, P);
    await client.put(`${P}/unrelated`).value("bump the revision again");
    const second = await readFolded(client, P);
    expect(second.snapshot.revision).toBeGreaterThan(first.snapshot.revision);
    expect(second.snapshot.stats.ranges).toBeGreaterThan(first.snapshot.stats.ranges!); // read in parts
    const tablesOf = (r: typeof first) => {
      const tables = r.demand.tables(r.snapshot);
      return [...tables.keys()].sort().map((t) => [t, deriveTable(tables.get(t)!)]);
    };
    expect(tablesOf(second)).toEqual(tablesOf(first));
    expect(second.snapshot.demandEvents.map((e) => e.key)).toEqual(first.snapshot.demandEvents.map((e) => e.key));
  });

  it("lets go of each value once parsed, and reads what the kvs' own bytes build", async () => {
    const revision = read.snapshot.revision;
    for (const kvs of read.kvsByFamily.values()) for (const kv of kvs) expect(kv.value.length).toBe(0);
    // the same revision read raw (values kept), then parsed and folded afresh from the bytes
    const raw = await readPrefixesAtRevision(client, [`${P}/`], { revision });
    const kvs = raw.kvsByPrefix.get(`${P}/`)!;
    expect(kvs.filter((kv) => kv.value.length > 0).length).toBeGreaterThanOrEqual(26_810);
    const built = buildSnapshot(P, revision, groupByFamily(P, kvs));
    const { stats: _s, readAtMs: _r, ...fromBytes } = built;
    const { stats: _s2, readAtMs: _r2, ...fromRead } = read.snapshot;
    expect(fromRead).toEqual(fromBytes);
    const tables = foldSnapshot(built);
    const derived = (m: ReadonlyMap<string, TableDemand>) => [...m.keys()].sort().map((t) => [t, m.get(t)]);
    expect(derived(read.tables)).toEqual(derived(tables));
  });

  it("a reader started from another's hints (the offload worker's) reads in parts from its first read, the same fleet", async () => {
    const revision = read.snapshot.revision;
    const fresh = await createFleetReader({ client, prefix: P, cacheSize: 0 }).readFleetWithKvs({ revision });
    const hinted = await createFleetReader({ client, prefix: P, cacheSize: 0, hints: reader.hints() }).readFleetWithKvs(
      {
        revision,
      },
    );
    expect(hinted.snapshot.stats.ranges).toBeGreaterThan(fresh.snapshot.stats.ranges!); // in parts
    const keysOf = (r: FleetRead) => r.kvsByFamily.get("demand-events")!.map((kv) => kv.key);
    expect(keysOf(hinted)).toEqual(keysOf(fresh));
    const tablesOf = (r: FleetRead) => [...r.tables.keys()].sort().map((t) => [t, deriveTable(r.tables.get(t)!)]);
    expect(tablesOf(hinted)).toEqual(tablesOf(fresh));
    expect(tablesOf(hinted)).toHaveLength(13_405);
  });
});
