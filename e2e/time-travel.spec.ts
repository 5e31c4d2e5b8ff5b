// Time travel by wall time (console-api.md "Time"): pin by a time, read when the revision
// was written, step by change, the table's history with a skipped period, and a diff
// clicked through to a table — each against the seeded stack's real values.
import "../lib/sim/node-entry"; // first: lets lib/etcd load outside Next
import { createRawEtcdClient } from "@/lib/etcd/raw";
import { writerEvent } from "@/lib/planner/join";
import { publishDemandEvent } from "@/lib/sim/publish";
import type { RevisionTime } from "@/lib/schema/api/revisions";
import type { HistoryResponse } from "@/lib/schema/api/history";
import type { DemandDetail } from "@/lib/schema/api/demand";
import { api, e2eState, expect, screenshot, test } from "./support/fixtures";

test.describe.configure({ mode: "serial" });

const fmt = (n: number) => n.toLocaleString("en-US");
const utc = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace("T", " ")
    .replace(/\.\d+Z$/, "Z");
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
  const detail = await api<DemandDetail>(
    `/api/v1/scheduler/demand?target=${encodeURIComponent(changedTable.target)}&revision=${expected.revision}`,
  );
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

test("the history of a table that was skipped below the threshold, then grew past it: each point is the table page pinned there", async ({
  page,
}) => {
  const { etcdEndpoints, prefix } = e2eState();
  const url = `/api/v1/scheduler/demand/history?target=${encodeURIComponent(SKIPPED_THEN_PLACED)}`;
  // the elected sampler journals each live plan (console-api.md "The decision journal"): wait for it to enter each step
  const journalled = async (points: number) => {
    const h = await api<HistoryResponse>(url);
    return h.verdict_basis === "journal" && h.points.length >= points ? h : null;
  };
  const client = createRawEtcdClient({ endpoints: etcdEndpoints.split(","), callTimeoutMs: 30_000 });
  try {
    const now = Date.now();
    await publishDemandEvent(
      client,
      prefix,
      SKIPPED_THEN_PLACED,
      writerEvent({ shard: "s1", sealed: 3, bytes: 3_000, epoch: 1, flushedAtMs: now - 60_000 }),
    );
    await expect.poll(async () => (await journalled(1)) !== null, { timeout: 30_000 }).toBe(true);
    // the live plan's clock moves on in steps (a full plan every few seconds) and a journal entry is dated by
    // the plan's now_ms: let it move past the first entry's, so the skipped stretch lasts on the clock too
    const firstNow = (await journalled(1))!.points[0].now_ms!;
    const live = `/api/v1/scheduler/demand?target=${encodeURIComponent(SKIPPED_THEN_PLACED)}`;
    await expect
      .poll(async () => (await api<{ now_ms: number }>(live)).now_ms > firstNow, { timeout: 30_000 })
      .toBe(true);
    await publishDemandEvent(
      client,
      prefix,
      SKIPPED_THEN_PLACED,
      writerEvent({ shard: "s1", sealed: 40, bytes: 40_000, epoch: 1, flushedAtMs: now }),
    );
    await expect.poll(async () => (await journalled(2)) !== null, { timeout: 30_000 }).toBe(true);
  } finally {
    client.close();
  }
  const history = (await journalled(2))!;
  const first = history.points[0];
  const last = history.points.at(-1)!;
  expect(first.verdict).toEqual({ state: "would_skip", code: "tail_below_threshold" });
  expect(last.verdict?.code).not.toBe("tail_below_threshold");
  // each journal point is the table page pinned at its revision and now_ms (class, verdict, executor), dated as
  // that page dates its revision (while the revision clock's estimate may still narrow, it is compared on the page's)
  for (const p of history.points) {
    const pinned = await api<DemandDetail>(
      `/api/v1/scheduler/demand?target=${encodeURIComponent(SKIPPED_THEN_PLACED)}&revision=${p.revision}&now_ms=${p.now_ms}`,
    );
    const v = pinned.table.verdict;
    expect({ class: p.class, verdict: p.verdict, executor: p.executor }).toEqual({
      class: pinned.table.class,
      verdict: { state: v.state, code: v.state === "would_skip" ? v.code : null },
      executor: v.state === "would_place" ? v.executor : null,
    });
    expect(p.at_ms).not.toBeNull();
    expect(Math.abs(p.at_ms! - pinned.revision_time!.at_ms!)).toBeLessThanOrEqual(
      (p.error_ms ?? 0) + (pinned.revision_time!.error_ms ?? 0),
    );
  }
  expect(history.time_in_state.reduce((n, t) => n + t.ms, 0)).toBe(history.to_ms - history.from_ms);
  // the e2e fleet is minutes old: the default 6 h window starts before etcd's history, so it starts there instead
  expect(history.history_starts).not.toBeNull();
  // (the window begins at the earliest moment that revision may have been written)
  const start = history.history_starts!;
  expect(history.from_ms).toBe(start.at_ms! - (start.error_ms ?? 0));
  await page.goto(`/tables/${encodeURIComponent(SKIPPED_THEN_PLACED)}`);
  const clock = (ms: number) => new Date(ms).toISOString().slice(11, 16);
  // a stretch shorter than the clock's minute is dated to the second (components/tables/history-summary.ts)
  await expect(page.getByTestId("history-summary")).toContainText(
    new RegExp(`^Tail: not placed from ${clock(first.now_ms)}(:\\d\\d)? to `),
  );
  await expect(page.getByTestId("time-in-state")).toContainText("tail: not placed");
  await expect(page.getByTestId("history-starts")).toContainText(
    `etcd's history starts at revision ${fmt(history.history_starts!.revision)}`,
  );
  // the chart reads out a point from the keyboard: focus it, then the arrow keys step through the points
  const chart = page.getByRole("img", { name: /pending generations and wait of e2e\/skipped-then-placed/ });
  // the server drew it; it takes the keyboard once the browser has read the history too
  await expect(chart).toHaveAttribute("tabindex", "0");
  await chart.focus();
  await page.keyboard.press("ArrowRight");
  const readout = page.locator(".step-readout");
  // (a journal point is charted from the moment the live plan entered it, its now_ms)
  await expect(readout).toContainText(`${clock(first.now_ms)}`);
  // the chart says how its verdicts were reached
  await expect(page.getByTestId("history-basis")).toContainText("decision journal");
  await page.getByText("The data as a table").click();
  await expect(page.getByTestId("history-table").locator("tbody tr").first()).toContainText("tail: not placed");
  await screenshot(page, "table-history");
});

