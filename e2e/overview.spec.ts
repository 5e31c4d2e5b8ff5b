// `/`: the fleet overview shows the seeded fleet's real numbers, and steps through time by
// a change of what it shows.
import "../lib/sim/node-entry"; // first: lets lib/etcd load outside Next
import { createRawEtcdClient } from "@/lib/etcd/raw";
import { writerEvent } from "@/lib/planner/join";
import { keys } from "@/lib/schema/keys";
import { publishDemandEvent } from "@/lib/sim/publish";
import type { DemandList } from "@/lib/schema/api/demand";
import type { ExecutorsResponse } from "@/lib/schema/api/executors";
import type { ShadowResponse } from "@/lib/schema/api/shadow";
import type { SkippedResponse } from "@/lib/schema/api/skipped";
import { api, e2eState, expect, screenshot, test } from "./support/fixtures";
import { docsScreenshot } from "./support/docs";
import { INCIDENT, LEADER_INSTANCE, PRODUCTION_TABLES } from "./support/scenario";

test("shows counts, leader, etcd, capacity, shadow and skipped records", async ({ page }) => {
  const demand = await api<DemandList>("/api/v1/scheduler/demand?limit=1");
  const executors = await api<ExecutorsResponse>("/api/v1/scheduler/executors");
  const shadow = await api<ShadowResponse>("/api/v1/scheduler/shadow");
  await page.goto("/");
  await expect(page.getByTestId("total-tables")).toHaveText(demand.total_tables.toLocaleString("en-US"));
  expect(demand.total_tables).toBeGreaterThanOrEqual(PRODUCTION_TABLES);
  await expect(page.getByTestId("count-class-critical")).toHaveText(
    demand.counts.by_class.critical.toLocaleString("en-US"),
  );
  await expect(page.getByTestId("count-backlog-ok")).toHaveText(demand.counts.by_backlog.ok.toLocaleString("en-US"));
  await expect(page.getByTestId("leader-instance")).toHaveText(LEADER_INSTANCE);
  await expect(page.getByLabel("etcd health").getByText("ok")).toBeVisible();
  // free capacity is the verdicts' `free` (console-api.md "One capacity"), never the shadow-counting slots_free
  for (const [kind, h] of Object.entries(executors.totals.slots))
    await expect(page.getByTestId(`free-slots-${kind}`)).toHaveText(h.free.toLocaleString("en-US"));
  await expect(page.getByTestId("shadow-disagreements")).toHaveText(String(shadow.disagreements));
  // "next" is the placements in planner order (issue 27), the same rows that lead /tables' placements
  const placed = await api<DemandList>("/api/v1/scheduler/demand?verdict=would_place&limit=10");
  await expect(page.getByLabel("placed next").getByRole("link").first()).toHaveText(placed.tables[0].target);
  const next = await page.getByLabel("placed next").getByRole("link").allTextContents();
  expect(next).toEqual(placed.tables.map((t) => t.target));
  // stuck criticals are their own list, each with its reason
  const stuck = await api<DemandList>(
    "/api/v1/scheduler/demand?verdict=would_skip&class=recovery&class=critical&limit=10",
  );
  await expect(page.getByLabel("stuck criticals").getByRole("link")).toHaveCount(stuck.tables.length);
  // the two lists never repeat each other
  await expect(page.getByLabel("longest waits").getByRole("link").first()).toBeVisible();
  const waits = await page.getByLabel("longest waits").getByRole("link").allTextContents();
  expect(next.length).toBe(Math.min(10, placed.matched ?? placed.tables.length));
  expect(waits.filter((t) => next.includes(t))).toEqual([]);
  const stuckTargets = stuck.tables.map((t) => t.target);
  expect(waits.filter((t) => stuckTargets.includes(t))).toEqual([]);
  // free bytes leave out executors without a byte budget, and say how many
  if (executors.totals.unbudgeted > 0)
    await expect(page.getByTestId("bytes-free-total")).toContainText(`${executors.totals.unbudgeted} executor`);
  await expect(page.getByLabel("skipped records")).toContainText("unknown version 1");
  await screenshot(page, "overview");
  await docsScreenshot(page, "overview");

  // skipped records: the count links to the list with key and reason
  const skipped = await api<SkippedResponse>("/api/v1/scheduler/skipped");
  await expect(page.getByTestId("skipped-total")).toHaveText(skipped.skipped.length.toLocaleString("en-US"));
  await page.getByTestId("skipped-total").click();
  await expect(page).toHaveURL(/\/skipped/);
  if (skipped.skipped.length > 0) {
    const first = skipped.skipped[0];
    const row = page.getByTestId("skipped-list").getByRole("row").filter({ hasText: first.key });
    await expect(row).toContainText(first.reason);
  }
  // a key naming a table as hex shows the table, decoded and linked
  await expect(
    page.getByTestId("skipped-list").getByRole("link", { name: INCIDENT.futureVersionTarget }),
  ).toBeVisible();
  await expect(
    page.getByTestId("skipped-list").getByRole("row").filter({ hasText: INCIDENT.badHexKeySuffix }),
  ).toContainText("key names no table it could decode");
  await screenshot(page, "skipped");
});

