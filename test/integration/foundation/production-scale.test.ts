// §10 T23 at full scale: 13,405 tables × 2 shards read at ONE revision by the paged
// reader; the same prefix in one unpaged range is over the 4 MiB response cap.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EtcdMessageTooLarge } from "@/lib/etcd/errors";
import { readFolded } from "@/lib/live/read";
import { deriveTable } from "@/lib/planner/derived";
import { keys } from "@/lib/schema/keys";
import { seedScenarios } from "@/lib/sim/seed";
import type { FleetRead } from "@/lib/snapshot/read";
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
});
