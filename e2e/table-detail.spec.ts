// `/tables/[target]`: a prepared compaction makes the merge yield (T45, spec §5.6 (a)); the
// page must say so in the planner's own code and words, next to the demand it has.
import "../lib/sim/node-entry"; // first: lets lib/etcd load outside Next
import type { DemandDetail, DemandList } from "@/lib/schema/api/demand";
import type { HistoryResponse } from "@/lib/schema/api/history";
import { createRawEtcdClient } from "@/lib/etcd/raw";
import { keys } from "@/lib/schema/keys";
import type { Page } from "@playwright/test";
import { docsScreenshot } from "./support/docs";
import { api, e2eState, expect, screenshot, test } from "./support/fixtures";
import { INCIDENT, INCIDENT_PENDING } from "./support/scenario";

/**
 * The history panel the reader sees. A live page streams it in: React puts the finished panel
 * in the document hidden, then swaps it for the loading one, so for a moment there are two.
 */
const historyPanel = (page: Page) => page.getByTestId("history-chart").filter({ visible: true });

test("explains why the prepared compaction's merge is not placed", async ({ page }) => {
  const target = INCIDENT.preparedTarget;
  const body = await api<DemandDetail>(`/api/v1/scheduler/demand?target=${encodeURIComponent(target)}`);
  // the compaction is placed; its merge unit is passed over, and says why
  const yieldReason = [...body.table.why_not, ...body.table.units.flatMap((u) => u.why_not)].find(
    (w) => w.code === "yield_to_prepared_commit",
  );
  expect(yieldReason, "the API explains the yield").toBeDefined();

  await page.goto(`/tables/${encodeURIComponent(target)}`);
  await expect(page.getByRole("heading", { name: target })).toBeVisible();
  await expect(page.getByTestId("pending-generations")).toHaveText(String(INCIDENT_PENDING[target]));
  // the prepared commit is the table's head unit: class commit_ready, ahead of its merge
  expect(body.table).toMatchObject({ class: "commit_ready", reason: "prepared_commit_ready" });
  await expect(page.getByTestId("class-reason")).toContainText("prepared_commit_ready");
  await expect(page.getByTestId("class-reason")).toContainText("a merge yields one turn to it");
  await expect(page.locator(".page-title .badge").first()).toHaveText("commit ready");
  const whyNot = page.getByTestId("why-not");
  await expect(
    whyNot.getByTestId("why-not-code").filter({ hasText: "yield_to_prepared_commit" }).first(),
  ).toBeVisible();
  await expect(whyNot.getByTestId("why-not-message").filter({ hasText: yieldReason!.message }).first()).toBeVisible();
  // its merge unit waited 2 h (past the 1 h turn wait) and is critical, but yields the turn
  const units = page.getByRole("region", { name: "demand and score" }).getByRole("row");
  await expect(units.filter({ hasText: "merge_wal" })).toContainText("promoted for age");
  await expect(units.filter({ hasText: "compact" })).toContainText("prepared commit ready");
  await expect(page.getByTestId("thresholds")).not.toContainText("min_generations");
  await expect(page.getByRole("region", { name: "shards" })).toContainText("eeeeeeee-0000-4000-8000-");
  await expect(page.getByTestId("cache-agreement")).toBeVisible();
  // the table's history in one request, on a time axis: its first point is its shard's seeded write
  const history = await api<HistoryResponse>(`/api/v1/scheduler/demand/history?target=${encodeURIComponent(target)}`);
  await expect(historyPanel(page)).toContainText(/\d+ changes? from \d{4}-\d\d-\d\d/);
  await historyPanel(page).getByText("The data as a table").click();
  await expect(page.getByTestId("history-table")).toContainText(history.points[0].revision.toLocaleString("en-US"));
  await screenshot(page, "table-detail-prepared-compaction");
  await screenshot(page, "table-detail-prepared-compaction-full", { fullPage: true });
});