/** a table made here: its first demand event adds one to the overview's table count */
const STEP_TABLE = "e2e/overview-step";

test.describe("stepping through time", () => {
  // a cold pinned read may time out on a busy machine (a 504 the page retries); not what this test is about
  test.use({ allowConsoleErrors: [/status of 50[34] /] });

  test("◀ and ▶ step by a change of what the overview shows, not by every write", async ({ page }) => {
    // each step plans the fleet at a few revisions (a cold pinned read each): slow on a busy machine
    test.setTimeout(300_000);
    const { etcdEndpoints, prefix } = e2eState();
    const client = createRawEtcdClient({ endpoints: etcdEndpoints.split(","), callTimeoutMs: 30_000 });
    const revisions: { quiet: number[]; shown: number; after: number[] } = { quiet: [], shown: 0, after: [] };
    try {
      // a heartbeat written again as it was: a write the overview reads, but nothing it states changes
      const heartbeat = (await client.getAll().prefix(keys.executors(prefix)).limit(1).exec()).kvs[0];
      const rewrite = async () =>
        Number((await client.put(heartbeat.key).value(heartbeat.value).exec()).header.revision);
      for (let i = 0; i < 3; i++) revisions.quiet.push(await rewrite());
      const published = await publishDemandEvent(
        client,
        prefix,
        STEP_TABLE,
        writerEvent({ shard: "s1", sealed: 3, bytes: 3_000, epoch: 1, flushedAtMs: Date.now() }),
      );
      expect(published).toBe(true);
      const event = (await client.get(keys.demandEvent(prefix, STEP_TABLE, "s1")).exec()).kvs[0];
      revisions.shown = Number(event.mod_revision);
      for (let i = 0; i < 2; i++) revisions.after.push(await rewrite());
    } finally {
      client.close();
    }
    const [first, , lastQuiet] = revisions.quiet;
    const fmt = (n: number) => n.toLocaleString("en-US");
    const pinnedAt = (revision: number) => new RegExp(`[?&]revision=${revision}(&|$)`);
    // a cold pinned read of the whole fleet may time out on a busy machine (504): ask again
    const tablesAt = async (revision: number) => {
      let total: number | null = null;
      const read = () =>
        api<DemandList>(`/api/v1/scheduler/demand?limit=1&revision=${revision}`).then(
          (d) => (total = d.total_tables),
          () => null,
        );
      await expect.poll(read, { timeout: 90_000 }).not.toBeNull();
      return total!;
    };
    // a step is a few pinned plans on the server: on a busy machine one may time out, and the
    // picker says so; the user (and this test) then asks again
    const stepTo = async (name: string, revision: number) => {
      await page.getByRole("button", { name }).click();
      await expect
        .poll(
          async () => {
            if (pinnedAt(revision).test(page.url())) return true;
            const problem = (await page.getByTestId("pin-problem").textContent()) ?? "";
            if (/etcd|timeout|50\d/.test(problem)) await page.getByRole("button", { name }).click();
            return false;
          },
          { timeout: 120_000, intervals: [1000] },
        )
        .toBe(true);
    };
    const before = await tablesAt(first);
    expect(await tablesAt(revisions.shown)).toBe(before + 1);

    // forward from the first quiet write: past the two heartbeats that change nothing shown, to the new table
    await page.goto(`/?revision=${first}`);
    await expect(page.getByTestId("total-tables")).toHaveText(fmt(before));
    await stepTo("step forward one change", revisions.shown);
    await expect(page.getByTestId("total-tables")).toHaveText(fmt(before + 1));

    // back from the last quiet write after it: past the heartbeat before it and the table's own
    // revision (the same overview), to the last revision that showed one table fewer
    await page.goto(`/?revision=${revisions.after[1]}`);
    await expect(page.getByTestId("total-tables")).toHaveText(fmt(before + 1));
    await stepTo("step back one change", lastQuiet);
    await expect(page.getByTestId("total-tables")).toHaveText(fmt(before));
  });
});
