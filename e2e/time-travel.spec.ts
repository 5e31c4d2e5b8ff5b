// Time travel by wall time (console-api.md "Time"): pin by a time, read when the revision
// was written, step by change, the table's history with a skipped period, and a diff
// clicked through to a table — each against the seeded stack's real values.
import "../lib/sim/node-entry"; // first: lets lib/etcd load outside Next
import { createEtcdClient } from "@/lib/etcd/client";
import { writerEvent } from "@/lib/planner/join";
import { publishDemandEvent } from "@/lib/sim/publish";
import type { RevisionTime } from "@/lib/schema/api/revisions";
import type { HistoryResponse } from "@/lib/schema/api/history";
import type { DemandDetail } from "@/lib/schema/api/demand";
import { api, e2eState, expect, screenshot, test } from "./support/fixtures";

test.describe.configure({ mode: "serial" });

const fmt = (n: number) => n.toLocaleString("en-US");
const utc = (ms: number) => new Date(ms).toISOString().replace("T", " ").replace(/\.\d+Z$/, "Z");
/** a table made here: a tail first (skipped), then enough generations to be placed */
const SKIPPED_THEN_PLACED = "e2e/skipped-then-placed";

test("pins by wall time, shows when the revision was written, and returns to live", async ({ page }) => {
  const { changedRevision, changedTable } = e2eState();
  const written = await api<RevisionTime>(`/api/v1/revisions/time?revision=${changedRevision}`);
  expect(written.at_ms).not.toBeNull();
  // the change's own second (UTC, as every page shows time), typed as a clock time
  const clockTime = new Date(written.at_ms! + 1000).toISOString().slice(11, 19);
  const atMs = Date.parse(`${new Date(written.at_ms! + 1000).toISOString().slice(0, 10)}T${clockTime}Z`);
  await page.goto(`/tables/${encodeURIComponent(changedTable.target)}`);
  // the header names the live revision once the page is hydrated and health answered: typing
  // before that races the picker's first render
  await expect(page.getByTestId("live-state")).toContainText(/live · rev \d/);
  await page.getByRole("textbox", { name: "time (UTC) or revision" }).fill(clockTime);
  await page.getByRole("button", { name: "Pin" }).click();
  await expect(page).toHaveURL(/revision=\d+&at=/);
  // the matching revision: the newest written by then, as the revision clock answers now
  const expected = await api<RevisionTime>(`/api/v1/revisions/time?at_ms=${atMs}`);
  expect(expected.at_ms!).toBeLessThanOrEqual(atMs);
  expect(expected.revision).toBeGreaterThanOrEqual(changedRevision);
  await expect(page).toHaveURL(new RegExp(`revision=${expected.revision}&`));
  await expect(page.getByTestId("live-state")).toContainText(`NOT LIVE · rev ${fmt(expected.revision)}`);
  const detail = await api<DemandDetail>(`/api/v1/scheduler/demand?target=${encodeURIComponent(changedTable.target)}&revision=${expected.revision}`);
  expect(detail.now_basis).toBe("revision_time");
  await expect(page.getByTestId("pending-generations")).toHaveText(fmt(detail.table.pending_generations));
  await expect(page.getByTestId("as-of")).toContainText(`As of ${utc(expected.at_ms!)}`);
  await expect(page.getByTestId("as-of")).toContainText("±");
  await screenshot(page, "time-travel-pinned");

  // a shared link with the same pin opens the same view
  const shared = page.url();
  await page.goto("/");
  await page.goto(shared);
  await expect(page.getByTestId("live-state")).toContainText(`rev ${fmt(expected.revision)}`);

  // nonsense and the future are refused with a reason, the pin unchanged (the box first
  // shows the pin's time, once the page has read the link)
  await expect(page.getByRole("textbox", { name: "time (UTC) or revision" })).toHaveValue(/^\d{4}-\d\d-\d\d \d\d:\d\d/);
  await page.getByRole("textbox", { name: "time (UTC) or revision" }).fill("999999999999");
  await page.getByRole("button", { name: "Pin" }).click();
  await expect(page.getByTestId("pin-problem")).toContainText("does not exist yet");
  await page.getByRole("textbox", { name: "time (UTC) or revision" }).fill("last tuesday");
  await page.getByRole("button", { name: "Pin" }).click();
  await expect(page.getByTestId("pin-problem")).toContainText("cannot read");
  await expect(page).toHaveURL(new RegExp(`revision=${expected.revision}`));

  // evaluate now: the same revision at today's clock
  await page.getByTestId("evaluate-now").click();
  await expect(page).toHaveURL(/now=server/);
  await expect(page.getByTestId("pinned-banner")).toContainText("Evaluated at today's clock");

  await page.getByRole("button", { name: "Live" }).click();
  await expect(page).not.toHaveURL(/revision=/);
  await expect(page.getByTestId("live-state")).not.toContainText("NOT LIVE");
});

test("steps back and forward through the changes of one table", async ({ page }) => {
  const { changedRevision, changedTable } = e2eState();
  await page.goto(`/tables/${encodeURIComponent(changedTable.target)}?revision=${changedRevision}`);
  await expect(page.getByTestId("pending-generations")).toHaveText(fmt(changedTable.after));
  await page.getByRole("button", { name: "step back one change" }).click();
  await expect(page).not.toHaveURL(new RegExp(`revision=${changedRevision}(&|$)`));
  const back = Number(new URL(page.url()).searchParams.get("revision"));
  expect(back).toBeLessThan(changedRevision);
  await expect(page.getByTestId("pending-generations")).toHaveText(fmt(changedTable.before));
  await page.getByRole("button", { name: "step forward one change" }).click();
  await expect(page).toHaveURL(new RegExp(`revision=${changedRevision}(&|$)`));
  await expect(page.getByTestId("pending-generations")).toHaveText(fmt(changedTable.after));
});