test("a live table page arrives with the table and its chart drawn, then makes the chart interactive with one request", async ({
  page,
}) => {
  const target = INCIDENT.preparedTarget;
  const path = `/tables/${encodeURIComponent(target)}`;
  const history = `/api/v1/scheduler/demand/history?target=${encodeURIComponent(target)}`;
  // the server's HTML alone, no script run: the table's explanation and the chart are in it
  // (the server page read both answers: app/self-reads.ts)
  const html = await (await fetch(`${e2eState().url}${path}`)).text();
  expect(html).toContain('data-testid="class-reason"');
  expect(html).toContain('data-testid="history-summary"');
  expect(html).toMatch(/data-testid="history-chart"[\s\S]*<path/);
  const asked: string[] = [];
  page.on("request", (r) => {
    const url = new URL(r.url());
    if (url.pathname.startsWith("/api/")) asked.push(url.pathname + url.search);
  });
  await page.goto(path);
  await expect(page.getByTestId("history-summary")).toBeVisible();
  // made interactive: the chart measured its box (drawn at a nominal width until then), hover reads out a point
  const chart = page.locator('[data-testid="history-chart"] .step-chart svg');
  await expect(chart).not.toHaveAttribute("width", "100%");
  await chart.hover({ position: { x: 200, y: 100 } });
  await expect(page.locator(".step-readout")).toBeVisible();
  await historyPanel(page).getByText("The data as a table").click();
  await expect(page.getByTestId("history-table")).toBeVisible();
  expect(asked.filter((u) => u === history)).toEqual([history]);
  // a pinned page's history needs the table's time first: its server draws no chart, the browser does
  const revision = (await api<DemandDetail>(`/api/v1/scheduler/demand?target=${encodeURIComponent(target)}`)).revision;
  const pinnedHtml = await (await fetch(`${e2eState().url}${path}?revision=${revision}`)).text();
  expect(pinnedHtml).not.toContain('data-testid="history-summary"');
  await page.goto(`${path}?revision=${revision}`);
  await expect(page.getByTestId("history-summary")).toBeVisible();
});

test("shows the failure ledger and cooldowns of a broken table", async ({ page }) => {
  await page.goto(`/tables/${encodeURIComponent(INCIDENT.brokenStore)}`);
  const legacy = page.getByRole("region", { name: "legacy view" });
  await expect(legacy).toContainText("Not found: s3://lake/broken-store/_versions/17.manifest");
  await expect(legacy).toContainText("needs attention");
  await expect(legacy).toContainText("compaction failed: Not found: fragment 1207");
  await screenshot(page, "table-detail-broken-store");
});

/**
 * What worker-1 does while it merges: it reports progress (the next sequence, and the work report
 * beside it). The seeded merge stalls once its progress is older than its 10 min idle timeout, so
 * on a slow run the spec would otherwise see a stalled merge. Returns the sequence written.
 */
async function mergeReportsProgress(): Promise<number> {
  const { etcdEndpoints, prefix } = e2eState();
  const client = createRawEtcdClient({ endpoints: etcdEndpoints.split(","), callTimeoutMs: 30_000 });
  try {
    const id = INCIDENT.mergingExecutionId;
    const work = JSON.parse((await client.get(keys.mergeWork(prefix, id)).string()) ?? "{}") as Record<string, unknown>;
    const sequence = Number(work.sequence ?? INCIDENT.mergingSequence) + 1;
    await client
      .if(keys.mergeWork(prefix, id), "Create", ">", 0)
      .then(
        client.put(keys.mergeProgress(prefix, id)).value(JSON.stringify({ sequence })),
        client.put(keys.mergeWork(prefix, id)).value(JSON.stringify({ ...work, sequence })),
      )
      .commit();
    return sequence;
  } finally {
    client.close();
  }
}

test("a running merge holds the write turn: who runs it, where, how far, and the lock in words", async ({ page }) => {
  const target = INCIDENT.mergingTarget;
  const sequence = await mergeReportsProgress();
  const detail = () => api<DemandDetail>(`/api/v1/scheduler/demand?target=${encodeURIComponent(target)}`);
  // the console sees the progress move: the merge holds the write turn, not stalled
  await expect
    .poll(async () => (await detail()).table.verdict, { timeout: 30_000 })
    .toMatchObject({ state: "would_skip", code: "write_turn_held" });
  await page.goto(`/tables/${encodeURIComponent(target)}`);
  const whyNot = page.getByTestId("why-not");
  await expect(whyNot).toContainText("Would skip: write turn held");
  await expect(whyNot.getByTestId("why-not-code").first()).toHaveText("write_turn_held");
  // detail labels are words, never field names
  await expect(whyNot).not.toContainText("execution_id");
  await expect(whyNot).toContainText("idle timeout");
  const running = page.getByTestId("running-execution");
  await expect(running).toContainText(
    `execution ${INCIDENT.mergingExecutionId} run by worker-1 on http://worker-1.lake.internal:8080, phase running, progress sequence ${sequence}`,
  );
  await expect(running).toContainText("idle timeout 10m 00s");
  await expect(page.getByRole("region", { name: "legacy view" })).not.toContainText("neither queued nor running");
  await expect(page.getByTestId("target-lock")).toContainText(
    `held by merge execution ${INCIDENT.mergingExecutionId} · durable`,
  );
  // the one write-turn holder, as the verdict names it
  await expect(page.getByTestId("write-turn").getByTestId("write-turn-holder")).toHaveAttribute(
    "data-holder",
    `execution:${INCIDENT.mergingExecutionId}`,
  );
  await expect(page.getByTestId("place-in-line")).toContainText(/Its turn may come: (unknown|now|in )/);
  await expect(historyPanel(page)).toContainText("The last 6 hours");
  await docsScreenshot(page, "table-detail");
});

