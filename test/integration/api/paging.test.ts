// Cursor paging over the production scenario (13,405 tables, spec §10 T23 shape): every
// table exactly once, in planner order, all pages at one revision, while writes land.
import { afterAll, beforeAll, expect, it } from "vitest";
import { sharedEtcd } from "../../support/shared-etcd";
import type { Etcd3 } from "etcd3";
import { startApp, type RunningApp } from "../../support/app";
import { testPrefix } from "../../support/prefix";
import { seedScenarios, PRODUCTION_SHARDS, PRODUCTION_TABLES, productionTarget } from "@/lib/sim";
import { keys } from "@/lib/schema/keys";
import { demandListSchema, type DemandList } from "@/lib/schema/api/demand";
import { until } from "../../support/observe";
import { clientFor, metricSum, okBody, q } from "./helpers";

type Row = DemandList["tables"][number];
const scoreOf = (r: Row) => (r.score === "infinity" ? Infinity : r.score);

let client: Etcd3;
let app: RunningApp;
let prefix: string;

beforeAll(async () => {
  const endpoints = sharedEtcd();
  client = clientFor(endpoints);
  prefix = testPrefix("api-paging");
  await seedScenarios(client, ["production"], { prefix });
  app = await startApp({ ETCD_ENDPOINTS: endpoints, ETCD_PREFIX: prefix, CONSOLE_SHADOW_SAMPLER: "off" });
});

afterAll(async () => {
  await app?.stop();
  client?.close();
});

/** §4.1 planner order on the row fields: class; class 1 by wait desc; others score desc; target. */
function inPlannerOrder(a: Row, b: Row): boolean {
  if (a.class_rank !== b.class_rank) return a.class_rank < b.class_rank;
  if (a.class_rank === 1 && a.wait_ms !== b.wait_ms) return (a.wait_ms ?? -1) > (b.wait_ms ?? -1);
  if (a.class_rank !== 1 && a.class_rank !== 6 && scoreOf(a) !== scoreOf(b)) return scoreOf(a) > scoreOf(b);
  return Buffer.compare(Buffer.from(a.target), Buffer.from(b.target)) < 0;
}

it("walks 13,405 tables once each, in planner order, at one revision, while the fleet changes", async () => {
  const now = 1_700_000_100_000;
  const first = await okBody(
    app.url,
    `/api/v1/scheduler/demand${q({ limit: 2000, include_idle: true, now_ms: now })}`,
    demandListSchema,
  );
  expect(first.total_tables).toBe(PRODUCTION_TABLES);
  // the simulator writes from here on: later pages must not see it
  let writing = true;
  let writes = 0;
  const writer = (async () => {
    for (let i = 0; writing; i++) {
      const target = productionTarget((i * 7919) % PRODUCTION_TABLES);
      const sealed = 2000 + i;
      await client.put(keys.demandEvent(prefix, target, PRODUCTION_SHARDS[0])).value(
        JSON.stringify({
          v: 1,
          shard: PRODUCTION_SHARDS[0],
          sealed_through: sealed,
          sealed_bytes_through: 67_108_864,
          merged_through: 1000,
          flushed_at_ms: 1_700_000_000_000 + sealed,
          writer_epoch: 3,
          source: "scan",
        }),
      );
      writes++;
      await new Promise((r) => setTimeout(r, 25));
    }
  })();

  const rows: Row[] = [...first.tables];
  let cursor = first.next_cursor;
  let pages = 1;
  while (cursor) {
    const landed = writes;
    expect(
      await until(async () => (writes > landed ? true : undefined), 30_000, 10),
      "a write lands between pages",
    ).not.toBeNull();
    const page = await okBody(app.url, `/api/v1/scheduler/demand${q({ limit: 2000, cursor })}`, demandListSchema);
    expect(page.revision).toBe(first.revision);
    rows.push(...page.tables);
    cursor = page.next_cursor;
    pages++;
  }
  writing = false;
  await writer;
  expect(writes).toBeGreaterThanOrEqual(pages - 1); // at least one write landed between each two pages (waited for above)
  expect(pages).toBe(7);
  expect(rows).toHaveLength(PRODUCTION_TABLES);
  expect(new Set(rows.map((r) => r.target)).size).toBe(PRODUCTION_TABLES);
  for (let i = 1; i < rows.length; i++) {
    if (!inPlannerOrder(rows[i - 1], rows[i]))
      throw new Error(`rows ${i - 1} and ${i} out of planner order: ${JSON.stringify([rows[i - 1], rows[i]])}`);
  }
  // T23: pending p = i % 50 over the fleet
  expect(rows.reduce((s, r) => s + r.pending_generations, 0)).toBe(656_620);
  expect(first.tables_with_pending).toBe(13_136);

  // the live view moved on meanwhile, through the watch and without another full read of it
  const moved = await until(
    async () => {
      const live = await okBody(app.url, "/api/v1/scheduler/demand", demandListSchema);
      return live.revision > first.revision ? live : undefined;
    },
    30_000,
    100,
  );
  expect(moved, "the live view reaches a revision past the paged one").not.toBeNull();
  expect(await metricSum(app.url, "console_snapshot_full_reads_total", { reason: "initial" })).toBe(1);
  expect(await metricSum(app.url, "console_snapshot_full_reads_total", { reason: "watch_broken" })).toBe(0);
});