test.describe("a diff clicked through", () => {
  test("a diff since a pinned revision, counts first, clicked through to a table", async ({ page }) => {
    const { seedRevision } = e2eState();
    await page.goto(`/?revision=${seedRevision}`);
    await page.getByTestId("compare-with-now").click();
    await expect(page).toHaveURL(new RegExp(`/diff\\?from=${seedRevision}`));
    const diff = await api<{
      to: { revision: number };
      tables: { appeared: string[] };
      counts: Record<string, number>;
    }>(`/api/v1/scheduler/diff?from=${seedRevision}`);
    expect(diff.tables.appeared).toContain(SKIPPED_THEN_PLACED);
    await expect(page.getByTestId("count-appeared")).toContainText(
      `${fmt(diff.counts.appeared)} tables with new pending work`,
    );
    await page.getByTestId("count-appeared").click();
    await expect(page).toHaveURL(/show=appeared/);
    await page.getByTestId("diff-members").getByRole("link", { name: SKIPPED_THEN_PLACED }).click();
    await expect(page).toHaveURL(new RegExp(`/tables/${encodeURIComponent(SKIPPED_THEN_PLACED).replace(/%/g, "%")}`));
    await expect(page.getByTestId("pending-generations")).toHaveText("40");
    await screenshot(page, "diff-to-table");
  });
});

test("the overview links what changed in the last hour; an hour before etcd's history starts where it does", async ({
  page,
}) => {
  // where etcd's history starts, as the revision clock says it for a time before everything (a 404 naming it)
  const before = await fetch(`${e2eState().url}/api/v1/revisions/time?at_ms=0`);
  expect(before.status).toBe(404);
  const start = ((await before.json()) as { error: { oldest_revision: number; oldest_at_ms: number | null } }).error;
  const live = await api<{ now_ms: number }>("/api/v1/scheduler/executors");
  // the e2e fleet is minutes old: the last hour starts before it
  expect(start.oldest_at_ms).not.toBeNull();
  expect(start.oldest_at_ms!).toBeGreaterThan(live.now_ms - 3_600_000);
  await page.goto("/");
  await page.getByTestId("changed-last-hour").click();
  await expect(page).toHaveURL(/\/diff\?since=1h/);
  await expect(page.getByTestId("diff-counts")).toBeVisible();
  await expect(page.getByTestId("diff-sides")).toContainText("Each side is evaluated at its own time");
  // clamped, and said plainly: the comparison starts at the history's first revision
  await expect(page.getByTestId("diff-history-starts")).toContainText(
    `etcd's history starts at revision ${fmt(start.oldest_revision)} (written ${utc(start.oldest_at_ms!).slice(0, -1)}`,
  );
  await expect(page.getByTestId("diff-sides")).toContainText(`From revision ${fmt(start.oldest_revision)}`);
  // ... before the counts, with what it does to them: "0 tables changed" is not the last hour's story
  await expect(page.getByTestId("diff-history-starts")).toContainText("The window reaches before etcd's history.");
  const appeared = await page.getByTestId("count-appeared").locator(".count-number").textContent();
  await expect(page.getByTestId("diff-history-starts")).toContainText(
    `counts as new pending work (${appeared} table${appeared === "1" ? "" : "s"}), not as a change`,
  );
  const noteAbove = await page.evaluate(() => {
    const note = document.querySelector('[data-testid="diff-history-starts"]')!;
    const counts = document.querySelector('[data-testid="diff-counts"]')!;
    return Boolean(note.compareDocumentPosition(counts) & Node.DOCUMENT_POSITION_FOLLOWING);
  });
  expect(noteAbove, "the note comes before the counts").toBe(true);
});
