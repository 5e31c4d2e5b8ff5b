// §8.3 large records: a prefix well over 4 MiB (a 512-key page of `demand/` is over the
// 4 MiB response cap) reads completely at one revision, shrinking pages instead of
// tripping a breaker, and a following 1-key read succeeds at once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readPrefixPaged } from "@/lib/etcd/paged-read";
import { keys } from "@/lib/schema/keys";
import {
  LARGE_SMALL_SHARDS,
  LARGE_SMALL_TABLES,
  LARGE_WIDE_SHARDS,
  LARGE_WIDE_TABLES,
} from "@/lib/sim/scenarios/large-records";
import { seedScenarios } from "@/lib/sim/seed";
import type { FleetSnapshot } from "@/lib/snapshot/types";
import { testPrefix } from "../../support/prefix";
import { readerFor, suiteClient } from "./helpers";

const client = suiteClient();
const P = testPrefix("large");
let snap: FleetSnapshot;

beforeAll(async () => {
  await seedScenarios(client, ["large-records"], { prefix: P });
  snap = await readerFor(client, P).readFleet();
}, 180_000);
afterAll(() => client.close());

describe("large-records", () => {
  it("reads every record at one revision, shrinking pages on the way", () => {
    expect(snap.demandEvents).toHaveLength(
      LARGE_SMALL_TABLES * LARGE_SMALL_SHARDS + LARGE_WIDE_TABLES * LARGE_WIDE_SHARDS,
    );
    expect(snap.demandTables).toHaveLength(LARGE_SMALL_TABLES + LARGE_WIDE_TABLES);
    expect(snap.skipped).toHaveLength(0);
    expect(snap.stats.bytes).toBeGreaterThan(4 * 1024 * 1024);
    expect(snap.stats.shrinks).toBeGreaterThan(0);
    for (const e of snap.demandEvents) expect(e.modRevision).toBeLessThanOrEqual(snap.revision);
    const wide = snap.demandTables.find((t) => t.target === "large/wide-000")!;
    expect(Object.keys(wide.record.shards)).toHaveLength(LARGE_WIDE_SHARDS);
  });

  it("a 512-key page of demand/ is over the response cap: the reader shrinks and a 1-key read right after succeeds at once", async () => {
    const paged = await readPrefixPaged(client, keys.demandTables(P));
    expect(paged.kvs).toHaveLength(LARGE_SMALL_TABLES + LARGE_WIDE_TABLES);
    expect(paged.stats.shrinks).toBeGreaterThanOrEqual(1);
    const started = performance.now();
    const one = await client.get(keys.demandTable(P, "large/wide-000")).string();
    expect(one).not.toBeNull();
    expect(performance.now() - started).toBeLessThan(500);
  });
});