test("a stalled merge says for how long there was no progress, or that progress is unknown", async ({ page }) => {
  const target = INCIDENT.stalledTarget;
  const body = await api<DemandDetail>(`/api/v1/scheduler/demand?target=${encodeURIComponent(target)}`);
  const e = body.table.legacy.execution!;
  await page.goto(`/tables/${encodeURIComponent(target)}`);
  const running = page.getByTestId("running-execution");
  await expect(running).toContainText(`execution ${INCIDENT.stalledExecutionId} run by`);
  if (e.progress === "stalled") await expect(running).toContainText(/write turn stalled.*no progress for \d/);
  else await expect(running).toContainText("progress unknown");
});

test("labels speak words: epochs explained, cooldown below threshold, 'clears by itself' only where it means something", async ({
  page,
}) => {
  await page.goto(`/tables/${encodeURIComponent(INCIDENT.brokenStore)}`);
  await expect(page.getByTestId("epoch-note")).toContainText("fence epoch");
  await expect(page.getByRole("region", { name: "shards" })).toContainText("(epoch 1)");
  await expect(page.getByRole("region", { name: "shards" })).not.toContainText("@e1");
  await expect(page.getByRole("region", { name: "legacy view" }).getByTestId("cooldown-below-threshold")).toHaveText(
    "2 of 3 failures, not cooling",
  );
  await expect(page.getByRole("region", { name: "legacy view" })).not.toContainText("expired");
  const whyNot = page.getByTestId("why-not");
  await expect(whyNot).not.toContainText(/next_retry_ms|remaining_ms/);
  await expect(whyNot).toContainText("next retry");
  await expect(whyNot.getByTestId("why-not-retry").first()).toHaveText("needs someone to act");

  // an idle table (no_demand) and a tail (tail_below_threshold): no retry badge. The fleet moves
  // while the test runs, so the list and the pages are read as of one moment: pinned at one revision
  const { revision } = await api<DemandList>("/api/v1/scheduler/demand?limit=1");
  // each read is evaluated at R's time, an estimate that moves with the clock until the revision
  // clock's next sample after R (console-api.md "Time"); a verdict such as the cycle limit moves
  // with it, so the list and the pages wait until R's time holds still. That estimate is rounded
  // to 2 s, so its at_ms alone can repeat while it still moves; its error_ms (the open interval
  // up to now) grows with every read until a sample closes the interval
  let last: string | null = null;
  await expect
    .poll(
      async () => {
        const t = await api<{ at_ms: number | null; error_ms: number | null }>(
          `/api/v1/revisions/time?revision=${revision}`,
        );
        const seen = t.at_ms === null ? null : `${t.at_ms}±${t.error_ms}`;
        const still = seen !== null && seen === last;
        last = seen;
        return still;
      },
      { timeout: 30_000, intervals: [500] },
    )
    .toBe(true);
  const all = await api<DemandList>(
    `/api/v1/scheduler/demand?limit=2000&include_idle=true&class=idle&class=tail&revision=${revision}`,
  );
  for (const cls of ["idle", "tail"] as const) {
    // (a tail table can also be skipped for another reason first, e.g. a unit past the cycle limit)
    const code = cls === "idle" ? "no_demand" : "tail_below_threshold";
    const t = all.tables.find((x) => x.class === cls && x.verdict.state === "would_skip" && x.verdict.code === code);
    expect(t, `a ${cls} table skipped for ${code}`).toBeDefined();
    await page.goto(`/tables/${encodeURIComponent(t!.target)}?revision=${revision}`);
    await expect(page.getByTestId("why-not-code").first()).toHaveText(code);
    await expect(page.getByTestId("why-not-retry")).toHaveCount(0);
  }
});

test.describe("a table without demand", () => {
  test.use({ allowConsoleErrors: [/status of 404 .*demand\?target=incident%2Fphantom/] });
  test("a phantom table's page shows its legacy task", async ({ page }) => {
    await page.goto(`/tables/${encodeURIComponent(INCIDENT.phantomQueued)}`);
    await expect(page.getByTestId("table-not-found")).toBeVisible();
    await expect(page.getByTestId("phantom-task")).toContainText("holds a merge task");
    await page.getByTestId("phantom-task").getByRole("link", { name: "shadow page" }).click();
    await expect(page.getByTestId("outcome-tables-phantom_task")).toContainText(INCIDENT.phantomQueued);
  });
});