test("the history of a table that was skipped below the threshold, then grew past it: each point is the table page pinned there", async ({ page }) => {
  const { etcdEndpoints, prefix } = e2eState();
  const client = createEtcdClient({ endpoints: etcdEndpoints.split(","), callTimeoutMs: 30_000 });
  try {
    const now = Date.now();
    await publishDemandEvent(client, prefix, SKIPPED_THEN_PLACED, writerEvent({ shard: "s1", sealed: 3, bytes: 3_000, epoch: 1, flushedAtMs: now - 60_000 }));
    await publishDemandEvent(client, prefix, SKIPPED_THEN_PLACED, writerEvent({ shard: "s1", sealed: 40, bytes: 40_000, epoch: 1, flushedAtMs: now }));
  } finally {
    client.close();
  }
  const history = await api<HistoryResponse>(`/api/v1/scheduler/demand/history?target=${encodeURIComponent(SKIPPED_THEN_PLACED)}`);
  expect(history.points.map((p) => p.pending_generations)).toEqual([3, 40]);
  expect(history.points[0].verdict).toEqual({ state: "would_skip", code: "tail_below_threshold" });
  // past the threshold, its verdict is the one the table page pinned at that revision gives
  // (with 13,405 tables ahead or behind it in line: placed, or waiting for a later cycle)
  const pinned = await api<DemandDetail>(`/api/v1/scheduler/demand?target=${encodeURIComponent(SKIPPED_THEN_PLACED)}&revision=${history.points[1].revision}`);
  const v = pinned.table.verdict;
  expect(history.points[1].verdict).toEqual({ state: v.state, code: v.state === "would_skip" ? v.code : null });
  expect(history.points[1].verdict.code).not.toBe("tail_below_threshold");
  // the live view serves the new table once the watch has brought it in
  await expect.poll(async () => (await fetch(`${e2eState().url}/api/v1/scheduler/demand?target=${encodeURIComponent(SKIPPED_THEN_PLACED)}`)).status, { timeout: 20_000 }).toBe(200);
  await page.goto(`/tables/${encodeURIComponent(SKIPPED_THEN_PLACED)}`);
  const clock = (ms: number) => new Date(ms).toISOString().slice(11, 16);
  const then = v.state === "would_place" ? "placed" : `skipped for ${v.code}`;
  await expect(page.getByTestId("history-summary")).toHaveText(
    `Skipped for tail_below_threshold from ${clock(history.points[0].at_ms!)} to ${clock(history.points[1].at_ms!)}, then ${then} from ${clock(history.points[1].at_ms!)}.`,
  );
  // the chart reads out a point from the keyboard: focus it, then the arrow keys step through the points
  const chart = page.getByRole("img", { name: /pending generations and wait of e2e\/skipped-then-placed/ });
  await chart.focus();
  await page.keyboard.press("ArrowRight");
  const readout = page.locator(".step-readout");
  await expect(readout).toContainText(`pending generations: ${history.points[0].pending_generations}`);
  await page.keyboard.press("End");
  await expect(readout).toContainText(`pending generations: ${history.points[1].pending_generations}`);
  // the chart says how its verdicts were reached (the whole fleet at each change, or the table alone)
  await expect(page.getByTestId("history-basis")).toContainText(history.verdict_basis === "fleet_plan" ? "whole fleet planned at each change" : "this table alone");
  await page.getByText("The data as a table").click();
  await expect(page.getByTestId("history-table").locator("tbody tr")).toHaveCount(2);
  await expect(page.getByTestId("history-table").locator("tbody tr").first()).toContainText("skipped for tail_below_threshold");
  await screenshot(page, "table-history");
});

test("a diff since a pinned revision, counts first, clicked through to a table", async ({ page }) => {
  const { seedRevision } = e2eState();
  await page.goto(`/?revision=${seedRevision}`);
  await page.getByTestId("compare-with-now").click();
  await expect(page).toHaveURL(new RegExp(`/diff\\?from=${seedRevision}`));
  const diff = await api<{ to: { revision: number }; tables: { appeared: string[] }; counts: Record<string, number> }>(`/api/v1/scheduler/diff?from=${seedRevision}`);
  expect(diff.tables.appeared).toContain(SKIPPED_THEN_PLACED);
  await expect(page.getByTestId("count-appeared")).toContainText(`${fmt(diff.counts.appeared)} tables with new pending work`);
  await page.getByTestId("count-appeared").click();
  await expect(page).toHaveURL(/show=appeared/);
  await page.getByTestId("diff-members").getByRole("link", { name: SKIPPED_THEN_PLACED }).click();
  await expect(page).toHaveURL(new RegExp(`/tables/${encodeURIComponent(SKIPPED_THEN_PLACED).replace(/%/g, "%")}`));
  await expect(page.getByTestId("pending-generations")).toHaveText("40");
  await screenshot(page, "diff-to-table");
});

test("the overview links what changed in the last hour", async ({ page }) => {
  await page.goto("/");
  await page.getByTestId("changed-last-hour").click();
  await expect(page).toHaveURL(/\/diff\?since=1h/);
  await expect(page.getByTestId("diff-counts")).toBeVisible();
  await expect(page.getByTestId("diff-sides")).toContainText("Each side is evaluated at its own time");
});
