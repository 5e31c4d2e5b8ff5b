// GET /scheduler/diff `from`/`to` as a time (console-api.md "Additions (third version)": a
// revision, an ISO 8601 time or Unix ms), against a real etcd: a time in `from` now picks
// the newest revision at or before it (it was silently ignored), whichever way it is written.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedEtcd } from "../../support/shared-etcd";
import type { Etcd3 } from "etcd3";
import { testPrefix } from "../../support/prefix";
import { publishDemandEvent } from "@/lib/sim";
import { writerEvent } from "@/lib/planner/join";
import { diffQuerySchema, diffResponseSchema } from "@/lib/schema/api/diff";
import { clientFor, HOUR_MS, seedDatedWorld, useConsoleEnv } from "./world";

let client: Etcd3;
let t0: number;
let seeded: number;
const NEW_TABLE = "moments/appeared-later";
const diff = async (q: Record<string, string>) =>
  diffResponseSchema.parse(await (await import("@/lib/time/diff")).fleetDiff(diffQuerySchema.parse(q)));

beforeAll(async () => {
  const endpoints = sharedEtcd();
  const prefix = testPrefix("time-diff-moments");
  useConsoleEnv(endpoints, prefix);
  client = clientFor(endpoints);
  t0 = Date.now() - 2 * HOUR_MS;
  seeded = await seedDatedWorld(client, prefix, t0);
  await publishDemandEvent(
    client,
    prefix,
    NEW_TABLE,
    writerEvent({ shard: "s1", sealed: 30, bytes: 30_000, epoch: 1, flushedAtMs: Date.now() }),
  );
});

afterAll(() => client?.close());

describe("diff from a time", () => {
  it("an ISO time, Unix ms in `from` and `from_ms` all start at the seeded revision; the new table appeared since", async () => {
    const at = t0 + 60_000;
    const iso = new Date(at).toISOString();
    const [byIso, byMs, byFromMs] = await Promise.all([
      diff({ from: iso }),
      diff({ from: String(at) }),
      diff({ from_ms: String(at) }),
    ]);
    for (const d of [byIso, byMs, byFromMs]) {
      expect(d.from.revision).toBe(seeded);
      expect(d.tables.appeared).toEqual([NEW_TABLE]);
    }
    expect(byIso.tables).toEqual(byFromMs.tables);
    expect(byMs.tables).toEqual(byFromMs.tables);
  });

  it("a time in `to` ends there: from the seeded revision to a minute after it, nothing appeared", async () => {
    const d = await diff({ from: String(seeded), to: new Date(t0 + 60_000).toISOString() });
    expect(d.from.revision).toBe(seeded);
    expect(d.to.revision).toBe(seeded);
    expect(d.tables.appeared).toEqual([]);
  });
});
